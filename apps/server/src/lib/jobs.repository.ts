import { type Database, type Executor, jobSchedules, jobs } from '@amora/db';
import { and, asc, desc, eq, inArray, lte, or, type SQL, sql } from 'drizzle-orm';

export type JobRow = typeof jobs.$inferSelect;

export interface ClaimedJob {
  id: number;
  name: string;
  payload: unknown;
  attempts: number;
  maxAttempts: number;
  runAt: Date;
}

export async function insertJob(
  exec: Executor,
  job: { name: string; payload: unknown; runAt: Date; maxAttempts: number },
): Promise<number> {
  const [row] = await exec
    .insert(jobs)
    .values({ name: job.name, payload: job.payload, runAt: job.runAt, maxAttempts: job.maxAttempts })
    .returning({ id: jobs.id });
  return row.id;
}

/**
 * Takes up to `limit` due jobs of the given names (or the one with `id`) for one worker: queued ones whose time
 * has come, and running ones whose lease ran out (their worker died or hung). SKIP LOCKED lets workers claim
 * side by side without waiting on each other's rows; the attempt is counted at the claim, so a worker that dies
 * mid-run has used one.
 */
export async function claimJobs(
  db: Database,
  options: {
    names: string[];
    now: Date;
    leaseMs: number;
    /** Names whose jobs hold their claim for another time than `leaseMs`. */
    leaseByName?: Record<string, number>;
    token: string;
    limit: number;
    id?: number;
  },
): Promise<ClaimedJob[]> {
  const { names, now, token, limit, id } = options;
  const until = (ms: number) => new Date(now.getTime() + ms);
  const other = Object.entries(options.leaseByName ?? {}).filter(([, ms]) => ms !== options.leaseMs);
  const lockedUntil =
    other.length === 0
      ? until(options.leaseMs)
      : sql`case ${jobs.name} ${sql.join(
          other.map(([name, ms]) => sql`when ${name} then ${until(ms).toISOString()}::timestamptz`),
          sql` `,
        )} else ${until(options.leaseMs).toISOString()}::timestamptz end`;
  if (names.length === 0) return [];
  const due = or(and(eq(jobs.status, 'queued'), lte(jobs.runAt, now)), and(eq(jobs.status, 'running'), lte(jobs.lockedUntil, now))) as SQL;
  const candidates = db
    .select({ id: jobs.id })
    .from(jobs)
    .where(and(due, inArray(jobs.name, names), id === undefined ? undefined : eq(jobs.id, id)))
    .orderBy(asc(jobs.runAt), asc(jobs.id))
    .limit(limit)
    .for('update', { skipLocked: true });
  return db
    .update(jobs)
    .set({
      status: 'running',
      attempts: sql`${jobs.attempts} + 1`,
      lockedUntil,
      lockedBy: token,
    })
    .where(inArray(jobs.id, candidates))
    .returning({
      id: jobs.id,
      name: jobs.name,
      payload: jobs.payload,
      attempts: jobs.attempts,
      maxAttempts: jobs.maxAttempts,
      runAt: jobs.runAt,
    });
}

/** A finished job is deleted, only by the worker whose claim it still is (`token`): a late one changes nothing. */
export async function completeJob(db: Database, id: number, token: string): Promise<boolean> {
  const rows = await db
    .delete(jobs)
    .where(and(eq(jobs.id, id), eq(jobs.lockedBy, token)))
    .returning({ id: jobs.id });
  return rows.length === 1;
}

/** A failed attempt: queued again at `retryAt`, or dead when `retryAt` is null. Only under the worker's own claim. */
export async function failJob(db: Database, id: number, token: string, error: string, retryAt: Date | null): Promise<boolean> {
  const rows = await db
    .update(jobs)
    .set({
      status: retryAt ? 'queued' : 'dead',
      ...(retryAt ? { runAt: retryAt } : {}),
      lockedUntil: null,
      lockedBy: null,
      lastError: error.slice(0, 2000),
    })
    .where(and(eq(jobs.id, id), eq(jobs.lockedBy, token)))
    .returning({ id: jobs.id });
  return rows.length === 1;
}

/** Makes a recurring job's row (due at `firstRun`) if there is none yet. */
export async function ensureSchedule(db: Database, name: string, firstRun: Date): Promise<void> {
  await db.insert(jobSchedules).values({ name, nextRunAt: firstRun }).onConflictDoNothing();
}

/**
 * Moves a due schedule on to `next`; true for the one caller that did it. PostgreSQL re-checks the condition on
 * a row another transaction changed meanwhile, so with several workers exactly one gets the period.
 */
export async function takeSchedule(exec: Executor, name: string, now: Date, next: Date): Promise<boolean> {
  const rows = await exec
    .update(jobSchedules)
    .set({ nextRunAt: next, lastRunAt: now })
    .where(and(eq(jobSchedules.name, name), lte(jobSchedules.nextRunAt, now)))
    .returning({ name: jobSchedules.name });
  return rows.length === 1;
}

export async function findJobs(db: Database, filter: { name?: string; status?: string } = {}): Promise<JobRow[]> {
  return db
    .select()
    .from(jobs)
    .where(
      and(
        filter.name === undefined ? undefined : eq(jobs.name, filter.name),
        filter.status === undefined ? undefined : eq(jobs.status, filter.status),
      ),
    )
    .orderBy(desc(jobs.id));
}

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

/**
 * The time a worker goes by: the database's own clock (`now()`), or a given instant (the tests' clock; see
 * createJobs). Every "is it due", "is the lease over" and "when next" is judged with it in SQL.
 */
export type JobClock = Date | SQL;

const at = (now: JobClock): SQL => (now instanceof Date ? sql`${now.toISOString()}::timestamptz` : now);
/** `now` plus `ms` milliseconds, in SQL. */
const later = (now: JobClock, ms: number): SQL => sql`(${at(now)} + ${ms}::bigint * interval '1 millisecond')`;

/**
 * The database's clock for the job tables, to the millisecond: the times it writes (a lease's end, a retry) read
 * back as the same JavaScript Date, which another clock compares with exactly.
 */
export const DATABASE_CLOCK: SQL = sql`date_trunc('milliseconds', now())`;

/** Pending jobs (queued, or running under a claim) hold their dedupe key; a done or dead one leaves it (`jobs_dedupe_idx`). */
const PENDING = sql`${jobs.status} in ('queued', 'running')`;

/**
 * Writes a job due at `runAt` (or `now`). With a `dedupeKey` that a pending job holds already, nothing is written
 * and the answer is that job's id (null when it finished meanwhile): the unique index `jobs_dedupe_idx` decides.
 */
export async function insertJob(
  exec: Executor,
  job: { name: string; payload: unknown; runAt: Date | null; now: JobClock; maxAttempts: number; dedupeKey?: string },
): Promise<number | null> {
  const values = {
    name: job.name,
    payload: job.payload,
    runAt: job.runAt ?? at(job.now),
    maxAttempts: job.maxAttempts,
    dedupeKey: job.dedupeKey ?? null,
  };
  if (job.dedupeKey === undefined) {
    const [row] = await exec.insert(jobs).values(values).returning({ id: jobs.id });
    return row.id;
  }
  // One statement for both outcomes: the new job's id, or else the pending one's as this statement sees them.
  const inserted = exec
    .$with('inserted', { id: sql<number>`id`.mapWith(jobs.id).as('id') })
    .as(
      exec.insert(jobs).values(values).onConflictDoNothing({ target: jobs.dedupeKey, where: PENDING }).returning({ id: jobs.id }).getSQL(),
    );
  // The inserted row first: a job that finished after this statement's snapshot still reads as pending in it.
  const pendingAlready = sql`select ${jobs.id}, 1 as rank from ${jobs} where ${jobs.dedupeKey} = ${job.dedupeKey} and ${PENDING}`;
  const [row] = await exec
    .with(inserted)
    .select({ id: inserted.id })
    .from(sql`(select id, 0 as rank from ${inserted} union all ${pendingAlready}) as ${inserted}`)
    .orderBy(sql`rank`)
    .limit(1);
  if (row) return row.id;
  // A pending job committed while the insert waited for it, after this statement's snapshot was taken.
  const [pending] = await exec
    .select({ id: jobs.id })
    .from(jobs)
    .where(and(eq(jobs.dedupeKey, job.dedupeKey), PENDING));
  return pending?.id ?? null;
}

/**
 * Writes several jobs of one statement, each due at its `runAt` (or `now`); a job whose `dedupeKey` a pending job
 * holds already (or an earlier job of the same call) is not written. How many were written.
 */
export async function insertJobs(
  exec: Executor,
  list: { name: string; payload: unknown; runAt: Date | null; maxAttempts: number; dedupeKey?: string }[],
  now: JobClock,
): Promise<number> {
  if (list.length === 0) return 0;
  const rows = await exec
    .insert(jobs)
    .values(
      list.map((job) => ({
        name: job.name,
        payload: job.payload,
        runAt: job.runAt ?? at(now),
        maxAttempts: job.maxAttempts,
        dedupeKey: job.dedupeKey ?? null,
      })),
    )
    .onConflictDoNothing({ target: jobs.dedupeKey, where: PENDING })
    .returning({ id: jobs.id });
  return rows.length;
}

/**
 * Takes up to `limit` due jobs of the given names (or the one with `id`) for one worker: queued ones whose time
 * has come, and running ones whose lease ran out (their worker died or hung), both by `now` (the database's clock
 * unless a test gives its own). SKIP LOCKED lets workers claim side by side without waiting on each other's rows;
 * the attempt is counted at the claim, so a worker that dies mid-run has used one.
 */
export async function claimJobs(
  db: Database,
  options: {
    names: string[];
    now: JobClock;
    leaseMs: number;
    /** Names whose jobs hold their claim for another time than `leaseMs`. */
    leaseByName?: Record<string, number>;
    token: string;
    limit: number;
    id?: number;
  },
): Promise<ClaimedJob[]> {
  const { names, now, token, limit, id } = options;
  const other = Object.entries(options.leaseByName ?? {}).filter(([, ms]) => ms !== options.leaseMs);
  const lockedUntil =
    other.length === 0
      ? later(now, options.leaseMs)
      : sql`case ${jobs.name} ${sql.join(
          other.map(([name, ms]) => sql`when ${name} then ${later(now, ms)}`),
          sql` `,
        )} else ${later(now, options.leaseMs)} end`;
  if (names.length === 0) return [];
  const due = or(
    and(eq(jobs.status, 'queued'), lte(jobs.runAt, at(now))),
    and(eq(jobs.status, 'running'), lte(jobs.lockedUntil, at(now))),
  ) as SQL;
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

/**
 * A failed attempt: queued again `retry.afterMs` after `retry.now`, or dead when `retry` is null. Only under the
 * worker's own claim.
 */
/**
 * Gives up a claim without an outcome (a worker stopping before its job is done): the lease ends now, so any
 * worker takes the job at once, and the attempt counts. Only the holder of the claim can; false when it is gone.
 */
export async function releaseJob(db: Database, id: number, token: string, now: JobClock): Promise<boolean> {
  const rows = await db
    .update(jobs)
    .set({ lockedUntil: sql`${at(now)}` })
    .where(and(eq(jobs.id, id), eq(jobs.lockedBy, token), eq(jobs.status, 'running')))
    .returning({ id: jobs.id });
  return rows.length === 1;
}

export async function failJob(
  db: Database,
  id: number,
  token: string,
  error: string,
  retry: { now: JobClock; afterMs: number } | null,
): Promise<boolean> {
  const rows = await db
    .update(jobs)
    .set({
      status: retry ? 'queued' : 'dead',
      ...(retry ? { runAt: later(retry.now, retry.afterMs) } : {}),
      lockedUntil: null,
      lockedBy: null,
      lastError: error.slice(0, 2000),
    })
    .where(and(eq(jobs.id, id), eq(jobs.lockedBy, token)))
    .returning({ id: jobs.id });
  return rows.length === 1;
}

/** Makes a recurring job's row (due at once) if there is none yet. */
export async function ensureSchedule(db: Database, name: string, now: JobClock): Promise<void> {
  await db
    .insert(jobSchedules)
    .values({ name, nextRunAt: at(now) })
    .onConflictDoNothing();
}

/**
 * Moves a due schedule on by `periodMs` from `now`; answers the start of the period taken, for the one caller
 * that took it (null for the others). PostgreSQL re-checks the condition on a row another transaction changed
 * meanwhile, so with several workers exactly one gets the period.
 */
export async function takeSchedule(exec: Executor, name: string, now: JobClock, periodMs: number): Promise<Date | null> {
  const rows = await exec
    .update(jobSchedules)
    .set({ nextRunAt: later(now, periodMs), lastRunAt: at(now) })
    .where(and(eq(jobSchedules.name, name), lte(jobSchedules.nextRunAt, at(now))))
    .returning({ startedAt: jobSchedules.lastRunAt });
  return rows[0]?.startedAt ?? null;
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

/** Per job name: queued and due, queued for later, running, dead, and the oldest due job's wait in seconds (by `now`). */
export async function queueStats(
  db: Executor,
  now: JobClock,
): Promise<{ name: string; due: number; later: number; running: number; dead: number; oldestDueSeconds: number }[]> {
  const due = sql`${jobs.status} = 'queued' and ${jobs.runAt} <= ${at(now)}`;
  return db
    .select({
      name: jobs.name,
      due: sql<number>`count(*) filter (where ${due})`.mapWith(Number),
      later: sql<number>`count(*) filter (where ${jobs.status} = 'queued' and ${jobs.runAt} > ${at(now)})`.mapWith(Number),
      running: sql<number>`count(*) filter (where ${jobs.status} = 'running')`.mapWith(Number),
      dead: sql<number>`count(*) filter (where ${jobs.status} = 'dead')`.mapWith(Number),
      oldestDueSeconds: sql<number>`coalesce(extract(epoch from ${at(now)} - min(${jobs.runAt}) filter (where ${due})), 0)`.mapWith(Number),
    })
    .from(jobs)
    .groupBy(jobs.name);
}

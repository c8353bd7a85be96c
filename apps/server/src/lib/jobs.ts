import { randomUUID } from 'node:crypto';
import type { Database, Executor } from '@amora/db';
import type { z } from 'zod';
import {
  type ClaimedJob,
  claimJobs,
  completeJob,
  DATABASE_CLOCK,
  ensureSchedule,
  failJob,
  insertJob,
  insertJobs,
  type JobClock,
  queueStats,
  releaseJob,
  takeSchedule,
} from './jobs.repository';
import type { JobQueue, Metrics } from './metrics';
import { afterCommit } from './transaction';

/** What a handler learns about the job besides its payload. */
export interface JobInfo {
  id: number;
  name: string;
  /** 1 for the first attempt; an attempt cut short by a dead worker counts. */
  attempt: number;
  maxAttempts: number;
  /** When it was due: for a recurring job, the start of its period (a retry moves it on). */
  dueAt: Date;
}

export type JobHandler<P = unknown> = (payload: P, job: JobInfo) => Promise<void>;

/** A kind of job: what its payload is, and how it runs. The app's are listed in apps/server/src/jobs.ts. */
export interface JobSpec<S extends z.ZodType = z.ZodType> {
  /** The payload's schema (ids, not data: a handler reads what it needs): checked when enqueued and when run. */
  payload: S;
  /** Attempts a job gets when enqueued without its own figure (default 5). */
  maxAttempts?: number;
  /** How long a claim holds: a worker that has not finished by then is taken for dead (default 5 minutes). */
  leaseMs?: number;
  /** Wait before the next attempt after `attempt` failed (default 30 s, doubling, at most 1 hour). */
  backoffMs?: (attempt: number) => number;
  /**
   * A recurring job: every `everyMs` one job (with an empty payload) across all processes on the database, the
   * first one as soon as a worker with its handler looks.
   */
  everyMs?: number;
}

/** Job names and their specs. */
export type JobSpecs = Record<string, JobSpec>;
/** What a handler of `K` is given. */
export type JobPayload<M extends JobSpecs, K extends keyof M> = z.output<M[K]['payload']>;
/** What `enqueue` of `K` takes. */
export type JobInput<M extends JobSpecs, K extends keyof M> = z.input<M[K]['payload']>;
/** A handler for every job of `M`. */
export type JobHandlers<M extends JobSpecs> = { [K in keyof M]: JobHandler<JobPayload<M, K>> };

/** Lists job specs with their types kept (`satisfies` would do the same). */
export function defineJobs<M extends JobSpecs>(specs: M): M {
  return specs;
}

export interface EnqueueOptions {
  /** Run no earlier than this (default: now). */
  runAt?: Date;
  maxAttempts?: number;
  /**
   * While a job with this key is pending (queued or running), enqueueing another does nothing and answers the
   * pending one's id (null if it finished meanwhile). A key names the work, e.g. `payments.check:42:1`.
   */
  dedupeKey?: string;
}

export interface Jobs<M extends JobSpecs = JobSpecs> {
  /**
   * The work for jobs of `name`; a process claims only jobs whose name it handles. Only apps/server/src/jobs.ts
   * calls it (registries.test.ts checks), for every job, before the worker starts: afterwards it throws.
   */
  handle<K extends keyof M & string>(name: K, handler: JobHandler<JobPayload<M, K>>): void;
  /**
   * Writes a job in `exec`, the transaction of the change that causes it (or the database): it exists if and
   * only if that change is committed. The payload is checked against the job's schema (a wrong one throws).
   * Workers take it from `runAt`. In a unit of work of withTransaction this process's worker looks for it right
   * after the commit; in a bare `db.transaction`, call `wake()` after it.
   */
  enqueue<K extends keyof M & string>(
    exec: Executor,
    name: K,
    payload: JobInput<M, K>,
    options?: EnqueueOptions & { dedupeKey?: undefined },
  ): Promise<number>;
  enqueue<K extends keyof M & string>(
    exec: Executor,
    name: K,
    payload: JobInput<M, K>,
    options: EnqueueOptions & { dedupeKey: string },
  ): Promise<number | null>;
  /**
   * Writes several jobs of `name` in one statement, as `enqueue` writes one (the payloads checked, a pending job's
   * `dedupeKey` leaves its job out): the hot path of a batch of changes (a batch of chat sends). How many were
   * written.
   */
  enqueueMany<K extends keyof M & string>(exec: Executor, name: K, list: ({ payload: JobInput<M, K> } & EnqueueOptions)[]): Promise<number>;
  /**
   * Runs one job in this process now, if it is due and no worker holds it (a mail's first attempt, so that the
   * member's request does not wait for the next poll). Failures go the usual way: retry later, or dead.
   * Answers whether this call ran it.
   */
  runNow(id: number): Promise<boolean>;
  /** Starts recurring periods that are due and runs due jobs until none is left; answers how many ran. For tests and tools. */
  runDue(): Promise<number>;
  /** Starts the worker loop: a look every `pollMs`, and on `wake()`. Handlers cannot be added after it. */
  start(): void;
  /** Looks for due jobs now (after a commit that enqueued some). */
  wake(): void;
  /**
   * Stops taking jobs and waits for the ones under way. With `releaseAfterMs`, a job still running after that long
   * has its lease released (another process takes it at once; this one's outcome is then ignored) and stop() no
   * longer waits for it. A second call answers the first one's promise.
   */
  stop(options?: { releaseAfterMs?: number }): Promise<void>;
  /** Every job name's queue in the database now (all processes'), a name without jobs with zeros: for the metrics. */
  queues(): Promise<JobQueue[]>;
}

interface Logger {
  info(obj: unknown, msg?: string): void;
  warn(obj: unknown, msg?: string): void;
}

export interface JobsOptions<M extends JobSpecs> {
  db: Database;
  /** Every job name this app knows, with its payload schema and options. */
  specs: M;
  /**
   * The clock jobs are judged by. By default the database's (`now()` in SQL: due times, leases, retries and
   * periods), so processes whose clocks differ agree on when a lease is over. Tests give the clock they move
   * (t.clock), and the same SQL compares with its time instead.
   */
  now?: () => Date;
  log?: Logger;
  /** Jobs one process runs at a time (default 2: one slow SMTP server must not hold up the rest). */
  concurrency?: number;
  /** How often an idle worker looks for due jobs (default 5 s). */
  pollMs?: number;
  /** Counts each attempt's outcome per job name (lib/metrics.ts). */
  metrics?: Pick<Metrics, 'jobFinished'>;
}

export const DEFAULT_MAX_ATTEMPTS = 5;
export const DEFAULT_LEASE_MS = 5 * 60_000;

export function defaultBackoffMs(attempt: number): number {
  return Math.min(30_000 * 2 ** (attempt - 1), 3_600_000);
}

function describe(error: unknown): string {
  if (error instanceof Error) return `${error.name}: ${error.message}`;
  return String(error);
}

interface Registered {
  handler: JobHandler<unknown>;
  spec: JobSpec;
}

/** What a schema said of a payload, for the job's last error. */
function problem(error: z.ZodError): string {
  const issue = error.issues[0];
  return `${issue?.path.join('.') || 'payload'}: ${issue?.message ?? 'invalid'}`;
}

/**
 * Durable jobs in the database (table `jobs`, see packages/db): at-least-once, so a handler must be safe to run
 * again for the same payload (check what is already done, as the mail job checks its outbox row). Exactly one
 * worker holds a job at a time, and only the holder of the current claim can finish or fail it.
 */
export function createJobs<M extends JobSpecs>(options: JobsOptions<M>): Jobs<M> {
  const { db, log, specs, metrics } = options;
  const clock = options.now;
  /** The time of this look: the test's clock when one is given, else the database's. */
  const now = (): JobClock => (clock ? clock() : DATABASE_CLOCK);
  const concurrency = options.concurrency ?? 2;
  const pollMs = options.pollMs ?? 5_000;
  const handlers = new Map<string, Registered>();
  const ensured = new Set<string>();
  const running = new Set<Promise<void>>();
  /** The claims of the jobs running in this process: job id → token (what stop() releases). */
  const held = new Map<number, string>();
  let stopping: Promise<void> | null = null;
  let timer: NodeJS.Timeout | null = null;
  let started = false;
  let stopped = false;
  let looking: Promise<void> | null = null;
  let lookAgain = false;
  /** Whether the next look also starts the due periods: the poll's looks do, a wake for a new job does not. */
  let periodsDue = true;

  const specOf = (name: string): JobSpec => {
    const spec = specs[name];
    if (!spec) throw new Error(`unknown job ${name}: list it in the job specs (apps/server/src/jobs.ts)`);
    return spec;
  };

  async function execute(job: ClaimedJob, token: string): Promise<void> {
    const { handler, spec } = handlers.get(job.name) as Registered;
    const info: JobInfo = { id: job.id, name: job.name, attempt: job.attempts, maxAttempts: job.maxAttempts, dueAt: job.runAt };
    // The previous attempt was the last one and its worker died before recording the outcome.
    if (job.attempts > job.maxAttempts) {
      await failJob(db, job.id, token, 'out of attempts: the last worker stopped before finishing', null);
      metrics?.jobFinished(job.name, 'dead');
      log?.warn({ jobId: job.id, job: job.name }, 'job is dead: its last attempt never finished');
      return;
    }
    // A payload its schema refuses (written by hand, or by an older version) will not get better: dead at once.
    const payload = spec.payload.safeParse(job.payload);
    if (!payload.success) {
      await failJob(db, job.id, token, `payload refused by its schema: ${problem(payload.error)}`, null);
      metrics?.jobFinished(job.name, 'dead');
      log?.warn({ jobId: job.id, job: job.name }, 'job is dead: its payload does not match its schema');
      return;
    }
    try {
      await handler(payload.data, info);
    } catch (error) {
      const backoffMs = spec.backoffMs ?? defaultBackoffMs;
      const retry = job.attempts < job.maxAttempts ? { now: now(), afterMs: backoffMs(job.attempts) } : null;
      await failJob(db, job.id, token, describe(error), retry);
      metrics?.jobFinished(job.name, retry ? 'retry' : 'dead');
      log?.warn(
        { err: error, jobId: job.id, job: job.name, attempt: job.attempts, retryInMs: retry?.afterMs },
        retry ? 'job failed; it will be retried' : 'job is dead: out of attempts',
      );
      return;
    }
    await completeJob(db, job.id, token);
    metrics?.jobFinished(job.name, 'done');
  }

  /** Claims up to `limit` due jobs (or the one with `id`) under a new token, each for its spec's lease. */
  async function claim(limit: number, id?: number): Promise<{ claimed: ClaimedJob[]; token: string }> {
    const token = randomUUID();
    const leaseByName = Object.fromEntries([...handlers].map(([name, h]) => [name, h.spec.leaseMs ?? DEFAULT_LEASE_MS]));
    const claimed = await claimJobs(db, {
      names: [...handlers.keys()],
      now: now(),
      leaseMs: DEFAULT_LEASE_MS,
      leaseByName,
      token,
      limit,
      id,
    });
    return { claimed, token };
  }

  /** Runs a claimed job; never throws (a failed database call leaves the job to its lease). */
  async function run(job: ClaimedJob, token: string): Promise<void> {
    held.set(job.id, token);
    try {
      await execute(job, token);
    } catch (error) {
      log?.warn({ err: error, jobId: job.id, job: job.name }, 'job outcome not recorded; it runs again once its lease is over');
    } finally {
      if (held.get(job.id) === token) held.delete(job.id);
    }
  }

  /** stop(): no new claims, then the jobs under way finish, or past `releaseAfterMs` their leases are released. */
  async function halt(releaseAfterMs: number | undefined): Promise<void> {
    stopped = true;
    if (timer) clearInterval(timer);
    timer = null;
    await looking;
    const finished = (async () => {
      while (running.size > 0) await Promise.allSettled([...running]);
    })();
    if (releaseAfterMs === undefined) return finished;
    let timeout: NodeJS.Timeout | undefined;
    const late = await Promise.race([
      finished.then(() => false),
      new Promise<boolean>((resolve) => {
        timeout = setTimeout(() => resolve(true), releaseAfterMs);
      }),
    ]);
    clearTimeout(timeout);
    if (!late) return;
    for (const [id, token] of [...held]) {
      held.delete(id);
      try {
        if (await releaseJob(db, id, token, now())) log?.warn({ jobId: id }, 'job still running at stop: its lease is released');
      } catch (error) {
        log?.warn({ err: error, jobId: id }, 'job lease not released; another process takes it once the lease is over');
      }
    }
  }

  /** Enqueues this period's job of every recurring job this worker handles that is due, once across all workers. */
  async function startPeriods(): Promise<void> {
    for (const [name, { spec }] of handlers) {
      if (spec.everyMs === undefined) continue;
      const periodMs = spec.everyMs;
      if (!ensured.has(name)) {
        await ensureSchedule(db, name, now());
        ensured.add(name);
      }
      await db.transaction(async (tx) => {
        const at = now();
        const startedAt = await takeSchedule(tx, name, at, periodMs);
        if (startedAt) {
          await insertJob(tx, { name, payload: {}, runAt: startedAt, now: at, maxAttempts: spec.maxAttempts ?? DEFAULT_MAX_ATTEMPTS });
        }
      });
    }
  }

  function track(work: Promise<unknown>): void {
    const tracked = work.then(
      () => {},
      (error: unknown) => log?.warn({ err: error }, 'job worker failed'),
    );
    running.add(tracked);
    // A job done, whichever way it ran (the worker's look or runNow): its slot is free, and the worker looks again
    // at once instead of leaving the due jobs to the next poll.
    void tracked.finally(() => {
      running.delete(tracked);
      wake();
    });
  }

  /**
   * One look: due periods (at the poll's looks only: a period is at least a minute, and each is a transaction of
   * its own, too much to repeat for every job enqueued or finished), then jobs while there are free slots; a
   * finished job looks again.
   */
  async function look(): Promise<void> {
    if (periodsDue) {
      periodsDue = false;
      await startPeriods();
    }
    while (!stopped && running.size < concurrency) {
      const { claimed, token } = await claim(1);
      const [job] = claimed;
      if (!job) break;
      track(run(job, token));
    }
  }

  function wake(): void {
    if (stopped || !timer) return;
    if (looking) {
      lookAgain = true;
      return;
    }
    looking = look()
      .catch((error: unknown) => log?.warn({ err: error }, 'job worker could not look for jobs'))
      .finally(() => {
        looking = null;
        if (lookAgain) {
          lookAgain = false;
          wake();
        }
      });
  }

  async function enqueue(exec: Executor, name: string, payload: unknown, enqueueOptions: EnqueueOptions = {}): Promise<number | null> {
    const spec = specOf(name);
    const parsed = spec.payload.safeParse(payload);
    if (!parsed.success) throw new Error(`job ${name}: the payload does not match its schema (${problem(parsed.error)})`);
    const id = await insertJob(exec, {
      name,
      payload: parsed.data,
      runAt: enqueueOptions.runAt ?? null,
      now: now(),
      maxAttempts: enqueueOptions.maxAttempts ?? spec.maxAttempts ?? DEFAULT_MAX_ATTEMPTS,
      dedupeKey: enqueueOptions.dedupeKey,
    });
    // Inside withTransaction the worker looks once the job is committed; otherwise at once (or at its next look).
    if (!enqueueOptions.runAt) afterCommit(wake);
    return id;
  }

  async function enqueueMany(exec: Executor, name: string, list: ({ payload: unknown } & EnqueueOptions)[]): Promise<number> {
    const spec = specOf(name);
    const rows = list.map((item) => {
      const parsed = spec.payload.safeParse(item.payload);
      if (!parsed.success) throw new Error(`job ${name}: the payload does not match its schema (${problem(parsed.error)})`);
      return {
        name,
        payload: parsed.data,
        runAt: item.runAt ?? null,
        maxAttempts: item.maxAttempts ?? spec.maxAttempts ?? DEFAULT_MAX_ATTEMPTS,
        dedupeKey: item.dedupeKey,
      };
    });
    const written = await insertJobs(exec, rows, now());
    if (list.some((item) => !item.runAt)) afterCommit(wake);
    return written;
  }

  return {
    handle(name, handler) {
      if (started) throw new Error(`job ${name}: handlers are registered before the worker starts (apps/server/src/jobs.ts)`);
      handlers.set(name, { handler: handler as JobHandler<unknown>, spec: specOf(name) });
    },

    enqueue: enqueue as Jobs<M>['enqueue'],

    enqueueMany: enqueueMany as Jobs<M>['enqueueMany'],

    async runNow(id) {
      if (stopped) return false;
      const work = claim(1, id).then(async ({ claimed, token }) => {
        for (const job of claimed) await run(job, token);
        return claimed.length === 1;
      });
      // It holds one of the worker's slots while it runs.
      track(work);
      return work.catch(() => false);
    },

    async runDue() {
      await startPeriods();
      let total = 0;
      for (;;) {
        const { claimed, token } = await claim(1);
        const [job] = claimed;
        if (!job) return total;
        await run(job, token);
        total++;
      }
    },

    start() {
      if (timer || stopped) return;
      started = true;
      timer = setInterval(() => {
        periodsDue = true;
        wake();
      }, pollMs);
      timer.unref();
      wake();
    },

    wake,

    stop(stopOptions = {}) {
      stopping ??= halt(stopOptions.releaseAfterMs);
      return stopping;
    },

    async queues() {
      const found = new Map((await queueStats(db, now())).map((queue) => [queue.name, queue]));
      const empty = (name: string): JobQueue => ({ name, due: 0, later: 0, running: 0, dead: 0, oldestDueSeconds: 0 });
      return [...new Set([...Object.keys(specs), ...found.keys()])].map((name) => found.get(name) ?? empty(name));
    },
  };
}

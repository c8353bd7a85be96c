import { randomUUID } from 'node:crypto';
import type { Database, Executor } from '@amora/db';
import { type ClaimedJob, claimJobs, completeJob, ensureSchedule, failJob, insertJob, takeSchedule } from './jobs.repository';
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

export interface HandlerOptions {
  /** Attempts a job of this name gets when enqueued without its own figure (default 5). */
  maxAttempts?: number;
  /** How long a claim holds: a worker that has not finished by then is taken for dead (default 5 minutes). */
  leaseMs?: number;
  /** Wait before the next attempt after `attempt` failed (default 30 s, doubling, at most 1 hour). */
  backoffMs?: (attempt: number) => number;
}

export interface EnqueueOptions {
  /** Run no earlier than this (default: now). */
  runAt?: Date;
  maxAttempts?: number;
}

export interface Jobs {
  /** The work for jobs of `name`; a process claims only jobs whose name it handles. */
  handle<P>(name: string, handler: JobHandler<P>, options?: HandlerOptions): void;
  /**
   * A recurring job: every `periodMs` one job of `name` (with an empty payload) across all processes on the
   * database, the first one as soon as a worker looks. `name` must have a handler.
   */
  every(name: string, periodMs: number): void;
  /**
   * Writes a job in `exec`, the transaction of the change that causes it (or the database): it exists if and
   * only if that change is committed. Workers take it from `runAt`. In a unit of work of withTransaction this
   * process's worker looks for it right after the commit; in a bare `db.transaction`, call `wake()` after it.
   */
  enqueue(exec: Executor, name: string, payload: unknown, options?: EnqueueOptions): Promise<number>;
  /**
   * Runs one job in this process now, if it is due and no worker holds it (a mail's first attempt, so that the
   * member's request does not wait for the next poll). Failures go the usual way: retry later, or dead.
   * Answers whether this call ran it.
   */
  runNow(id: number): Promise<boolean>;
  /** Starts recurring periods that are due and runs due jobs until none is left; answers how many ran. For tests and tools. */
  runDue(): Promise<number>;
  /** Starts the worker loop: a look every `pollMs`, and on `wake()`. */
  start(): void;
  /** Looks for due jobs now (after a commit that enqueued some). */
  wake(): void;
  /** Stops taking jobs and waits for the ones under way. */
  stop(): Promise<void>;
}

interface Logger {
  info(obj: unknown, msg?: string): void;
  warn(obj: unknown, msg?: string): void;
}

export interface JobsOptions {
  db: Database;
  now?: () => Date;
  log?: Logger;
  /** Jobs one process runs at a time (default 2: one slow SMTP server must not hold up the rest). */
  concurrency?: number;
  /** How often an idle worker looks for due jobs (default 5 s). */
  pollMs?: number;
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
  maxAttempts: number;
  leaseMs: number;
  backoffMs: (attempt: number) => number;
}

/**
 * Durable jobs in the database (table `jobs`, see packages/db): at-least-once, so a handler must be safe to run
 * again for the same payload (check what is already done, as the mail job checks its outbox row). Exactly one
 * worker holds a job at a time, and only the holder of the current claim can finish or fail it.
 */
export function createJobs(options: JobsOptions): Jobs {
  const { db, log } = options;
  const now = options.now ?? (() => new Date());
  const concurrency = options.concurrency ?? 2;
  const pollMs = options.pollMs ?? 5_000;
  const handlers = new Map<string, Registered>();
  const schedules = new Map<string, number>();
  const ensured = new Set<string>();
  const running = new Set<Promise<void>>();
  let timer: NodeJS.Timeout | null = null;
  let stopped = false;
  let looking: Promise<void> | null = null;
  let lookAgain = false;

  async function execute(job: ClaimedJob, token: string): Promise<void> {
    const registered = handlers.get(job.name) as Registered;
    const info: JobInfo = { id: job.id, name: job.name, attempt: job.attempts, maxAttempts: job.maxAttempts, dueAt: job.runAt };
    // The previous attempt was the last one and its worker died before recording the outcome.
    if (job.attempts > job.maxAttempts) {
      await failJob(db, job.id, token, 'out of attempts: the last worker stopped before finishing', null);
      log?.warn({ jobId: job.id, job: job.name }, 'job is dead: its last attempt never finished');
      return;
    }
    try {
      await registered.handler(job.payload, info);
    } catch (error) {
      const retryAt = job.attempts < job.maxAttempts ? new Date(now().getTime() + registered.backoffMs(job.attempts)) : null;
      await failJob(db, job.id, token, describe(error), retryAt);
      log?.warn(
        { err: error, jobId: job.id, job: job.name, attempt: job.attempts, retryAt },
        retryAt ? 'job failed; it will be retried' : 'job is dead: out of attempts',
      );
      return;
    }
    await completeJob(db, job.id, token);
  }

  /** Claims up to `limit` due jobs (or the one with `id`) under a new token, each for its handler's lease. */
  async function claim(limit: number, id?: number): Promise<{ claimed: ClaimedJob[]; token: string }> {
    const token = randomUUID();
    const leaseByName = Object.fromEntries([...handlers].map(([name, h]) => [name, h.leaseMs]));
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
    try {
      await execute(job, token);
    } catch (error) {
      log?.warn({ err: error, jobId: job.id, job: job.name }, 'job outcome not recorded; it runs again once its lease is over');
    }
  }

  /** Enqueues this period's job of every recurring job that is due, once across all workers. */
  async function startPeriods(): Promise<void> {
    for (const [name, periodMs] of schedules) {
      const at = now();
      if (!ensured.has(name)) {
        await ensureSchedule(db, name, at);
        ensured.add(name);
      }
      await db.transaction(async (tx) => {
        if (await takeSchedule(tx, name, at, new Date(at.getTime() + periodMs))) {
          await insertJob(tx, { name, payload: {}, runAt: at, maxAttempts: handlers.get(name)?.maxAttempts ?? DEFAULT_MAX_ATTEMPTS });
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
    void tracked.finally(() => running.delete(tracked));
  }

  /** One look: due periods, then jobs while there are free slots; a finished job looks again. */
  async function look(): Promise<void> {
    await startPeriods();
    while (!stopped && running.size < concurrency) {
      const { claimed, token } = await claim(1);
      const [job] = claimed;
      if (!job) break;
      track(run(job, token).then(wake));
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

  return {
    handle(name, handler, handlerOptions = {}) {
      handlers.set(name, {
        handler: handler as JobHandler<unknown>,
        maxAttempts: handlerOptions.maxAttempts ?? DEFAULT_MAX_ATTEMPTS,
        leaseMs: handlerOptions.leaseMs ?? DEFAULT_LEASE_MS,
        backoffMs: handlerOptions.backoffMs ?? defaultBackoffMs,
      });
    },

    every(name, periodMs) {
      schedules.set(name, periodMs);
    },

    async enqueue(exec, name, payload, enqueueOptions = {}) {
      const id = await insertJob(exec, {
        name,
        payload,
        runAt: enqueueOptions.runAt ?? now(),
        maxAttempts: enqueueOptions.maxAttempts ?? handlers.get(name)?.maxAttempts ?? DEFAULT_MAX_ATTEMPTS,
      });
      // Inside withTransaction the worker looks once the job is committed; otherwise at once (or at its next look).
      if (!enqueueOptions.runAt) afterCommit(wake);
      return id;
    },

    async runNow(id) {
      if (stopped) return false;
      const work = claim(1, id).then(async ({ claimed, token }) => {
        for (const job of claimed) await run(job, token);
        return claimed.length === 1;
      });
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
      timer = setInterval(wake, pollMs);
      timer.unref();
      wake();
    },

    wake,

    async stop() {
      stopped = true;
      if (timer) clearInterval(timer);
      timer = null;
      await looking;
      while (running.size > 0) await Promise.allSettled([...running]);
    },
  };
}

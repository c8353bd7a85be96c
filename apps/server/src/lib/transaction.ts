import { AsyncLocalStorage } from 'node:async_hooks';
import type { Database, Executor } from '@amora/db';

interface OpenTransaction {
  db: Database;
  tx: Executor;
  open: boolean;
  /** What afterCommit was given inside it, run once it has committed. */
  committed: (() => void)[];
}

/** The transaction a unit of work has open in this chain of calls, if any. */
const current = new AsyncLocalStorage<OpenTransaction>();

/**
 * One unit of work: `fn` gets a transaction and everything it writes through it commits together, or nothing
 * does when it throws. A call made inside another one on the same database (a service calling a service that
 * has its own unit of work, as the swipe game calls the likes) joins the outer transaction instead of opening
 * a second: its writes commit or roll back with the outer ones, and an error it throws rolls back the whole
 * unit. This matters on PGlite, which has one connection: a second transaction, or a query on `ctx.db`, from
 * inside a transaction would wait for the first forever.
 *
 * There is no savepoint: an outer `fn` that catches a nested call's error keeps what that call wrote before it
 * threw (and its afterCommit steps), and after a database error PostgreSQL refuses every further statement of
 * the unit. Catch a nested call's error only when it is thrown before that call writes anything.
 *
 * Repository calls inside `fn` take `tx`, never `ctx.db`.
 */
export async function withTransaction<T>(ctx: { db: Database }, fn: (tx: Executor) => Promise<T>): Promise<T> {
  const outer = current.getStore();
  if (outer?.open && outer.db === ctx.db) return fn(outer.tx);
  const committed: (() => void)[] = [];
  const result = await ctx.db.transaction(async (tx) => {
    const unit: OpenTransaction = { db: ctx.db, tx, open: true, committed };
    try {
      return await current.run(unit, () => fn(tx));
    } finally {
      // Work started inside and still running afterwards (not awaited) opens a transaction of its own.
      unit.open = false;
    }
  });
  for (const run of committed) runStep(run);
  return result;
}

/**
 * What a read outside `withTransaction` should query: the transaction of the unit of work open in this chain of
 * calls on `ctx.db` (so it sees that unit's writes, and on PGlite does not wait for the unit forever), or else
 * `ctx.db`. For a service that reads before its own unit of work and may be called inside a caller's.
 */
export function executorOf(ctx: { db: Database }): Executor {
  const unit = current.getStore();
  return unit?.open && unit.db === ctx.db ? unit.tx : ctx.db;
}

/**
 * Runs `fn` once the unit of work open in this chain of calls has committed, never when it rolls back, or at
 * once outside one. The event bus publishes through it, so no event tells of a change that is not stored. Each
 * step runs on its own: one that throws is logged (logAfterCommitErrorsTo) and the others still run, and the
 * unit of work still answers its result, since its change is committed.
 */
export function afterCommit(fn: () => void): void {
  const unit = current.getStore();
  if (unit?.open) unit.committed.push(fn);
  else runStep(fn);
}

/** Where a failed step after a commit is reported (pino's shape). */
export interface AfterCommitErrorLog {
  error(details: object, message: string): void;
}

const consoleLog: AfterCommitErrorLog = { error: (details, message) => console.error(message, details) };
let stepErrors: AfterCommitErrorLog = consoleLog;

/** Sends the errors of steps after a commit to `log` (the server's logger), or back to the console with null. */
export function logAfterCommitErrorsTo(log: AfterCommitErrorLog | null): void {
  stepErrors = log ?? consoleLog;
}

/**
 * Runs one step after a commit on its own: what it throws (or its promise rejects with) is logged, never passed
 * to the caller, whose change is committed, nor allowed to stop the steps after it.
 */
function runStep(fn: () => void): void {
  const report = (err: unknown) => stepErrors.error({ err }, 'a step after the commit failed');
  try {
    const done: unknown = fn();
    if (done instanceof Promise) done.catch(report);
  } catch (err) {
    report(err);
  }
}

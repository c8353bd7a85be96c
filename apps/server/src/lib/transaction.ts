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
 * How a service reaches the database, the one way (docs/ARCHITECTURE.md, "A request's path", step 3):
 *
 * - statements that must commit together: `withTransaction(ctx, async (tx) => …)`, repository calls inside taking
 *   `tx`;
 * - a statement on its own (a read, or one write): the repository call takes `dbOf(ctx)`;
 * - another module's service is called with `ctx`, never with a transaction: its `withTransaction` or `dbOf`
 *   joins the unit of work open in this chain of calls.
 *
 * Only the code that opens the database (bootstrap, main, the seed, the test harness) and lib/ touch `ctx.db`
 * (lib/transaction.test.ts checks the modules).
 */

/** What withTransaction and dbOf take, and so what a service function that only needs the database takes. */
export interface DbContext {
  db: Database;
}

/**
 * One unit of work: `fn` gets a transaction and everything it writes through it commits together, or nothing
 * does when it throws. A call made inside another one on the same database (a service calling a service that
 * has its own unit of work, as the swipe game calls the likes, or payments the credits and the discounts) joins
 * the outer transaction instead of opening a second: its writes commit or roll back with the outer ones, and an
 * error it throws rolls back the whole unit. This matters on PGlite, which has one connection: a second
 * transaction, or a query on `ctx.db`, from inside a transaction would wait for the first forever (in
 * development and tests it throws instead: refuseQueriesBesideOpenUnits).
 *
 * There is no savepoint: an outer `fn` that catches a nested call's error keeps what that call wrote before it
 * threw (and its afterCommit steps), and after a database error PostgreSQL refuses every further statement of
 * the unit. Catch a nested call's error only when it is thrown before that call writes anything.
 *
 * Repository calls inside `fn` take `tx`; a call to another module's service takes `ctx`.
 */
export async function withTransaction<T>(ctx: DbContext, fn: (tx: Executor) => Promise<T>): Promise<T> {
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
 * What a statement of its own queries (a read, or a single write that needs no unit of work): the transaction of
 * the unit of work open in this chain of calls on `ctx.db`, so that it sees the unit's writes and commits or rolls
 * back with them (and on PGlite does not wait for the unit forever), or else `ctx.db`.
 */
export function dbOf(ctx: DbContext): Executor {
  const unit = current.getStore();
  return unit?.open && unit.db === ctx.db ? unit.tx : ctx.db;
}

/** Whether a unit of work is open on `ctx.db` in this chain of calls (what a call made now would join). */
export function inUnitOfWork(ctx: DbContext): boolean {
  const unit = current.getStore();
  return unit?.open === true && unit.db === ctx.db;
}

/**
 * For development and tests on PGlite: a query on `db` itself (not on the transaction) while a unit of work is
 * open on it in this chain of calls throws at once, instead of waiting for that unit forever on PGlite's one
 * connection. Wraps Drizzle's preparing of the database's own statements (so the error is not wrapped in a
 * "Failed query") and the PGlite client's own query, exec and transaction; a transaction's are left as they are.
 */
export function refuseQueriesBesideOpenUnits(db: Database): void {
  const refused = () => {
    const unit = current.getStore();
    return unit?.open === true && unit.db === db;
  };
  const error = () =>
    new Error(
      'queried the database outside the open transaction: inside withTransaction use its tx, or dbOf(ctx) ' +
        '(lib/transaction.ts); on PGlite this query would wait for the transaction forever',
    );
  const internals = db as unknown as { session?: Record<string, unknown>; $client?: Record<string, unknown> };
  const wrap = (target: Record<string, unknown> | undefined, method: string, fail: () => unknown) => {
    const original = target?.[method];
    if (!target || typeof original !== 'function') return;
    target[method] = function guarded(this: unknown, ...args: unknown[]) {
      return refused() ? fail() : original.apply(this, args);
    };
  };
  wrap(internals.session, 'prepareQuery', () => {
    throw error();
  });
  for (const method of ['query', 'exec', 'transaction']) wrap(internals.$client, method, () => Promise.reject(error()));
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

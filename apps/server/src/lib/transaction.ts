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
 * unit unless the outer `fn` catches it. This matters on PGlite, which has one connection: a second
 * transaction, or a query on `ctx.db`, from inside a transaction would wait for the first forever.
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
  for (const run of committed) run();
  return result;
}

/**
 * Runs `fn` once the unit of work open in this chain of calls has committed, never when it rolls back, or at
 * once outside one. The event bus publishes through it, so no event tells of a change that is not stored.
 */
export function afterCommit(fn: () => void): void {
  const unit = current.getStore();
  if (unit?.open) unit.committed.push(fn);
  else fn();
}

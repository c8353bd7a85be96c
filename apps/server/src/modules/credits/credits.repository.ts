import { creditLedger, type Executor, users } from '@amora/db';
import { and, desc, eq, gte, sql } from 'drizzle-orm';

export type LedgerRow = typeof creditLedger.$inferSelect;

export interface LedgerEntryInput {
  userId: number;
  siteId: number;
  delta: number;
  balanceAfter: number;
  reason: string;
  idempotencyKey: string | null;
}

/**
 * Takes an idempotency key for a change about to be made: writes its ledger row (balance_after filled in by
 * settleClaim) unless a row with that key exists. On PostgreSQL a row another transaction is writing makes this
 * wait for that transaction: when it commits this returns null, when it rolls back the claim is ours. Null when
 * the key was taken.
 */
export async function claimKey(tx: Executor, entry: LedgerEntryInput): Promise<number | null> {
  const [row] = await tx
    .insert(creditLedger)
    .values(entry)
    .onConflictDoNothing({ target: creditLedger.idempotencyKey })
    .returning({ id: creditLedger.id });
  return row?.id ?? null;
}

export async function settleClaim(tx: Executor, ledgerId: number, balanceAfter: number): Promise<void> {
  await tx.update(creditLedger).set({ balanceAfter }).where(eq(creditLedger.id, ledgerId));
}

/** A claim whose change was refused (not enough credits): the key is free again. */
export async function dropClaim(tx: Executor, ledgerId: number): Promise<void> {
  await tx.delete(creditLedger).where(eq(creditLedger.id, ledgerId));
}

export async function findByKey(db: Executor, idempotencyKey: string): Promise<LedgerRow | undefined> {
  const [row] = await db.select().from(creditLedger).where(eq(creditLedger.idempotencyKey, idempotencyKey));
  return row;
}

export async function insertEntry(tx: Executor, entry: LedgerEntryInput): Promise<void> {
  await tx.insert(creditLedger).values(entry);
}

/**
 * Adds `delta` to the balance in one conditional statement: it only matches while the balance stays at or above
 * zero, and the row lock makes concurrent changes take turns, so they can never take it below. The new balance,
 * or null (nothing changed) when there were not enough credits or there is no such user.
 */
export async function addToBalance(tx: Executor, userId: number, delta: number): Promise<number | null> {
  const [row] = await tx
    .update(users)
    .set({ credits: sql`${users.credits} + ${delta}` })
    .where(and(eq(users.id, userId), gte(sql`${users.credits} + ${delta}`, 0)))
    .returning({ credits: users.credits });
  return row?.credits ?? null;
}

/** A member's ledger, newest first (the latest `limit` rows when given). */
export async function listLedger(db: Executor, userId: number, limit?: number): Promise<LedgerRow[]> {
  const query = db
    .select()
    .from(creditLedger)
    .where(eq(creditLedger.userId, userId))
    .orderBy(desc(creditLedger.createdAt), desc(creditLedger.id));
  return limit === undefined ? query : query.limit(limit);
}

import { creditLedger, type Executor } from '@amora/db';
import { desc, eq } from 'drizzle-orm';

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

/** A member's ledger, newest first (the latest `limit` rows when given). */
export async function listLedger(db: Executor, userId: number, limit?: number): Promise<LedgerRow[]> {
  const query = db
    .select()
    .from(creditLedger)
    .where(eq(creditLedger.userId, userId))
    .orderBy(desc(creditLedger.createdAt), desc(creditLedger.id));
  return limit === undefined ? query : query.limit(limit);
}

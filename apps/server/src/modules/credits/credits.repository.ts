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
 * The ledger row of a change made under an idempotency key, unless a row with that key exists. On PostgreSQL a row
 * another transaction is writing makes this wait for that transaction: when it commits this returns false, when it
 * rolls back the row is ours. False when the key was taken.
 */
export async function claimKey(tx: Executor, entry: LedgerEntryInput): Promise<boolean> {
  const [row] = await tx
    .insert(creditLedger)
    .values(entry)
    .onConflictDoNothing({ target: creditLedger.idempotencyKey })
    .returning({ id: creditLedger.id });
  return row !== undefined;
}

/** claimKey for several rows in one statement: the keys of the rows written (a key taken before is not). */
export async function claimKeys(tx: Executor, entries: (LedgerEntryInput & { idempotencyKey: string })[]): Promise<Set<string>> {
  if (entries.length === 0) return new Set();
  const rows = await tx
    .insert(creditLedger)
    .values(entries)
    .onConflictDoNothing({ target: creditLedger.idempotencyKey })
    .returning({ key: creditLedger.idempotencyKey });
  return new Set(rows.map((row) => row.key as string));
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

import { creditLedger, type Database, users } from '@amora/db';
import { and, eq, gte, sql } from 'drizzle-orm';

export interface CreditChange {
  userId: number;
  siteId: number;
  delta: number;
  reason: string;
  /** A retry with the same key changes nothing. */
  idempotencyKey?: string;
}

type Tx = Parameters<Parameters<Database['transaction']>[0]>[0];

/**
 * Changes a balance and writes its ledger row in one transaction. The update only matches while the balance
 * stays at or above zero, so concurrent spends can never take it below. Returns the new balance, or null when
 * there were not enough credits (nothing written).
 */
export async function changeCredits(db: Database | Tx, change: CreditChange): Promise<number | null> {
  const run = async (tx: Tx) => {
    if (change.idempotencyKey) {
      const [seen] = await tx
        .select({ balanceAfter: creditLedger.balanceAfter })
        .from(creditLedger)
        .where(eq(creditLedger.idempotencyKey, change.idempotencyKey));
      if (seen) return seen.balanceAfter;
    }
    const [row] = await tx
      .update(users)
      .set({ credits: sql`${users.credits} + ${change.delta}` })
      .where(and(eq(users.id, change.userId), gte(sql`${users.credits} + ${change.delta}`, 0)))
      .returning({ credits: users.credits });
    if (!row) return null;
    await tx.insert(creditLedger).values({
      userId: change.userId,
      siteId: change.siteId,
      delta: change.delta,
      balanceAfter: row.credits,
      reason: change.reason,
      idempotencyKey: change.idempotencyKey ?? null,
    });
    return row.credits;
  };
  if ('rollback' in db) return run(db as Tx);
  return (db as Database).transaction(run);
}

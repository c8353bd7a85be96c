import { discountCodes, type Executor, profiles, users } from '@amora/db';
import { and, eq, lt } from 'drizzle-orm';

export type DiscountCodeRow = typeof discountCodes.$inferSelect;

/** Locks the member's row until the transaction ends (calls made at once, like a double click, run one after the other). */
export async function lockMember(tx: Executor, userId: number): Promise<void> {
  await tx.select({ id: users.id }).from(users).where(eq(users.id, userId)).for('update');
}

/** The member's delete-retention code, open or not (one per member, ever), if one was made. */
export async function findRetentionCode(db: Executor, userId: number): Promise<DiscountCodeRow | undefined> {
  const [row] = await db
    .select()
    .from(discountCodes)
    .where(and(eq(discountCodes.userId, userId), eq(discountCodes.source, 'delete_retention')))
    .orderBy(discountCodes.id)
    .limit(1);
  return row;
}

/** Accounts deleted before `cutoff`, with their profile (null if it is already gone). */
export async function accountsDeletedBefore(db: Executor, cutoff: Date): Promise<{ userId: number; profileId: number | null }[]> {
  return db
    .select({ userId: users.id, profileId: profiles.id })
    .from(users)
    .leftJoin(profiles, eq(profiles.userId, users.id))
    .where(and(eq(users.status, 'deleted'), lt(users.deletedAt, cutoff)));
}

/** The account purge: the member's discount codes. */

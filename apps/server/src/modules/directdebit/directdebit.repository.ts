import { directDebitMandates, type Executor, paymentCustomers, paymentOrders, users } from '@amora/db';
import { and, desc, eq, inArray, sql } from 'drizzle-orm';

export type MandateRow = typeof directDebitMandates.$inferSelect;
export type NewMandateRow = typeof directDebitMandates.$inferInsert;

/** Order statuses of a payment that is not settled yet (neither paid nor finally refused). */
export const UNSETTLED_STATUSES = ['created', 'open', 'pending', 'authorized'] as const;

/**
 * The member's direct-debit flag, read with a row lock: inside the unit of work that starts an order, parallel
 * starts of one member take turns from here to the commit, so the count of open debits they see is final.
 */
export async function lockMemberForDirectDebit(db: Executor, userId: number): Promise<{ blocked: boolean } | null> {
  const [row] = await db.select({ blocked: users.directDebitBlocked }).from(users).where(eq(users.id, userId)).for('update');
  return row ?? null;
}

export async function findMemberFlags(
  db: Executor,
  userId: number,
): Promise<{ blocked: boolean; siteId: number; language: string } | null> {
  const [row] = await db
    .select({ blocked: users.directDebitBlocked, siteId: users.siteId, language: users.language })
    .from(users)
    .where(eq(users.id, userId));
  return row ?? null;
}

/** The member's newest valid mandate (of one provider, when given). */
export async function findValidMandate(db: Executor, userId: number, provider?: string): Promise<MandateRow | null> {
  const [row] = await db
    .select()
    .from(directDebitMandates)
    .where(
      and(
        eq(directDebitMandates.userId, userId),
        eq(directDebitMandates.status, 'valid'),
        provider ? eq(directDebitMandates.provider, provider) : undefined,
      ),
    )
    .orderBy(desc(directDebitMandates.id))
    .limit(1);
  return row ?? null;
}

export async function findCustomer(db: Executor, userId: number, provider: string): Promise<string | null> {
  const [row] = await db
    .select({ customerId: paymentCustomers.customerId })
    .from(paymentCustomers)
    .where(and(eq(paymentCustomers.userId, userId), eq(paymentCustomers.provider, provider)));
  return row?.customerId ?? null;
}

/** Stores the provider's customer of a member; answers the one stored first when two raced. */
export async function saveCustomer(db: Executor, userId: number, provider: string, customerId: string): Promise<string> {
  await db.insert(paymentCustomers).values({ userId, provider, customerId }).onConflictDoNothing();
  return (await findCustomer(db, userId, provider)) ?? customerId;
}

/** Direct-debit orders of the member that are not settled yet. */
export async function countOpenDirectDebits(db: Executor, userId: number): Promise<number> {
  const [row] = await db
    .select({ n: sql<number>`count(*)::int` })
    .from(paymentOrders)
    .where(
      and(
        eq(paymentOrders.userId, userId),
        eq(paymentOrders.method, 'directdebit'),
        inArray(paymentOrders.status, [...UNSETTLED_STATUSES]),
      ),
    );
  return Number(row?.n ?? 0);
}

/** A new mandate replaces the member's earlier ones (kept as 'replaced' for the payments made with them). */
export async function insertMandate(db: Executor, row: NewMandateRow): Promise<MandateRow> {
  await db
    .update(directDebitMandates)
    .set({ status: 'replaced' })
    .where(and(eq(directDebitMandates.userId, row.userId), eq(directDebitMandates.status, 'valid')));
  const [inserted] = await db.insert(directDebitMandates).values(row).returning();
  return inserted;
}

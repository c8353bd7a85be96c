import {
  creditPackages,
  directDebitMandates,
  type Executor,
  paymentCustomers,
  paymentEvents,
  paymentMethods,
  paymentOrders,
  users,
} from '@amora/db';
import { and, asc, desc, eq, gte, inArray, isNull, sql } from 'drizzle-orm';

export type PackageRow = typeof creditPackages.$inferSelect;
export type MethodRow = typeof paymentMethods.$inferSelect;
export type OrderRow = typeof paymentOrders.$inferSelect;
export type NewOrder = typeof paymentOrders.$inferInsert;

/** The member's account facts a purchase needs. */
export interface Buyer {
  userId: number;
  siteId: number;
  language: string;
  credits: number;
  paidUser: boolean;
  creditDebt: number;
  /** Set by a chargeback: no more payments without a checkout (direct debit, a saved card). */
  directDebitBlocked: boolean;
  /** The country of the member's first purchase (paid, or paid and charged back): their payment country for good. */
  firstPurchaseCountry: string | null;
}

export async function findBuyer(db: Executor, userId: number): Promise<Buyer | undefined> {
  const [row] = await db
    .select({
      userId: users.id,
      siteId: users.siteId,
      language: users.language,
      credits: users.credits,
      paidUser: users.paidUser,
      creditDebt: users.creditDebt,
      directDebitBlocked: users.directDebitBlocked,
      // "users"."id" written out: drizzle leaves the selected table's name off its columns, which here would be o's.
      firstPurchaseCountry: sql<string | null>`(select o.country from ${paymentOrders} o where o.user_id = "users"."id"
        and o.status in ('paid', 'charged_back') order by o.paid_at asc nulls last, o.id asc limit 1)`,
    })
    .from(users)
    .where(eq(users.id, userId));
  return row;
}

/** The countries of a site that have packages on sale. */
export async function countriesWithPackages(db: Executor, siteId: number): Promise<string[]> {
  const rows = await db
    .selectDistinct({ country: creditPackages.country })
    .from(creditPackages)
    .where(and(eq(creditPackages.siteId, siteId), eq(creditPackages.active, true)));
  return rows.map((r) => r.country).sort();
}

export async function listPackages(db: Executor, siteId: number, country: string): Promise<PackageRow[]> {
  return db
    .select()
    .from(creditPackages)
    .where(and(eq(creditPackages.siteId, siteId), eq(creditPackages.country, country), eq(creditPackages.active, true)))
    .orderBy(asc(creditPackages.position), asc(creditPackages.id));
}

export async function findPackage(db: Executor, id: number): Promise<PackageRow | undefined> {
  const [row] = await db.select().from(creditPackages).where(eq(creditPackages.id, id));
  return row;
}

export async function listMethods(db: Executor, siteId: number, country: string): Promise<MethodRow[]> {
  return db
    .select()
    .from(paymentMethods)
    .where(and(eq(paymentMethods.siteId, siteId), eq(paymentMethods.country, country)))
    .orderBy(asc(paymentMethods.position), asc(paymentMethods.method));
}

/** Stores a new order; undefined when this member already has an order with that request key. */
export async function insertOrder(tx: Executor, order: NewOrder): Promise<OrderRow | undefined> {
  const [row] = await tx
    .insert(paymentOrders)
    .values(order)
    .onConflictDoNothing({ target: [paymentOrders.userId, paymentOrders.requestKey] })
    .returning();
  return row;
}

export async function findOrderByRequest(db: Executor, userId: number, requestKey: string): Promise<OrderRow | undefined> {
  const [row] = await db
    .select()
    .from(paymentOrders)
    .where(and(eq(paymentOrders.userId, userId), eq(paymentOrders.requestKey, requestKey)));
  return row;
}

export async function findOrder(db: Executor, id: number): Promise<OrderRow | undefined> {
  const [row] = await db.select().from(paymentOrders).where(eq(paymentOrders.id, id));
  return row;
}

export async function findOrderByPayment(db: Executor, provider: string, paymentId: string): Promise<OrderRow | undefined> {
  const [row] = await db
    .select()
    .from(paymentOrders)
    .where(and(eq(paymentOrders.provider, provider), eq(paymentOrders.providerPaymentId, paymentId)));
  return row;
}

/** The order, locked until the end of the transaction: webhooks and status checks of one order take turns. */
export async function lockOrder(tx: Executor, id: number): Promise<OrderRow | undefined> {
  const [row] = await tx.select().from(paymentOrders).where(eq(paymentOrders.id, id)).for('update');
  return row;
}

export async function updateOrder(tx: Executor, id: number, values: Partial<NewOrder>): Promise<OrderRow> {
  const [row] = await tx.update(paymentOrders).set(values).where(eq(paymentOrders.id, id)).returning();
  return row;
}

/** Gives the order its provider payment once (a second call for the same order changes nothing). */
export async function attachPayment(
  db: Executor,
  id: number,
  values: { providerPaymentId: string; status: string; checkoutUrl: string | null; mandateId: string | null; now: Date },
): Promise<OrderRow | undefined> {
  const [row] = await db
    .update(paymentOrders)
    .set({
      providerPaymentId: values.providerPaymentId,
      checkoutUrl: values.checkoutUrl,
      mandateId: values.mandateId,
      status: sql`case when ${paymentOrders.status} = 'created' then ${values.status} else ${paymentOrders.status} end`,
      updatedAt: values.now,
    })
    .where(and(eq(paymentOrders.id, id), isNull(paymentOrders.providerPaymentId)))
    .returning();
  return row;
}

/**
 * Whether an order of this provider made since `since` has no payment id: its start may have reached the provider
 * with the answer lost, so a webhook of a payment we do not know may be its own.
 */
export async function hasOrdersWithoutPayment(db: Executor, provider: string, since: Date): Promise<boolean> {
  const [row] = await db
    .select({ id: paymentOrders.id })
    .from(paymentOrders)
    .where(and(eq(paymentOrders.provider, provider), isNull(paymentOrders.providerPaymentId), gte(paymentOrders.createdAt, since)))
    .limit(1);
  return row !== undefined;
}

/** Marks the order as checked with the provider now (the status call asks again only after a while). */
export async function touchOrder(db: Executor, id: number, now: Date): Promise<void> {
  await db.update(paymentOrders).set({ updatedAt: now }).where(eq(paymentOrders.id, id));
}

export async function listOrders(db: Executor, userId: number, limit: number): Promise<OrderRow[]> {
  return db
    .select()
    .from(paymentOrders)
    .where(eq(paymentOrders.userId, userId))
    .orderBy(desc(paymentOrders.createdAt), desc(paymentOrders.id))
    .limit(limit);
}

/** The member's last paid order (paid or later charged back do not count: only 'paid'). */
export async function findLastPaidOrder(db: Executor, userId: number): Promise<OrderRow | undefined> {
  const [row] = await db
    .select()
    .from(paymentOrders)
    .where(and(eq(paymentOrders.userId, userId), eq(paymentOrders.status, 'paid')))
    .orderBy(desc(paymentOrders.paidAt), desc(paymentOrders.id))
    .limit(1);
  return row;
}

/** Records that the order reached `status`; false when it had already (the unique (order, status) index). */
export async function recordEvent(tx: Executor, orderId: number, status: string, detail: Record<string, unknown>): Promise<boolean> {
  const rows = await tx
    .insert(paymentEvents)
    .values({ orderId, status, detail })
    .onConflictDoNothing({ target: [paymentEvents.orderId, paymentEvents.status] })
    .returning({ id: paymentEvents.id });
  return rows.length > 0;
}

/** The credits refunds of this order have taken back or made owed so far (its `refunded:<minor>` events). */
export async function refundedCreditsOf(tx: Executor, orderId: number): Promise<number> {
  const [row] = await tx
    .select({ credits: sql<number>`coalesce(sum((${paymentEvents.detail} ->> 'credits')::int), 0)::int` })
    .from(paymentEvents)
    .where(and(eq(paymentEvents.orderId, orderId), sql`${paymentEvents.status} like 'refunded:%'`));
  return Number(row?.credits ?? 0);
}

/**
 * The member's row, locked: the balance, the debt and the paid flag change together. NO KEY UPDATE, as every lock
 * of a member's row that changes only its columns: a message being paid for at the same moment has inserted rows
 * that point at the member (their foreign key holds a KEY SHARE lock on the row) and then updates the balance;
 * FOR UPDATE would wait for that KEY SHARE while the message's update waits behind it, which PostgreSQL ends as a
 * deadlock (seen under `npm run bench -- rolling-restart`). NO KEY UPDATE takes turns with the update all the same.
 */
export async function lockBuyer(tx: Executor, userId: number): Promise<{ credits: number; creditDebt: number } | undefined> {
  const [row] = await tx
    .select({ credits: users.credits, creditDebt: users.creditDebt })
    .from(users)
    .where(eq(users.id, userId))
    .for('no key update');
  return row;
}

export async function findCustomer(db: Executor, userId: number, provider: string): Promise<string | null> {
  const [row] = await db
    .select({ customerId: paymentCustomers.customerId })
    .from(paymentCustomers)
    .where(and(eq(paymentCustomers.userId, userId), eq(paymentCustomers.provider, provider)));
  return row?.customerId ?? null;
}

/** Keeps the member's provider customer; when another request stored one first, that one is answered. */
export async function saveCustomer(db: Executor, userId: number, provider: string, customerId: string): Promise<string> {
  await db.insert(paymentCustomers).values({ userId, provider, customerId }).onConflictDoNothing();
  return (await findCustomer(db, userId, provider)) ?? customerId;
}

/**
 * The member's direct-debit flag, read with a row lock: inside the unit of work that starts an order, parallel
 * starts of one member take turns from here to the commit, so the count of open debits they see is final (NO KEY
 * UPDATE: see lockBuyer).
 */
export async function lockMemberForDirectDebit(db: Executor, userId: number): Promise<{ blocked: boolean } | null> {
  const [row] = await db.select({ blocked: users.directDebitBlocked }).from(users).where(eq(users.id, userId)).for('no key update');
  return row ?? null;
}

/** The member's newest valid mandate (of one provider, when given): the directdebit module stores it, a payment is made on it. */
export async function findValidMandate(
  db: Executor,
  userId: number,
  provider?: string,
): Promise<{ provider: string; providerMandateId: string } | null> {
  const [row] = await db
    .select({ provider: directDebitMandates.provider, providerMandateId: directDebitMandates.providerMandateId })
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

/** Order statuses of a payment that is not settled yet (neither paid nor finally refused). */
const UNSETTLED_STATUSES = ['created', 'open', 'pending', 'authorized'] as const;

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

/** The purge keeps a deleted member's orders (money records) without the member. */
export async function detachOrders(tx: Executor, userId: number): Promise<void> {
  await tx.update(paymentOrders).set({ userId: null, requestKey: null }).where(eq(paymentOrders.userId, userId));
}

/** Every package of a site, sold or not, by country and position (the console's price list). */
export async function listAllPackages(db: Executor, siteId: number): Promise<PackageRow[]> {
  return db
    .select()
    .from(creditPackages)
    .where(eq(creditPackages.siteId, siteId))
    .orderBy(asc(creditPackages.country), asc(creditPackages.position), asc(creditPackages.id));
}

export async function insertPackage(db: Executor, values: typeof creditPackages.$inferInsert): Promise<PackageRow> {
  const [row] = await db.insert(creditPackages).values(values).returning();
  return row;
}

export async function updatePackage(
  db: Executor,
  siteId: number,
  id: number,
  values: Partial<typeof creditPackages.$inferInsert>,
): Promise<PackageRow | undefined> {
  const [row] = await db
    .update(creditPackages)
    .set(values)
    .where(and(eq(creditPackages.id, id), eq(creditPackages.siteId, siteId)))
    .returning();
  return row;
}

/** Every payment method of a site in every country, in order. */
export async function listAllMethods(db: Executor, siteId: number): Promise<MethodRow[]> {
  return db
    .select()
    .from(paymentMethods)
    .where(eq(paymentMethods.siteId, siteId))
    .orderBy(asc(paymentMethods.country), asc(paymentMethods.position), asc(paymentMethods.method));
}

/** Replaces a site's methods in a country with these, in this order. */
export async function replaceMethods(
  tx: Executor,
  siteId: number,
  country: string,
  methods: { method: string; feeMinor: number }[],
): Promise<void> {
  await tx.delete(paymentMethods).where(and(eq(paymentMethods.siteId, siteId), eq(paymentMethods.country, country)));
  if (!methods.length) return;
  await tx
    .insert(paymentMethods)
    .values(methods.map((m, position) => ({ siteId, country, method: m.method, feeMinor: m.feeMinor, position })));
}

import type { PaymentMethodName, PaymentOrderStatus } from '@amora/contracts';
import { creditPackages, discountCodes, discountRedemptions, type Executor, paymentOrders, users } from '@amora/db';
import { and, eq, inArray, ne, not, notInArray, or, type SQL, sql } from 'drizzle-orm';

export type DiscountCodeRow = typeof discountCodes.$inferSelect;

/** A far date for codes whose end is worked out per member (the time bonus ends 4 hours after each signup). */
const NO_END = new Date('2100-01-01T00:00:00Z');

/** The code on a site, as typed (codes are stored upper-case; the lookup upper-cases what was typed). */
export async function findCode(db: Executor, siteId: number, code: string): Promise<DiscountCodeRow | undefined> {
  const typed = code.trim();
  const candidates = [...new Set([typed, typed.toUpperCase()])];
  const rows = await db
    .select()
    .from(discountCodes)
    .where(and(eq(discountCodes.siteId, siteId), inArray(discountCodes.code, candidates)));
  return rows.find((r) => r.code === typed) ?? rows[0];
}

export async function findCodeById(db: Executor, id: number): Promise<DiscountCodeRow | undefined> {
  const [row] = await db.select().from(discountCodes).where(eq(discountCodes.id, id));
  return row;
}

/** What the discount rules need to know of a member. */
export async function findMemberFacts(
  db: Executor,
  userId: number,
): Promise<{ siteId: number; paidUser: boolean; signupDate: Date } | undefined> {
  const [row] = await db
    .select({ siteId: users.siteId, paidUser: users.paidUser, signupDate: users.signupDate })
    .from(users)
    .where(eq(users.id, userId));
  return row;
}

/** Whether the member has paid an order with this code. */
export async function hasUsed(db: Executor, discountCodeId: number, userId: number): Promise<boolean> {
  const [row] = await db
    .select({ id: discountRedemptions.id })
    .from(discountRedemptions)
    .where(
      and(
        eq(discountRedemptions.discountCodeId, discountCodeId),
        eq(discountRedemptions.userId, userId),
        eq(discountRedemptions.status, 'used'),
      ),
    )
    .limit(1);
  return row !== undefined;
}

/** Order statuses of a checkout that may still be paid: a reservation of such an order holds its code. */
const WAITING_ORDER_STATUSES: PaymentOrderStatus[] = ['created', 'open', 'pending', 'authorized'];

/**
 * Methods whose open payment is under way for days (a bank transfer waits for the money, a direct debit for the
 * bank): such a checkout is not left behind when the member comes back, so a new one does not take its code over.
 */
const SLOW_METHODS: PaymentMethodName[] = ['banktransfer', 'directdebit'];

/**
 * A waiting order the member may have left behind (the back button on the provider's page): its payment is not
 * under way yet (created or open), at a checkout (not a recurring debit) of a method that settles at once. A new
 * checkout of the member with the same code may cancel it at the provider and take the code over.
 */
const leftBehind = () =>
  and(
    inArray(paymentOrders.status, ['created', 'open']),
    notInArray(paymentOrders.method, SLOW_METHODS),
    ne(paymentOrders.sequenceType, 'recurring'),
  );

/**
 * Whether another order of the member that may still be paid (not `exceptOrderId`) holds this code: a second
 * checkout opened before the first is paid would otherwise be charged the once-per-member discount too.
 */
export async function isHeldByOpenOrder(db: Executor, discountCodeId: number, userId: number, exceptOrderId?: number): Promise<boolean> {
  return (
    (
      await ordersReservingFor(
        db,
        userId,
        and(
          eq(discountRedemptions.discountCodeId, discountCodeId),
          inArray(paymentOrders.status, WAITING_ORDER_STATUSES),
          exceptOrderId === undefined ? undefined : ne(discountRedemptions.orderId, exceptOrderId),
        ),
        1,
      )
    ).length > 0
  );
}

/**
 * Whether a payment of the member that is under way holds this code (pending or authorized, a bank transfer or a
 * direct debit still waiting): then the code is taken for now, and the banner and the prices say so. A checkout
 * left behind does not count: the next checkout takes its code over.
 */
export async function isHeldByPaymentUnderWay(db: Executor, discountCodeId: number, userId: number): Promise<boolean> {
  return holdsUnderWay(db, userId, eq(discountRedemptions.discountCodeId, discountCodeId));
}

/**
 * Whether a payment of the member under way holds a first-purchase discount (the time bonus or the welcome
 * discount): neither is offered meanwhile, since the member gets one of them with their first purchase.
 */
export async function isFirstPurchaseDiscountUnderWay(db: Executor, userId: number): Promise<boolean> {
  return holdsUnderWay(db, userId, inArray(discountCodes.source, FIRST_PURCHASE_SOURCES));
}

/** Whether a payment of the member under way (not a checkout left behind) holds a discount that `which` picks. */
async function holdsUnderWay(db: Executor, userId: number, which: SQL): Promise<boolean> {
  const held = await ordersReservingFor(
    db,
    userId,
    and(which, inArray(paymentOrders.status, WAITING_ORDER_STATUSES), not(leftBehind() as SQL)),
    1,
  );
  return held.length > 0;
}

/** The sources of the first-purchase discounts: a member gets one of them, with their first purchase. */
export const FIRST_PURCHASE_SOURCES = ['time_bonus', 'welcome'];

/**
 * Whether a first-purchase discount of the member is taken: paid with (used), or held by an order of theirs that
 * may still be paid other than `exceptOrderId`; with `leftBehindToo` false, a checkout left behind does not count
 * (the next checkout takes it over).
 */
export async function isFirstPurchaseDiscountTaken(
  db: Executor,
  userId: number,
  o: { leftBehindToo: boolean; exceptOrderId?: number },
): Promise<boolean> {
  const [row] = await db
    .select({ id: discountRedemptions.id })
    .from(discountRedemptions)
    .innerJoin(discountCodes, eq(discountCodes.id, discountRedemptions.discountCodeId))
    .innerJoin(paymentOrders, eq(paymentOrders.id, discountRedemptions.orderId))
    .where(
      and(
        eq(discountRedemptions.userId, userId),
        inArray(discountCodes.source, FIRST_PURCHASE_SOURCES),
        o.exceptOrderId === undefined ? undefined : ne(discountRedemptions.orderId, o.exceptOrderId),
        or(
          eq(discountRedemptions.status, 'used'),
          and(
            eq(discountRedemptions.status, 'reserved'),
            inArray(paymentOrders.status, WAITING_ORDER_STATUSES),
            o.leftBehindToo ? undefined : not(leftBehind() as SQL),
          ),
        ),
      ),
    )
    .limit(1);
  return row !== undefined;
}

/** The orders whose reservation of one of the member's codes meets `condition`, oldest first, at most `max`. */
async function ordersReservingFor(db: Executor, userId: number, condition: SQL | undefined, max: number): Promise<number[]> {
  const rows = await db
    .select({ orderId: discountRedemptions.orderId })
    .from(discountRedemptions)
    .innerJoin(paymentOrders, eq(paymentOrders.id, discountRedemptions.orderId))
    .innerJoin(discountCodes, eq(discountCodes.id, discountRedemptions.discountCodeId))
    .where(and(eq(discountRedemptions.userId, userId), eq(discountRedemptions.status, 'reserved'), condition))
    .orderBy(discountRedemptions.orderId)
    .limit(max);
  return rows.map((r) => r.orderId);
}

/** The member's checkouts left behind that hold a first-purchase discount (at most 20), oldest first. */
export function leftBehindOrdersHoldingFirstPurchase(db: Executor, userId: number): Promise<number[]> {
  return ordersReservingFor(db, userId, and(inArray(discountCodes.source, FIRST_PURCHASE_SOURCES), leftBehind()), 20);
}

/** The member's checkouts left behind that hold this code (at most 20), oldest first: a new checkout cancels them. */
export function leftBehindOrdersHolding(db: Executor, discountCodeId: number, userId: number): Promise<number[]> {
  return ordersReservingFor(db, userId, and(eq(discountRedemptions.discountCodeId, discountCodeId), leftBehind()), 20);
}

/**
 * The member's row, locked to the end of the transaction: reservations of one member's codes take turns. NO KEY
 * UPDATE, because the caller has just inserted the order, whose foreign key holds a KEY SHARE lock on this row:
 * two such callers asking for FOR UPDATE would deadlock on PostgreSQL, while NO KEY UPDATE only waits for the other.
 */
export async function lockMemberForDiscount(tx: Executor, userId: number): Promise<boolean> {
  const [row] = await tx.select({ id: users.id }).from(users).where(eq(users.id, userId)).for('no key update');
  return row !== undefined;
}

/** The member's orders that may still be paid and hold a code (their status is worth asking the provider for). */
export function openOrdersHoldingCodes(db: Executor, userId: number): Promise<number[]> {
  return ordersReservingFor(db, userId, inArray(paymentOrders.status, WAITING_ORDER_STATUSES), 10);
}

/** The site's one TIMEBONUS25 row, made the first time it is needed (several at once: one row). */
export async function ensureSiteCode(
  db: Executor,
  code: { siteId: number; code: string; valuePercentage: number; source: string },
): Promise<DiscountCodeRow> {
  await db
    .insert(discountCodes)
    .values({ ...code, status: 'active', expiresAt: NO_END })
    .onConflictDoNothing({ target: [discountCodes.siteId, discountCodes.code] });
  const [row] = await db
    .select()
    .from(discountCodes)
    .where(and(eq(discountCodes.siteId, code.siteId), eq(discountCodes.code, code.code)));
  return row;
}

/** The member's own code of this source (the welcome discount), if one was made. */
export async function findMemberCode(db: Executor, userId: number, source: string): Promise<DiscountCodeRow | undefined> {
  const [row] = await db
    .select()
    .from(discountCodes)
    .where(and(eq(discountCodes.userId, userId), eq(discountCodes.source, source)))
    .orderBy(discountCodes.id)
    .limit(1);
  return row;
}

/** Inserts a code; null when its text is taken on the site already (a random code met another). */
export async function insertCode(db: Executor, code: typeof discountCodes.$inferInsert): Promise<DiscountCodeRow | null> {
  const [row] = await db
    .insert(discountCodes)
    .values(code)
    .onConflictDoNothing({ target: [discountCodes.siteId, discountCodes.code] })
    .returning();
  return row ?? null;
}

/** The account purge: the codes made for the member. */
export async function deleteCodesOf(db: Executor, userId: number): Promise<void> {
  await db.delete(discountCodes).where(eq(discountCodes.userId, userId));
}

/** The order takes the code (again for a retried call: one row per order). */
export async function insertReservation(db: Executor, r: { discountCodeId: number; userId: number; orderId: number }): Promise<void> {
  await db
    .insert(discountRedemptions)
    .values({ ...r, status: 'reserved' })
    .onConflictDoNothing({ target: discountRedemptions.orderId });
}

/**
 * The order's reservation becomes 'used', unless the member has already used that code with another order paid
 * before it (two checkouts opened at once): then it stays 'reserved' as the record of that order, and the partial
 * unique index (one 'used' per code and member) is never broken. The code's id, or null when the order had none.
 */
export async function markUsed(tx: Executor, orderId: number): Promise<number | null> {
  const [reservation] = await tx.select().from(discountRedemptions).where(eq(discountRedemptions.orderId, orderId)).for('update');
  if (!reservation) return null;
  if (reservation.status === 'used') return reservation.discountCodeId;
  await tx
    .update(discountRedemptions)
    .set({ status: 'used' })
    .where(
      and(
        eq(discountRedemptions.id, reservation.id),
        sql`not exists (select 1 from ${discountRedemptions} d where d.discount_code_id = ${reservation.discountCodeId}
          and d.user_id = ${reservation.userId} and d.status = 'used' and d.id <> ${reservation.id})`,
      ),
    );
  return reservation.discountCodeId;
}

/** A failed, canceled or expired order gives its code back. */
export async function deleteReservation(tx: Executor, orderId: number): Promise<void> {
  await tx.delete(discountRedemptions).where(and(eq(discountRedemptions.orderId, orderId), ne(discountRedemptions.status, 'used')));
}

/** A package of the site, to check a code against its price (discountcode.php?package=). */
export async function findPackage(
  db: Executor,
  siteId: number,
  id: number,
): Promise<{ country: string; currency: string; priceMinor: number } | undefined> {
  const [row] = await db
    .select({ country: creditPackages.country, currency: creditPackages.currency, priceMinor: creditPackages.priceMinor })
    .from(creditPackages)
    .where(and(eq(creditPackages.siteId, siteId), eq(creditPackages.id, id), eq(creditPackages.active, true)));
  return row;
}

/** A page of codes, newest first: a site's or every site's, the site's own only unless `memberCodes`. */
export async function codesPage(
  db: Executor,
  filter: { siteId?: number; memberCodes: boolean },
  page: number,
  perPage: number,
): Promise<{ rows: DiscountCodeRow[]; total: number }> {
  const conditions: SQL[] = [];
  if (filter.siteId !== undefined) conditions.push(eq(discountCodes.siteId, filter.siteId));
  if (!filter.memberCodes) conditions.push(eq(discountCodes.source, 'code'));
  const where = conditions.length ? and(...conditions) : undefined;
  const rows = await db
    .select()
    .from(discountCodes)
    .where(where)
    .orderBy(sql`${discountCodes.id} desc`)
    .limit(perPage)
    .offset((page - 1) * perPage);
  const [{ total }] = await db.select({ total: sql<number>`count(*)::int` }).from(discountCodes).where(where);
  return { rows, total };
}

/** The code after the change; undefined when there is none. */
export async function updateCode(
  db: Executor,
  id: number,
  values: Partial<typeof discountCodes.$inferInsert>,
): Promise<DiscountCodeRow | undefined> {
  const [row] = await db.update(discountCodes).set(values).where(eq(discountCodes.id, id)).returning();
  return row;
}

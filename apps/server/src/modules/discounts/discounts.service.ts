import { createHash } from 'node:crypto';
import {
  type DiscountCodeView,
  type DiscountError,
  type DiscountSource,
  TIME_BONUS,
  type TimeBonusResponse,
  WELCOME_DISCOUNT_HOURS,
  WELCOME_DISCOUNT_PERCENT,
} from '@amora/contracts';
import type { discountCodes, Executor } from '@amora/db';
import { type DbContext, dbOf, withTransaction } from '../../lib/transaction';
import {
  codesPage,
  type DiscountCodeRow,
  deleteCodesOf,
  deleteReservation,
  ensureSiteCode,
  FIRST_PURCHASE_SOURCES,
  findCode,
  findCodeById,
  findMemberCode,
  findMemberFacts,
  findPackage,
  hasUsed,
  insertCode,
  insertReservation,
  isFirstPurchaseDiscountTaken,
  isFirstPurchaseDiscountUnderWay,
  isHeldByOpenOrder,
  isHeldByPaymentUnderWay,
  leftBehindOrdersHolding,
  leftBehindOrdersHoldingFirstPurchase,
  lockMemberForDiscount,
  markUsed,
  openOrdersHoldingCodes,
  updateCode,
} from './discounts.repository';

/**
 * Discount codes (spec §3, §5, §9): a code the member types, the time bonus TIMEBONUS25 (the first 4 hours after
 * signup, for members who have not paid), the welcome discount (one per member, 25 %, until 72 hours after signup)
 * and the delete discount (made by the deletion module). A code is used once per member: it is reserved by an order
 * while that order is open, used when it is paid, and given back when it fails.
 */

export type { DiscountCodeRow } from './discounts.repository';
export type { DiscountError };

type NewDiscountCode = typeof discountCodes.$inferInsert;
export type PriceWithDiscountResult =
  | { ok: true; discountCodeId: number; percentage: number; discountMinor: number }
  | { ok: false; error: DiscountError };

const HOUR_MS = 3_600_000;
const TIME_BONUS_MS = TIME_BONUS.windowSeconds * 1000;

/**
 * The discount off `amountMinor` (the package's list price, minor units) when `code` is used for this order, or
 * why it cannot be. Rounding: the discount is rounded to the nearest minor unit, a half in the member's favour
 * (999 at 25 % → 250 off). `method` null: the method is not chosen yet, so it is not checked.
 */
export async function priceWithDiscount(
  ctx: DbContext,
  i: {
    siteId: number;
    userId: number;
    code: string;
    country: string;
    method: string | null;
    currency: string;
    amountMinor: number;
    /** The clock of the caller (ctx.now()); the wall clock when not given. */
    now?: Date;
  },
): Promise<PriceWithDiscountResult> {
  const db = dbOf(ctx);
  const now = i.now ?? new Date();
  const row = await findCode(db, i.siteId, i.code);
  if (!row) return { ok: false, error: 'discount_not_found' };
  const checked = await checkCode(db, row, { ...i, now });
  if (!checked.ok) return checked;
  return {
    ok: true,
    discountCodeId: row.id,
    percentage: row.valuePercentage,
    discountMinor: discountOf(i.amountMinor, row.valuePercentage),
  };
}

/**
 * The rounding of every discount: nearest minor unit, a half in the member's favour, and never the whole price:
 * at least one minor unit is left to pay, since the payment provider refuses an amount of nothing (codes are
 * 1–99 %, a database rule).
 */
export function discountOf(amountMinor: number, percentage: number): number {
  return Math.max(0, Math.min(amountMinor - 1, Math.floor((amountMinor * percentage + 50) / 100)));
}

/** The rules, in the order their errors are answered. */
async function checkCode(
  db: Executor,
  row: DiscountCodeRow,
  i: { userId: number; country: string | null; method: string | null; currency: string | null; amountMinor: number | null; now: Date },
): Promise<{ ok: true } | { ok: false; error: DiscountError }> {
  // Another member's personal code is not there for this member.
  if (row.userId !== null && row.userId !== i.userId) return { ok: false, error: 'discount_not_found' };
  if (row.status === 'expired') return { ok: false, error: 'discount_expired' };
  if (row.status !== 'active') return { ok: false, error: 'discount_not_found' };
  if (await hasUsed(db, row.id, i.userId)) return { ok: false, error: 'discount_used' };
  // Once per member also while a payment of theirs under way holds it. A checkout they left behind does not: the
  // next order takes the code over (takeOverFrom), so it stays on offer.
  if (await isHeldByPaymentUnderWay(db, row.id, i.userId)) return { ok: false, error: 'discount_used' };
  if (expiresFor(row, await factsOf(db, row, i.userId)).getTime() <= i.now.getTime()) return { ok: false, error: 'discount_expired' };
  if (isFirstPurchase(row)) {
    // A first purchase gets one of the two (the time bonus or the welcome discount), and only a member who has not
    // paid has a first purchase ahead: the other one is used up once one is paid or a payment with it is under way.
    const facts = await findMemberFacts(db, i.userId);
    if (!facts || facts.paidUser) return { ok: false, error: 'discount_expired' };
    if (await isFirstPurchaseDiscountTaken(db, i.userId, { leftBehindToo: false })) return { ok: false, error: 'discount_used' };
  }
  if (i.country !== null && row.country !== null && row.country.toUpperCase() !== i.country.toUpperCase()) {
    return { ok: false, error: 'discount_country' };
  }
  if (i.currency !== null && row.currency !== null && row.currency.toUpperCase() !== i.currency.toUpperCase()) {
    return { ok: false, error: 'discount_currency' };
  }
  if (i.amountMinor !== null && i.amountMinor < row.minimumOrderValue) return { ok: false, error: 'discount_minimum' };
  if (i.method !== null && row.paymentMethods.length > 0 && !row.paymentMethods.includes(i.method)) {
    return { ok: false, error: 'discount_method' };
  }
  return { ok: true };
}

async function factsOf(db: Executor, row: DiscountCodeRow, userId: number) {
  return row.source === 'time_bonus' ? ((await findMemberFacts(db, userId)) ?? null) : null;
}

/** When the code ends for this member: the time bonus 4 hours after their signup, any other code at its expiry. */
function expiresFor(row: DiscountCodeRow, facts: { signupDate: Date } | null): Date {
  if (row.source === 'time_bonus') {
    if (!facts) return new Date(0);
    const end = new Date(facts.signupDate.getTime() + TIME_BONUS_MS);
    return end < row.expiresAt ? end : row.expiresAt;
  }
  return row.expiresAt;
}

/**
 * The order takes the code while it is open (a retried call for the same order changes nothing). False, and
 * nothing reserved, when the member has used the code or another order of theirs that may still be paid holds
 * it: the member's row lock makes parallel starts take turns here, so of checkouts opened at once one gets it.
 * Call it in the unit of work that stores the order (it joins it), and refuse the order when it answers false.
 */
export async function reserveDiscount(ctx: DbContext, r: { discountCodeId: number; userId: number; orderId: number }): Promise<boolean> {
  return withTransaction(ctx, async (tx) => {
    if (!(await lockMemberForDiscount(tx, r.userId))) return false;
    if ((await hasUsed(tx, r.discountCodeId, r.userId)) || (await isHeldByOpenOrder(tx, r.discountCodeId, r.userId, r.orderId))) {
      return false;
    }
    // The time bonus and the welcome discount count as one: of parallel starts with either, one gets it.
    const row = await findCodeById(tx, r.discountCodeId);
    if (!row) return false;
    if (isFirstPurchase(row)) {
      const facts = await findMemberFacts(tx, r.userId);
      if (!facts || facts.paidUser) return false;
      if (await isFirstPurchaseDiscountTaken(tx, r.userId, { leftBehindToo: true, exceptOrderId: r.orderId })) return false;
    }
    await insertReservation(tx, r);
    return true;
  });
}

/**
 * The member's checkouts left behind (created or open, not a bank transfer or direct debit) that hold this code: a
 * new order with the code cancels them at the provider first, which gives the code back, and then reserves it. For
 * the time bonus or the welcome discount, those holding either of the two.
 */
export async function checkoutsHoldingDiscount(ctx: DbContext, discountCodeId: number, userId: number): Promise<number[]> {
  const db = dbOf(ctx);
  const row = await findCodeById(db, discountCodeId);
  // A first-purchase discount is taken over from a checkout left behind with either of the two.
  if (row && isFirstPurchase(row)) return leftBehindOrdersHoldingFirstPurchase(db, userId);
  return leftBehindOrdersHolding(db, discountCodeId, userId);
}

/** The time bonus or the welcome discount: a member gets one of them, with their first purchase. */
function isFirstPurchase(row: DiscountCodeRow): boolean {
  return FIRST_PURCHASE_SOURCES.includes(row.source);
}

/** The member's orders that may still be paid and hold a code (a new start asks the provider about them first). */
export async function ordersHoldingDiscounts(ctx: DbContext, userId: number): Promise<number[]> {
  return openOrdersHoldingCodes(dbOf(ctx), userId);
}

/**
 * The order is paid: its code is used for good (a later order answers discount_used). The time bonus ends with it,
 * since the member is paid from this purchase on (the orders service sets paid_user in the same transaction).
 */
export async function markDiscountUsed(ctx: DbContext, orderId: number): Promise<void> {
  await markUsed(dbOf(ctx), orderId);
}

/** The order failed, was canceled or expired: its code is free again. */
export async function releaseDiscount(ctx: DbContext, orderId: number): Promise<void> {
  await deleteReservation(dbOf(ctx), orderId);
}

/** A code as the client reads it (spec §3), with its end for this member. */
function presentCode(row: DiscountCodeRow, expires: Date, now: Date): DiscountCodeView {
  const validity = Math.max(0, Math.floor((expires.getTime() - now.getTime()) / 1000));
  return {
    code: row.code,
    country: row.country,
    user_id: row.userId,
    expires: expires.toISOString(),
    value_percentage: row.valuePercentage,
    currency: row.currency,
    minimum_order_value: row.minimumOrderValue,
    status: row.status,
    validity,
    expired: validity === 0,
    paymentmethods: row.paymentMethods,
    source: sourceOf(row.source),
  };
}

function sourceOf(source: string): DiscountSource {
  return source === 'time_bonus' || source === 'welcome' || source === 'delete_retention' ? source : 'code';
}

/**
 * The time bonus (spec §4, §9): visible to a member who has not paid, within 14400 s of signup_date, while they
 * have not used TIMEBONUS25. The site's TIMEBONUS25 row is made the first time it is asked for.
 */
export async function timeBonusFor(ctx: DbContext, i: { siteId: number; userId: number; now: Date }): Promise<TimeBonusResponse> {
  const db = dbOf(ctx);
  const hidden: TimeBonusResponse = { is_visible: false, seconds_left: 0, discount: null };
  const facts = await findMemberFacts(db, i.userId);
  if (!facts || facts.paidUser || facts.siteId !== i.siteId) return hidden;
  const end = new Date(facts.signupDate.getTime() + TIME_BONUS_MS);
  const secondsLeft = Math.floor((end.getTime() - i.now.getTime()) / 1000);
  if (secondsLeft <= 0) return hidden;
  const row = await ensureSiteCode(db, {
    siteId: i.siteId,
    code: TIME_BONUS.code,
    valuePercentage: TIME_BONUS.percent,
    source: 'time_bonus',
  });
  if (row.status !== 'active' || row.source !== 'time_bonus' || (row.userId !== null && row.userId !== i.userId)) return hidden;
  if ((await hasUsed(db, row.id, i.userId)) || (await isFirstPurchaseDiscountUnderWay(db, i.userId))) return hidden;
  return { is_visible: true, seconds_left: secondsLeft, discount: presentCode(row, expiresFor(row, facts), i.now) };
}

/**
 * The member's welcome discount (spec §9: 25 %, time-limited): made once per member the first time it is asked
 * for, valid until 72 hours after signup, while unused. Null when the member is paid (it welcomes a first purchase)
 * or the window has passed. Its code is worked out from the member (a hash of site, id and signup time), so calls
 * made at once all insert the same row and the unique (site, code) index keeps one, without a lock.
 */
export async function welcomeDiscountFor(
  ctx: DbContext,
  i: { siteId: number; userId: number; now: Date },
): Promise<DiscountCodeView | null> {
  const db = dbOf(ctx);
  const facts = await findMemberFacts(db, i.userId);
  if (!facts || facts.paidUser || facts.siteId !== i.siteId) return null;
  const expiresAt = new Date(facts.signupDate.getTime() + WELCOME_DISCOUNT_HOURS * HOUR_MS);
  if (expiresAt.getTime() <= i.now.getTime()) return null;
  let row = await findMemberCode(db, i.userId, 'welcome');
  // Another member's code with the same text (a 40-bit hash meeting one) only moves this one to the next attempt.
  for (let attempt = 0; !row && attempt < 5; attempt++) {
    const code = welcomeCode(i.siteId, i.userId, facts.signupDate, attempt);
    await insertCode(db, {
      code,
      siteId: i.siteId,
      userId: i.userId,
      valuePercentage: WELCOME_DISCOUNT_PERCENT,
      source: 'welcome',
      status: 'active',
      expiresAt,
    });
    row = await findMemberCode(db, i.userId, 'welcome');
  }
  if (row?.status !== 'active' || row.expiresAt.getTime() <= i.now.getTime()) return null;
  if ((await hasUsed(db, row.id, i.userId)) || (await isFirstPurchaseDiscountUnderWay(db, i.userId))) return null;
  return presentCode(row, row.expiresAt, i.now);
}

/** The active discount (spec main state): the time bonus if visible, otherwise the member's welcome discount. */
export async function activeDiscountFor(
  ctx: DbContext,
  i: { siteId: number; userId: number; now: Date },
): Promise<DiscountCodeView | null> {
  const bonus = await timeBonusFor(ctx, i);
  if (bonus.discount) return bonus.discount;
  return welcomeDiscountFor(ctx, i);
}

/**
 * A code checked for the member (discountcode.php): the code's view, or why it cannot be used. With a package, the
 * code is checked against its price, currency and payment country (or `country` when given); with a method, against
 * the code's payment methods. `package_not_found` for a package that is not the site's.
 */
export async function lookUpCode(
  ctx: DbContext,
  i: { siteId: number; userId: number; code: string; now: Date; packageId: number | null; method: string | null; country: string | null },
): Promise<{ ok: true; discount: DiscountCodeView } | { ok: false; error: DiscountError | 'package_not_found' }> {
  const db = dbOf(ctx);
  const pkg = i.packageId === null ? null : await findPackage(db, i.siteId, i.packageId);
  if (i.packageId !== null && !pkg) return { ok: false, error: 'package_not_found' };
  const row = await findCode(db, i.siteId, i.code);
  if (!row) return { ok: false, error: 'discount_not_found' };
  const checked = await checkCode(db, row, {
    userId: i.userId,
    now: i.now,
    method: i.method,
    country: i.country ?? pkg?.country ?? null,
    currency: pkg?.currency ?? null,
    amountMinor: pkg?.priceMinor ?? null,
  });
  if (!checked.ok) return checked;
  return { ok: true, discount: presentCode(row, expiresFor(row, await factsOf(db, row, i.userId)), i.now) };
}

/** A code made for one member by another module (modules/deletion's offer before deleting); throws when the code is taken. */
export async function createMemberCode(ctx: DbContext, code: NewDiscountCode): Promise<DiscountCodeRow> {
  const row = await insertCode(dbOf(ctx), code);
  if (!row) throw new Error(`discount code ${code.code} is taken on site ${code.siteId}`);
  return row;
}

/** The console's list of codes (a page, newest first). */
export async function discountCodesPage(
  ctx: DbContext,
  filter: { siteId?: number; memberCodes: boolean },
  page: number,
  perPage: number,
): Promise<{ rows: DiscountCodeRow[]; total: number }> {
  return codesPage(dbOf(ctx), filter, page, perPage);
}

/** A code by its id, as stored. */
export async function discountCodeRow(ctx: DbContext, id: number): Promise<DiscountCodeRow | null> {
  return (await findCodeById(dbOf(ctx), id)) ?? null;
}

/** A code on a site by its text (any case), as stored. */
export async function discountCodeOnSite(ctx: DbContext, siteId: number, code: string): Promise<DiscountCodeRow | null> {
  const row = await findCode(dbOf(ctx), siteId, code);
  return row && row.code.toUpperCase() === code.trim().toUpperCase() ? row : null;
}

/** A code given out by the site (source 'code'), stored upper-case as every code; null when its text is taken. */
export async function addSiteCode(ctx: DbContext, code: Omit<NewDiscountCode, 'source'>): Promise<DiscountCodeRow | null> {
  return insertCode(dbOf(ctx), { ...code, code: code.code.toUpperCase(), source: 'code' });
}

/** Changes a code (its text upper-cased); null when there is none. Orders read codes as they are at each lookup. */
export async function changeDiscountCode(ctx: DbContext, id: number, values: Partial<NewDiscountCode>): Promise<DiscountCodeRow | null> {
  const next = values.code === undefined ? values : { ...values, code: values.code.toUpperCase() };
  return (await updateCode(dbOf(ctx), id, next)) ?? null;
}

/** The account purge: the codes made for the member. */
export async function purgeMember(ctx: DbContext, member: { userId: number }): Promise<void> {
  await deleteCodesOf(dbOf(ctx), member.userId);
}

/** Whether the member has paid an order with this code (a used delete discount is not offered again). */
export async function isDiscountUsed(ctx: DbContext, discountCodeId: number, userId: number): Promise<boolean> {
  return hasUsed(dbOf(ctx), discountCodeId, userId);
}

/** The code of an id (an order's discount), for a presenter. */
export async function discountCodeById(ctx: DbContext, id: number): Promise<{ code: string; percentage: number } | null> {
  const row = await findCodeById(dbOf(ctx), id);
  return row ? { code: row.code, percentage: row.valuePercentage } : null;
}

const ALPHABET = 'ABCDEFGHJKLMNPQRSTUVWXYZ23456789';
/** WELCOME and 8 letters or digits (no 0/O, 1/I) from a hash of the member: the same for every call. */
function welcomeCode(siteId: number, userId: number, signupDate: Date, attempt: number): string {
  const hash = createHash('sha256').update(`welcome:${siteId}:${userId}:${signupDate.toISOString()}:${attempt}`).digest();
  let out = '';
  for (let k = 0; k < 8; k++) out += ALPHABET[hash[k] % ALPHABET.length];
  return `WELCOME${out}`;
}

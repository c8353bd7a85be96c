import { PAYMENT_ERRORS, type PaymentMethodName, type StartPaymentResponse } from '@amora/contracts';
import type { AppContext } from '../../context';
import { HttpError } from '../../lib/errors';
import { dbOf, withTransaction } from '../../lib/transaction';
import { checkoutsHoldingDiscount, ordersHoldingDiscounts, reserveDiscount } from '../discounts/discounts.service';
import type { Auth } from '../sessions/sessions.service';
import type { Site } from '../sites/sites.service';
import { chooseDiscount, offeredMethodsFor, priceOf } from './catalogue';
import { ensureCustomer, resume } from './order-payment.service';
import { applyPayment, CHECK_AFTER_MS, CHECK_JOB } from './order-status.service';
import {
  type Buyer,
  findCustomer as findCustomerOf,
  findLastPaidOrder,
  findOrder,
  findOrderByRequest,
  type findPackage,
  insertOrder,
  type OrderRow,
  touchOrder,
} from './payments.repository';
import { buyerOf, directDebitAllowed, methodUnavailable, packageForBuyer, STATUS_RECHECK_MS } from './payments.service';
import { CARD_BRANDS } from './provider/methods';

/**
 * Starting a payment (payments.php, repeat-order.php): the order with its discount reserved in one unit of work,
 * a checkout left behind that holds the discount taken over or continued, then the provider's payment.
 */

const discountRefused = (error: string) =>
  new HttpError(422, error, 'This discount code cannot be used for this order', { field: 'discountcode' });
const discountReserved = (order: OrderRow) =>
  new HttpError(
    409,
    PAYMENT_ERRORS.discountReserved,
    'Your discount is held by a payment you started and did not finish: continue that payment, or choose again once it has expired',
    { field: 'discountcode', order_id: order.id, checkout_url: order.checkoutUrl },
  );

export interface StartInput {
  packageId: number;
  method: PaymentMethodName;
  code: string | undefined;
  requestId: string;
  /** The visitor's country by the geo header (null without one). */
  visitorCountry: string | null;
}

/** POST /api/payments.php: the order, stored, then the provider's payment (its checkout, or a recurring debit). */
export async function startOrder(
  ctx: AppContext,
  site: Site,
  auth: Auth,
  input: StartInput,
): Promise<{ created: boolean } & StartPaymentResponse> {
  const existing = await findOrderByRequest(dbOf(ctx), auth.user.id, input.requestId);
  if (existing) return { created: false, ...(await resume(ctx, site, existing, false)) };
  const buyer = await buyerOf(ctx, auth);
  const pkg = await packageForBuyer(ctx, site, buyer, input.packageId, input.visitorCountry);
  await refreshOrdersHoldingDiscounts(ctx, buyer.userId);
  const choice = await chooseDiscount(ctx, { siteId: site.id, userId: buyer.userId, code: input.code, country: pkg.country });
  const price = await priceOf(ctx, { siteId: site.id, userId: buyer.userId, choice, pkg, method: input.method });
  // A code asked for that does not apply refuses the order; the active discount that does not apply just is not used.
  if (choice.kind === 'code' && price.error) throw discountRefused(price.error);
  const method = await offeredMethod(ctx, site, buyer, pkg, price, input.method);
  const wanted: Wanted = {
    packageId: pkg.id,
    method: method.name,
    discountCodeId: price.discountCodeId,
    amountMinor: pkg.priceMinor - price.discountMinor + method.feeMinor,
  };
  // The same choice as the member's own checkout still open with this discount (back, then Pay again): that order.
  const same = await sameCheckout(ctx, buyer.userId, price, wanted);
  if (same) return { created: false, ...(await resume(ctx, site, same, false)) };
  // Only a start that can go ahead (package, method and amount checked) cancels a checkout left behind.
  await takeOverDiscount(ctx, buyer.userId, price);
  try {
    return await placeOrder(ctx, site, buyer, {
      pkg,
      method: method.name,
      feeMinor: method.feeMinor,
      discount: price,
      requestId: input.requestId,
      repeatOf: null,
      mandate: null,
    });
  } catch (error) {
    // A checkout of the member still open holds the discount (the provider would not cancel it, or a parallel
    // start made it meanwhile): the same choice continues it, another is refused naming it. Nothing was stored.
    if (!(error instanceof HttpError) || error.code !== 'discount_used' || price.discountCodeId === null) throw error;
    const holder = await openCheckoutHolding(ctx, buyer.userId, price.discountCodeId, wanted);
    if (!holder) throw error;
    if (holder.same) return { created: false, ...(await resume(ctx, site, holder.order, false)) };
    throw discountReserved(holder.order);
  }
}

/** What a start asks for: an open checkout with all of it is the same payment. */
interface Wanted {
  packageId: number;
  method: PaymentMethodName;
  discountCodeId: number | null;
  amountMinor: number;
}

const isSame = (order: OrderRow, w: Wanted) =>
  order.packageId === w.packageId &&
  order.method === w.method &&
  order.discountCodeId === w.discountCodeId &&
  order.amountMinor === w.amountMinor;

/**
 * The member's checkouts that hold this discount (created or open, not a bank transfer or a direct debit), the one
 * with the same package, method, code and amount first: that one is the same payment, any other holds the code.
 */
async function openCheckoutHolding(
  ctx: AppContext,
  userId: number,
  discountCodeId: number,
  wanted: Wanted,
): Promise<{ order: OrderRow; same: boolean } | null> {
  let other: OrderRow | null = null;
  for (const orderId of await checkoutsHoldingDiscount(ctx, discountCodeId, userId)) {
    const order = await findOrder(dbOf(ctx), orderId);
    if (!order || (order.status !== 'created' && order.status !== 'open')) continue;
    if (isSame(order, wanted)) return { order, same: true };
    other ??= order;
  }
  return other ? { order: other, same: false } : null;
}

/** The member's own checkout still open with exactly this choice and discount, answered again instead of a new one. */
async function sameCheckout(
  ctx: AppContext,
  userId: number,
  price: { discountCodeId: number | null; discountMinor: number },
  wanted: Wanted,
): Promise<OrderRow | null> {
  if (price.discountCodeId === null || price.discountMinor <= 0) return null;
  const holder = await openCheckoutHolding(ctx, userId, price.discountCodeId, wanted);
  return holder?.same ? holder.order : null;
}

/**
 * A checkout of the member that holds a discount code holds it until it is paid or ends. Before a new start, such
 * orders not looked at for STATUS_RECHECK_MS are asked for at the provider, so one the payer canceled or that
 * expired gives its code back even when its webhook has not come (yet). A provider that cannot be reached
 * changes nothing here.
 */
async function refreshOrdersHoldingDiscounts(ctx: AppContext, userId: number): Promise<void> {
  for (const orderId of await ordersHoldingDiscounts(ctx, userId)) {
    const order = await findOrder(dbOf(ctx), orderId);
    if (!order?.providerPaymentId || ctx.now().getTime() - order.updatedAt.getTime() <= STATUS_RECHECK_MS) continue;
    const payment = await ctx.payments.getPayment(order.providerPaymentId).catch(() => null);
    if (payment) await applyPayment(ctx, order.id, payment);
    else await touchOrder(dbOf(ctx), order.id, ctx.now());
  }
}

/**
 * The member came back from the provider's checkout without paying (the back button) and starts again: the
 * checkouts they left behind that hold this order's code are canceled at the provider first, which gives the code
 * back (applyPayment), so the new order can reserve it. Only the provider's answer releases a code: a checkout it
 * will not cancel (paid or under way meanwhile) keeps the code, and the new order is then refused with
 * discount_used by reserveDiscount, so a discount is paid for at most once (docs/decisions.md).
 */
async function takeOverDiscount(ctx: AppContext, userId: number, price: { discountCodeId: number | null; discountMinor: number }) {
  if (price.discountCodeId === null || price.discountMinor <= 0) return;
  for (const orderId of await checkoutsHoldingDiscount(ctx, price.discountCodeId, userId)) {
    const order = await findOrder(dbOf(ctx), orderId);
    // A start still making its payment (no id yet) is not left behind: it keeps the code.
    if (!order?.providerPaymentId) continue;
    const id = order.providerPaymentId;
    const payment = await ctx.payments.cancelPayment(id).catch(() => ctx.payments.getPayment(id).catch(() => null));
    if (payment) await applyPayment(ctx, order.id, payment);
  }
}

/** POST /api/repeat-order.php: the last paid order's package with its method; with a valid mandate, no checkout. */
export async function repeatOrder(
  ctx: AppContext,
  site: Site,
  auth: Auth,
  requestId: string,
  visitorCountry: string | null,
): Promise<{ created: boolean } & StartPaymentResponse> {
  const existing = await findOrderByRequest(dbOf(ctx), auth.user.id, requestId);
  if (existing) return { created: false, ...(await resume(ctx, site, existing, false)) };
  const last = await findLastPaidOrder(dbOf(ctx), auth.user.id);
  if (!last) throw new HttpError(404, PAYMENT_ERRORS.noPreviousOrder, 'There is no earlier order to repeat');
  const buyer = await buyerOf(ctx, auth);
  const pkg = await packageForBuyer(ctx, site, buyer, last.packageId, visitorCountry).catch(() => {
    throw new HttpError(404, PAYMENT_ERRORS.noPreviousOrder, 'The package of the last order is no longer sold');
  });
  const choice = await chooseDiscount(ctx, { siteId: site.id, userId: buyer.userId, code: undefined, country: pkg.country });
  const price = await priceOf(ctx, { siteId: site.id, userId: buyer.userId, choice, pkg, method: last.method });
  const method = await offeredMethod(ctx, site, buyer, pkg, price, last.method);
  await takeOverDiscount(ctx, buyer.userId, price);
  // A card paid before with a 'first' payment left a mandate: the repeat is charged with it, unless a payment of
  // the member was charged back (then the payer confirms at a checkout again, as direct debit is blocked too).
  let mandate: { mandateId: string; customerId: string } | null = null;
  if (
    method.name !== 'directdebit' &&
    !buyer.directDebitBlocked &&
    last.mandateId &&
    (last.sequenceType === 'first' || last.sequenceType === 'recurring')
  ) {
    const customerId = await findCustomerOf(dbOf(ctx), buyer.userId, ctx.payments.name);
    if (customerId) {
      const mandates = await ctx.payments.listMandates(customerId).catch(() => []);
      if (mandates.some((m) => m.id === last.mandateId && m.status === 'valid')) mandate = { mandateId: last.mandateId, customerId };
    }
  }
  return placeOrder(ctx, site, buyer, {
    pkg,
    method: method.name,
    feeMinor: method.feeMinor,
    discount: price,
    requestId,
    repeatOf: last.id,
    mandate,
  });
}

interface Placement {
  pkg: NonNullable<Awaited<ReturnType<typeof findPackage>>>;
  method: PaymentMethodName;
  feeMinor: number;
  discount: { discountCodeId: number | null; discountMinor: number };
  requestId: string;
  repeatOf: number | null;
  /** A card mandate to charge (repeat order); direct debit finds its own. */
  mandate: { mandateId: string; customerId: string } | null;
}

/** The method asked for, offered for this package at its price after the discount; else the order is refused. */
async function offeredMethod(
  ctx: AppContext,
  site: Site,
  buyer: Buyer,
  pkg: Placement['pkg'],
  price: { discountMinor: number },
  name: string,
) {
  const offered = await offeredMethodsFor(ctx, site, {
    country: pkg.country,
    currency: pkg.currency,
    amountMinor: pkg.priceMinor - price.discountMinor,
    language: buyer.language,
  });
  const method = offered.find((m) => m.name === name);
  if (!method) throw methodUnavailable();
  return method;
}

async function placeOrder(ctx: AppContext, site: Site, buyer: Buyer, p: Placement): Promise<{ created: boolean } & StartPaymentResponse> {
  const provider = ctx.payments.name;
  const isCard = CARD_BRANDS.includes(p.method);
  // A card payment sets up a mandate (Mollie's 'first' payment), so a repeat order needs no checkout.
  let customerId: string | null = p.mandate?.customerId ?? null;
  if (isCard && !p.mandate) customerId = await ensureCustomer(ctx, buyer, site);
  const now = ctx.now();
  const listPrice = p.pkg.priceMinor;
  const discountMinor = p.discount.discountMinor;
  const inserted = await withTransaction(ctx, async (tx) => {
    let sequenceType: 'oneoff' | 'first' | 'recurring' = isCard && customerId ? 'first' : 'oneoff';
    let mandateId: string | null = p.mandate?.mandateId ?? null;
    if (p.mandate) sequenceType = 'recurring';
    if (p.method === 'directdebit') {
      const allowed = await directDebitAllowed(ctx, buyer.userId, { provider });
      if (!allowed.ok) throw directDebitRefused(allowed.error);
      sequenceType = 'recurring';
      mandateId = allowed.mandateId;
      customerId = allowed.customerId;
    }
    const row = await insertOrder(tx, {
      siteId: site.id,
      userId: buyer.userId,
      packageId: p.pkg.id,
      country: p.pkg.country,
      credits: p.pkg.credits,
      currency: p.pkg.currency,
      listPriceMinor: listPrice,
      discountMinor,
      feeMinor: p.feeMinor,
      amountMinor: listPrice - discountMinor + p.feeMinor,
      discountCodeId: discountMinor > 0 ? p.discount.discountCodeId : null,
      method: p.method,
      provider,
      sequenceType,
      mandateId,
      status: 'created',
      requestKey: p.requestId,
      repeatOf: p.repeatOf,
      createdAt: now,
      updatedAt: now,
    });
    if (row && row.discountCodeId !== null) {
      // Once per member: a checkout of theirs opened meanwhile holds the code (this order is then not stored).
      const reserved = await reserveDiscount(ctx, { discountCodeId: row.discountCodeId, userId: buyer.userId, orderId: row.id });
      if (!reserved) throw discountRefused('discount_used');
    }
    // Should neither the webhook nor the return page bring the result, the order asks the provider itself.
    if (row) await ctx.jobs.enqueue(tx, CHECK_JOB, { orderId: row.id, round: 0 }, { runAt: new Date(now.getTime() + CHECK_AFTER_MS[0]) });
    return row;
  });
  if (!inserted) {
    // Another request with this request_id stored its order first: answer that one.
    const first = await findOrderByRequest(dbOf(ctx), buyer.userId, p.requestId);
    if (!first) throw new Error('An order with this request id was stored and is gone');
    return { created: false, ...(await resume(ctx, site, first, false)) };
  }
  return { created: true, ...(await resume(ctx, site, inserted, true, customerId)) };
}

function directDebitRefused(error: 'direct_debit_blocked' | 'direct_debit_limit' | 'mandate_required'): HttpError {
  const texts = {
    direct_debit_blocked: [403, 'Your account is blocked for direct debit'],
    direct_debit_limit: [409, 'You have reached the limit of open direct debits; try again once one is settled'],
    mandate_required: [409, 'Direct debit needs a mandate first'],
  } as const;
  const [status, message] = texts[error];
  return new HttpError(status, error, message, { field: 'method' });
}

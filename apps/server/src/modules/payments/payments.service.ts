import {
  bestValueId,
  DIRECT_DEBIT_OPEN_LIMIT,
  isLocale,
  localizePath,
  PAYMENT_ERRORS,
  type PackagesResponse,
  type PaymentMethodName,
  type PaymentMethodsResponse,
  type PricingResponse,
  type StartPaymentResponse,
  type TransactionResponse,
  type TransactionsResponse,
} from '@amora/contracts';
import type { Executor } from '@amora/db';
import type { AppContext } from '../../context';
import { HttpError, notFound } from '../../lib/errors';
import { type DbContext, dbOf, withTransaction } from '../../lib/transaction';
import { addDebtAndBlock, setCreditDebt, setPaidUser } from '../accounts/accounts.service';
import { credit, movements, spend } from '../credits/credits.service';
import {
  checkoutsHoldingDiscount,
  discountCodeById,
  markDiscountUsed,
  ordersHoldingDiscounts,
  releaseDiscount,
  reserveDiscount,
} from '../discounts/discounts.service';
import type { Auth } from '../sessions/sessions.service';
import type { Site } from '../sites/sites.service';
import { siteUrl } from '../sites/sites.service';
import {
  chooseDiscount,
  mollieLocale,
  offeredMethodsFor,
  paymentCatalogue,
  paymentCountryOf,
  priceOf,
  providerUnavailable,
} from './catalogue';
import { presentMovement, presentOrder, presentPackage, presentPackages, presentReceipt } from './payments.presenter';
import {
  attachPayment,
  type Buyer,
  countOpenDirectDebits as countOpenDirectDebitsOf,
  countriesWithPackages,
  detachOrders,
  findBuyer,
  findCustomer as findCustomerOf,
  findLastPaidOrder,
  findOrder,
  findOrderByPayment,
  findOrderByRequest,
  findPackage,
  findValidMandate,
  hasOrdersWithoutPayment,
  insertOrder,
  listOrders,
  lockBuyer,
  lockMemberForDirectDebit,
  lockOrder,
  type OrderRow,
  recordEvent,
  refundedCreditsOf,
  saveCustomer as saveCustomerOf,
  touchOrder,
  updateOrder,
} from './payments.repository';
import { CARD_BRANDS, mollieMethodFor } from './provider/methods';
import type { ProviderPayment, ProviderPaymentStatus } from './provider/provider';

/**
 * Buying credits (issue 17; DESIGN Payments): the order is stored before the provider is called, the provider's
 * payment is fetched on every webhook and status check and applied to the order once per status, under the
 * order's row lock, so credits go in once whatever arrives twice or out of order.
 */

/** How old an open order's last look at the provider may be before the status call looks again. */
export const STATUS_RECHECK_MS = 10_000;
/** How long a start that found another request's order waits for that request to reach the provider. */
const JOIN_WAIT_MS = 15_000;
const LIST_LIMIT = 100;

const WAITING = new Set(['created', 'open', 'pending', 'authorized']);

async function buyerOf(ctx: AppContext, auth: Auth): Promise<Buyer> {
  const buyer = await findBuyer(dbOf(ctx), auth.user.id);
  if (!buyer) throw notFound('Account not found');
  return buyer;
}

const pricesOf = (site: Site) => ({ message: site.messageCredits, gift: site.giftCredits, photo: site.photoCredits });
const minimumCostsOf = (site: Site, country: string) => site.minimumMessageCosts[country] ?? null;

const packageNotFound = () => new HttpError(404, PAYMENT_ERRORS.packageNotFound, 'This package could not be found');
const methodUnavailable = () =>
  new HttpError(422, PAYMENT_ERRORS.methodUnavailable, 'This payment method is not available for this package', { field: 'method' });
const discountRefused = (error: string) =>
  new HttpError(422, error, 'This discount code cannot be used for this order', { field: 'discountcode' });
const discountReserved = (order: OrderRow) =>
  new HttpError(
    409,
    PAYMENT_ERRORS.discountReserved,
    'Your discount is held by a payment you started and did not finish: continue that payment, or choose again once it has expired',
    { field: 'discountcode', order_id: order.id, checkout_url: order.checkoutUrl },
  );

/** GET /api/packages.php. */
export async function packagesFor(
  ctx: AppContext,
  site: Site,
  auth: Auth,
  code: string | undefined,
  visitorCountry: string | null,
): Promise<PackagesResponse> {
  const buyer = await buyerOf(ctx, auth);
  const { country, currency, packages } = await paymentCatalogue(ctx, site, paymentCountryOf(buyer, visitorCountry));
  const choice = await chooseDiscount(ctx, { siteId: site.id, userId: buyer.userId, code, country });
  const priced = await Promise.all(
    packages.map((pkg) => priceOf(ctx, { siteId: site.id, userId: buyer.userId, choice, pkg, method: null })),
  );
  const last = await findLastPaidOrder(dbOf(ctx), buyer.userId);
  return {
    payment_country: country,
    currency,
    credits: buyer.credits,
    paid_user: buyer.paidUser,
    prices: pricesOf(site),
    minimum_message_costs: minimumCostsOf(site, country),
    discount: choice.kind === 'none' ? null : choice.view,
    discount_error: choice.kind === 'code' ? choice.error : null,
    packages: presentPackages(
      packages,
      priced.map((p) => p.discountMinor),
    ),
    last_order: last ? { package_id: last.packageId, method: last.method } : null,
  };
}

/** A package of the member's payment country, or package_not_found. */
async function packageForBuyer(ctx: AppContext, site: Site, buyer: Buyer, packageId: number, visitorCountry: string | null) {
  const { country } = await paymentCatalogue(ctx, site, paymentCountryOf(buyer, visitorCountry));
  const pkg = await findPackage(dbOf(ctx), packageId);
  if (!pkg || pkg.siteId !== site.id || pkg.country !== country || !pkg.active) throw packageNotFound();
  return pkg;
}

/** GET /api/paymentmethods.php. */
export async function methodsFor(
  ctx: AppContext,
  site: Site,
  auth: Auth,
  q: { packageId: number; code: string | undefined; visitorCountry: string | null },
): Promise<PaymentMethodsResponse> {
  const buyer = await buyerOf(ctx, auth);
  const pkg = await packageForBuyer(ctx, site, buyer, q.packageId, q.visitorCountry);
  const choice = await chooseDiscount(ctx, { siteId: site.id, userId: buyer.userId, code: q.code, country: pkg.country });
  const base = await priceOf(ctx, { siteId: site.id, userId: buyer.userId, choice, pkg, method: null });
  const offered = await offeredMethodsFor(ctx, site, {
    country: pkg.country,
    currency: pkg.currency,
    amountMinor: pkg.priceMinor - base.discountMinor,
    language: buyer.language,
  });
  const needsMandate = offered.some((m) => m.mandateOnly)
    ? (await directDebitAllowed(ctx, buyer.userId, { provider: ctx.payments.name })).ok === false
    : false;
  const methods = await Promise.all(
    offered.map(async (m) => {
      // A code limited to some methods takes nothing off with the others.
      const priced =
        base.discountMinor > 0 ? await priceOf(ctx, { siteId: site.id, userId: buyer.userId, choice, pkg, method: m.name }) : base;
      return {
        name: m.name,
        fee: m.feeMinor,
        amount: pkg.priceMinor - priced.discountMinor + m.feeMinor,
        currency: pkg.currency,
        needs_mandate: m.mandateOnly && needsMandate,
      };
    }),
  );
  // Best value as on the list: the package is marked when it is the cheapest per credit of its country's.
  const { packages: all } = await paymentCatalogue(ctx, site, pkg.country);
  const best = bestValueId(presentPackages(all, []));
  return {
    payment_country: pkg.country,
    package: { ...presentPackage(pkg, base.discountMinor), best_value: best === pkg.id },
    discount: choice.kind === 'none' ? null : choice.view,
    discount_error: choice.kind === 'code' ? choice.error : null,
    methods,
  };
}

/** GET /api/pricing.php (public): the member's payment country, else the country asked for, else the visitor's. */
export async function pricingFor(
  ctx: AppContext,
  site: Site,
  q: { userId: number | null; country: string | null; visitorCountry: string },
): Promise<PricingResponse> {
  let wanted = q.country?.toUpperCase() ?? null;
  if (!wanted && q.userId !== null) {
    const buyer = await findBuyer(dbOf(ctx), q.userId);
    wanted = buyer ? paymentCountryOf(buyer, q.visitorCountry) : null;
  }
  const { country, currency, packages } = await paymentCatalogue(ctx, site, wanted ?? q.visitorCountry);
  const smallest = packages.reduce((min, pkg) => Math.min(min, pkg.priceMinor), Number.POSITIVE_INFINITY);
  const offered = packages.length
    ? await offeredMethodsFor(ctx, site, {
        country,
        currency,
        amountMinor: smallest,
        language: site.domainLanguage.slice(0, 2),
        unfilteredWhenUnreachable: true,
      })
    : [];
  const countries = await countriesWithPackages(dbOf(ctx), site.id);
  return {
    payment_country: country,
    currency,
    countries,
    prices: pricesOf(site),
    minimum_message_costs: minimumCostsOf(site, country),
    packages: presentPackages(packages, []),
    methods: offered.map((m) => ({ name: m.name, fee: m.feeMinor })),
  };
}

/* The provider's customers belong to this module; directdebit asks for them when it makes a mandate. */

/** The member's customer at the provider, if one was made. */
export async function findCustomer(ctx: DbContext, userId: number, provider: string): Promise<string | null> {
  return findCustomerOf(dbOf(ctx), userId, provider);
}

/** Keeps the member's provider customer; when another request stored one first, that one is answered. */
export async function saveCustomer(ctx: DbContext, userId: number, provider: string, customerId: string): Promise<string> {
  return saveCustomerOf(dbOf(ctx), userId, provider, customerId);
}

/** Direct-debit orders of the member that are not settled yet (DIRECT_DEBIT_OPEN_LIMIT counts them). */
export async function countOpenDirectDebits(ctx: DbContext, userId: number): Promise<number> {
  return countOpenDirectDebitsOf(dbOf(ctx), userId);
}

export type DirectDebitAllowed =
  | { ok: true; mandateId: string; customerId: string }
  | { ok: false; error: 'direct_debit_blocked' | 'direct_debit_limit' | 'mandate_required' };

/**
 * Whether the member may start a direct-debit payment now, and with which provider mandate and customer.
 * Call it inside the unit of work that stores the order (it joins it): it locks the member's row, so of
 * parallel starts one at a time counts the open debits and adds its own, and the limit holds. In this order:
 * blocked after a chargeback, no valid mandate (of `provider`, when given; modules/directdebit makes them),
 * DIRECT_DEBIT_OPEN_LIMIT reached.
 */
export async function directDebitAllowed(ctx: DbContext, userId: number, options: { provider?: string } = {}): Promise<DirectDebitAllowed> {
  return withTransaction(ctx, async (tx) => {
    const member = await lockMemberForDirectDebit(tx, userId);
    if (!member || member.blocked) return { ok: false, error: 'direct_debit_blocked' } as const;
    const mandate = await findValidMandate(tx, userId, options.provider);
    const customerId = mandate ? await findCustomerOf(tx, userId, mandate.provider) : null;
    if (!mandate || !customerId) return { ok: false, error: 'mandate_required' } as const;
    if ((await countOpenDirectDebitsOf(tx, userId)) >= DIRECT_DEBIT_OPEN_LIMIT) return { ok: false, error: 'direct_debit_limit' } as const;
    return { ok: true, mandateId: mandate.providerMandateId, customerId } as const;
  });
}

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
  const offered = await offeredMethodsFor(ctx, site, {
    country: pkg.country,
    currency: pkg.currency,
    amountMinor: pkg.priceMinor - price.discountMinor,
    language: buyer.language,
  });
  const method = offered.find((m) => m.name === input.method);
  if (!method) throw methodUnavailable();
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
  const offered = await offeredMethodsFor(ctx, site, {
    country: pkg.country,
    currency: pkg.currency,
    amountMinor: pkg.priceMinor - price.discountMinor,
    language: buyer.language,
  });
  const method = offered.find((m) => m.name === last.method);
  if (!method) throw methodUnavailable();
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

async function ensureCustomer(ctx: AppContext, buyer: Buyer, site: Site): Promise<string | null> {
  const known = await findCustomerOf(dbOf(ctx), buyer.userId, ctx.payments.name);
  if (known) return known;
  try {
    const made = await ctx.payments.createCustomer({ metadata: { userId: buyer.userId, siteId: site.id } });
    return await saveCustomerOf(dbOf(ctx), buyer.userId, ctx.payments.name, made.id);
  } catch {
    // Without a customer the card is paid once (no mandate for a repeat).
    return null;
  }
}

/** The provider's payment of an order: made now (once, Idempotency-Key order:{id}), or the one it has. */
async function resume(
  ctx: AppContext,
  site: Site,
  order: OrderRow,
  mine: boolean,
  customerId: string | null = null,
): Promise<StartPaymentResponse> {
  let current = order;
  if (!current.providerPaymentId && !mine) current = await waitForPayment(ctx, current);
  if (!current.providerPaymentId && WAITING.has(current.status)) current = await createPayment(ctx, site, current, customerId);
  const presented = presentOrder(current);
  return { order: presented, checkout_url: presented.checkout_url };
}

/** A start of this order reached the provider and failed (createPayment marks it): nobody else is trying. */
const attemptFailed = (order: OrderRow) => order.providerPaymentId === null && order.updatedAt.getTime() > order.createdAt.getTime();

/**
 * Another request is creating this order's payment: wait for it, until JOIN_WAIT_MS after the order was stored
 * (a retry after a failed start does not wait again), then make it ourselves (same Idempotency-Key).
 */
async function waitForPayment(ctx: AppContext, order: OrderRow): Promise<OrderRow> {
  if (attemptFailed(order)) return order;
  const age = Math.max(0, ctx.now().getTime() - order.createdAt.getTime());
  const until = Date.now() + Math.max(0, JOIN_WAIT_MS - age);
  let current = order;
  for (let delay = 20; Date.now() < until; delay = Math.min(delay * 2, 250)) {
    await new Promise((resolve) => setTimeout(resolve, delay));
    current = (await findOrder(dbOf(ctx), order.id)) ?? current;
    if (current.providerPaymentId || !WAITING.has(current.status) || attemptFailed(current)) return current;
  }
  return current;
}

function returnUrlOf(ctx: AppContext, site: Site, language: string, orderId: number): string {
  return siteUrl(ctx.config, site, localizePath(`/transactions/${orderId}`, isLocale(language) ? language : 'en'));
}

export const WEBHOOK_PATH = '/api/payments/webhook';

function webhookUrlOf(ctx: AppContext, site: Site): string {
  const base = ctx.config.payments?.publicUrl;
  return base ? `${base.replace(/\/+$/, '')}${WEBHOOK_PATH}` : siteUrl(ctx.config, site, WEBHOOK_PATH);
}

async function createPayment(ctx: AppContext, site: Site, order: OrderRow, knownCustomer: string | null): Promise<OrderRow> {
  const userId = order.userId;
  if (userId === null) return order;
  const buyer = await findBuyer(dbOf(ctx), userId);
  const language = buyer?.language ?? 'en';
  const customerId =
    order.sequenceType === 'oneoff' ? null : (knownCustomer ?? (await findCustomerOf(dbOf(ctx), userId, ctx.payments.name)) ?? undefined);
  let payment: ProviderPayment;
  try {
    payment = await ctx.payments.createPayment({
      amount: { minor: order.amountMinor, currency: order.currency },
      description: `${site.name}: ${order.credits} credits (order ${order.id})`,
      redirectUrl: returnUrlOf(ctx, site, language, order.id),
      webhookUrl: webhookUrlOf(ctx, site),
      method: mollieMethodFor(order.method) ?? undefined,
      locale: mollieLocale(language, order.country),
      billingCountry: order.country,
      sequenceType: order.sequenceType,
      customerId: customerId ?? undefined,
      mandateId: order.sequenceType === 'recurring' ? (order.mandateId ?? undefined) : undefined,
      metadata: { orderId: order.id, siteId: order.siteId, userId },
      idempotencyKey: `order:${order.id}`,
    });
  } catch {
    // The order stays 'created': a retry with the same request_id asks the provider again, with the same key,
    // at once (the mark tells it that nobody is making the payment any more).
    await touchOrder(dbOf(ctx), order.id, new Date(Math.max(ctx.now().getTime(), order.createdAt.getTime() + 1)));
    throw providerUnavailable();
  }
  const attached = await attachPayment(dbOf(ctx), order.id, {
    providerPaymentId: payment.id,
    status: 'open',
    checkoutUrl: payment.checkoutUrl,
    mandateId: payment.mandateId ?? order.mandateId,
    now: ctx.now(),
  });
  // The payment may have moved on already (a recurring debit is pending at once; a webhook may have come first).
  return applyPayment(ctx, attached?.id ?? order.id, payment);
}

/** Rank of a status: an order only moves up (paid wins over a late open or pending; a chargeback only after paid). */
const RANK: Record<string, number> = {
  created: 0,
  open: 1,
  pending: 2,
  authorized: 2,
  failed: 3,
  canceled: 3,
  expired: 3,
  paid: 4,
  charged_back: 5,
};

function moves(from: string, to: string): boolean {
  if (to === 'charged_back') return from === 'paid';
  // Money the provider says arrived is credited even after the order had failed or expired.
  if (to === 'paid') return RANK[from] < RANK.paid;
  return RANK[to] > RANK[from] && RANK[from] < 3;
}

type Target = ProviderPaymentStatus | 'charged_back';

/**
 * Applies what the provider says of an order's payment, once per (order, status), under the order's row lock:
 * open/pending/authorized move the order on; paid credits the package (ledger key `pay:{order}`; a chargeback's
 * debt is paid first), makes the member premium for good and uses the discount; failed/canceled/expired give the
 * discount back; a chargeback takes the credits back as far as the balance goes, records the rest as debt and
 * blocks direct debit. A payment that is not this order's (another id, amount or currency) changes nothing.
 */
export async function applyPayment(ctx: AppContext, orderId: number, payment: ProviderPayment): Promise<OrderRow> {
  const now = ctx.now();
  const madePaid: { siteId: number; userId: number }[] = [];
  const result = await withTransaction(ctx, async (tx) => {
    let order = await lockOrder(tx, orderId);
    if (!order) throw new Error(`Order ${orderId} is missing`);
    if (order.providerPaymentId === null) {
      if (!belongsTo(payment, order)) return order;
      order = await updateOrder(tx, order.id, { providerPaymentId: payment.id, checkoutUrl: payment.checkoutUrl });
    }
    if (
      payment.id !== order.providerPaymentId ||
      payment.amount.minor !== order.amountMinor ||
      payment.amount.currency !== order.currency
    ) {
      return order;
    }
    if (payment.mandateId && payment.mandateId !== order.mandateId)
      order = await updateOrder(tx, order.id, { mandateId: payment.mandateId });
    const target: Target = payment.status === 'paid' && payment.chargedBackMinor > 0 ? 'charged_back' : payment.status;
    const steps: Target[] = target === 'charged_back' && order.status !== 'paid' ? ['paid', 'charged_back'] : [target];
    for (const step of steps) {
      if (!moves(order.status, step)) continue;
      if (!(await recordEvent(tx, order.id, step, { paymentId: payment.id, providerStatus: payment.status }))) continue;
      order = await applyStep(ctx, tx, order, step, payment, now);
      if (order.userId !== null && (step === 'paid' || step === 'charged_back'))
        madePaid.push({ siteId: order.siteId, userId: order.userId });
    }
    if (order.status === 'paid' && order.userId !== null && payment.refundedMinor > 0 && (await applyRefund(ctx, tx, order, payment))) {
      madePaid.push({ siteId: order.siteId, userId: order.userId });
    }
    return updateOrder(tx, order.id, { updatedAt: now });
  });
  // The member's balance, premium flag or debt changed: every process reads their session again.
  for (const member of madePaid.slice(0, 1)) ctx.events.publish({ type: 'account.changed', ...member });
  return result;
}

/**
 * Money the provider gave back (a refund made in its dashboard; the provider calls the webhook for it, the payment
 * stays 'paid') takes the order's credits back in proportion to what was refunded, rounded up, as far as the
 * balance goes, the rest as debt (without blocking direct debit: a refund is the operator's choice). Once per
 * refunded total (event `refunded:<minor>`, ledger key `refund:<order>:<minor>`): a later, larger refund takes
 * only the difference. True when something was taken or owed.
 */
async function applyRefund(ctx: AppContext, tx: Executor, order: OrderRow, payment: ProviderPayment): Promise<boolean> {
  const userId = order.userId;
  if (userId === null || order.amountMinor <= 0) return false;
  const refunded = Math.min(payment.refundedMinor, order.amountMinor);
  const owed = Math.min(order.credits, Math.ceil((order.credits * refunded) / order.amountMinor));
  const take = owed - (await refundedCreditsOf(tx, order.id));
  if (take <= 0) return false;
  if (!(await recordEvent(tx, order.id, `refunded:${refunded}`, { paymentId: payment.id, refundedMinor: refunded, credits: take }))) {
    return false;
  }
  const member = await lockBuyer(tx, userId);
  const taken = Math.min(member?.credits ?? 0, take);
  if (taken > 0) {
    await spend(ctx, {
      userId,
      siteId: order.siteId,
      amount: taken,
      reason: 'chargeback',
      idempotencyKey: `refund:${order.id}:${refunded}`,
    });
  }
  if (take > taken) await setCreditDebt(ctx, userId, (member?.creditDebt ?? 0) + take - taken);
  return true;
}

function belongsTo(payment: ProviderPayment, order: OrderRow): boolean {
  const meta = payment.metadata as { orderId?: unknown } | null;
  return Number(meta?.orderId) === order.id && payment.amount.minor === order.amountMinor && payment.amount.currency === order.currency;
}

async function applyStep(
  ctx: AppContext,
  tx: Executor,
  order: OrderRow,
  step: Target,
  payment: ProviderPayment,
  now: Date,
): Promise<OrderRow> {
  const userId = order.userId;
  switch (step) {
    case 'paid': {
      if (userId !== null) {
        await credit(ctx, { userId, siteId: order.siteId, amount: order.credits, reason: 'purchase', idempotencyKey: `pay:${order.id}` });
        const member = await lockBuyer(tx, userId);
        if (member && member.creditDebt > 0) {
          const repaid = Math.min(member.creditDebt, member.credits);
          if (repaid > 0) {
            await spend(ctx, { userId, siteId: order.siteId, amount: repaid, reason: 'debt', idempotencyKey: `debt:${order.id}` });
            await setCreditDebt(ctx, userId, member.creditDebt - repaid);
          }
        }
        await setPaidUser(ctx, userId, true);
      }
      await markDiscountUsed(ctx, order.id);
      return updateOrder(tx, order.id, {
        status: 'paid',
        paidAt: payment.paidAt ? new Date(payment.paidAt) : now,
        creditedAt: now,
        checkoutUrl: null,
      });
    }
    case 'charged_back': {
      if (userId !== null) {
        const member = await lockBuyer(tx, userId);
        // What a refund took back already is not taken twice.
        const due = Math.max(0, order.credits - (await refundedCreditsOf(tx, order.id)));
        const taken = Math.min(member?.credits ?? 0, due);
        if (taken > 0) {
          await spend(ctx, { userId, siteId: order.siteId, amount: taken, reason: 'chargeback', idempotencyKey: `chargeback:${order.id}` });
        }
        await addDebtAndBlock(ctx, userId, due - taken);
      }
      return updateOrder(tx, order.id, { status: 'charged_back', chargedBackAt: now });
    }
    case 'failed':
    case 'canceled':
    case 'expired':
      await releaseDiscount(ctx, order.id);
      return updateOrder(tx, order.id, { status: step, checkoutUrl: null });
    default:
      return updateOrder(tx, order.id, { status: step });
  }
}

/** The job that asks the provider about an order still waiting, in case no webhook came (a Mollie webhook on localhost). */
export const CHECK_JOB = 'payments.check';
/** When the job looks, after the order was stored: 2 and 10 minutes, an hour, 6 hours, a day, two days. */
export const CHECK_AFTER_MS = [120_000, 600_000, 3_600_000, 21_600_000, 86_400_000, 172_800_000];

/**
 * The `payments.check` job (jobs.ts): asks the provider about the order if it still waits, and enqueues the next
 * round. Each round has its dedupe key, so a run repeated after a lost outcome does not start a second chain.
 */
export async function checkOrder(ctx: AppContext, job: { orderId: number; round: number }): Promise<void> {
  const order = await findOrder(dbOf(ctx), job.orderId);
  if (!order || !WAITING.has(order.status)) return;
  if (order.providerPaymentId === null) {
    await expireUnstarted(ctx, order.id);
    return;
  }
  // A provider that cannot be reached throws: the job is tried again later.
  const payment = await ctx.payments.getPayment(order.providerPaymentId);
  const after = payment ? await applyPayment(ctx, order.id, payment) : order;
  const next = job.round + 1;
  if (WAITING.has(after.status) && next < CHECK_AFTER_MS.length) {
    const runAt = new Date(order.createdAt.getTime() + CHECK_AFTER_MS[next]);
    await ctx.jobs.enqueue(
      dbOf(ctx),
      CHECK_JOB,
      { orderId: order.id, round: next },
      { runAt, dedupeKey: `${CHECK_JOB}:${order.id}:${next}` },
    );
  }
}

/**
 * An order whose payment was never made (the provider could not be reached and nobody retried) expires at its
 * first check and gives its discount back. Should the provider have made the payment after all, its webhook still
 * finds the order through the payment's metadata and a paid payment is credited.
 */
async function expireUnstarted(ctx: AppContext, orderId: number): Promise<void> {
  await withTransaction(ctx, async (tx) => {
    const order = await lockOrder(tx, orderId);
    if (!order || order.providerPaymentId !== null || order.status !== 'created') return;
    if (!(await recordEvent(tx, order.id, 'expired', { reason: 'never_started' }))) return;
    await releaseDiscount(ctx, order.id);
    await updateOrder(tx, order.id, { status: 'expired', updatedAt: ctx.now() });
  });
}

export type WebhookOutcome = 'processed' | 'unknown_order';

/** How far back an order without a payment id may still get its payment's webhook (a bank transfer takes days). */
const UNATTACHED_LOOKBACK_MS = 30 * 86_400_000;

/**
 * POST /api/payments/webhook: the provider says only which payment changed. The payment is fetched from the
 * provider and applied. No order of ours has that payment → unknown_order (404: the provider tries again later,
 * in case its webhook came before our order had its payment id). A forged id the provider does not know
 * changes nothing.
 */
export async function handleWebhook(ctx: AppContext, paymentId: string): Promise<WebhookOutcome> {
  let order = await findOrderByPayment(dbOf(ctx), ctx.payments.name, paymentId);
  // A made-up id is not worth a call to the provider (a flood of them would spend its API rate) unless an order
  // without its payment id could be waiting for it.
  if (!order && !(await hasOrdersWithoutPayment(dbOf(ctx), ctx.payments.name, new Date(ctx.now().getTime() - UNATTACHED_LOOKBACK_MS)))) {
    return 'unknown_order';
  }
  const payment = await ctx.payments.getPayment(paymentId);
  if (!order && payment) {
    // The webhook may come before the start stored the payment's id: the payment names its order.
    const meta = payment.metadata as { orderId?: unknown } | null;
    const id = Number(meta?.orderId);
    const candidate = Number.isSafeInteger(id) && id > 0 ? await findOrder(dbOf(ctx), id) : undefined;
    if (candidate && candidate.provider === ctx.payments.name && candidate.providerPaymentId === null && belongsTo(payment, candidate)) {
      order = candidate;
    }
  }
  if (!order) return 'unknown_order';
  if (!payment) return 'processed';
  await applyPayment(ctx, order.id, payment);
  return 'processed';
}

/** GET /api/transactions.php?id=N: my order, asked for again at the provider while it waits (a missed webhook). */
export async function transactionOf(ctx: AppContext, site: Site, auth: Auth, orderId: number): Promise<TransactionResponse> {
  let order = await findOrder(dbOf(ctx), orderId);
  if (!order || order.userId !== auth.user.id || order.siteId !== site.id) throw notFound('This order could not be found');
  if (
    WAITING.has(order.status) &&
    order.providerPaymentId !== null &&
    ctx.now().getTime() - order.updatedAt.getTime() > STATUS_RECHECK_MS
  ) {
    await touchOrder(dbOf(ctx), order.id, ctx.now());
    const payment = await ctx.payments.getPayment(order.providerPaymentId).catch(() => null);
    if (payment) order = await applyPayment(ctx, order.id, payment);
  }
  const percentage = order.discountCodeId !== null ? ((await discountCodeById(ctx, order.discountCodeId))?.percentage ?? null) : null;
  return { order: presentOrder(order), receipt: order.status === 'paid' ? presentReceipt(site, order, percentage) : null };
}

/** GET /api/transactions.php: my orders and credit movements, newest first. */
export async function transactionsOf(ctx: AppContext, auth: Auth): Promise<TransactionsResponse> {
  const [orders, ledger, buyer] = await Promise.all([
    listOrders(dbOf(ctx), auth.user.id, LIST_LIMIT),
    movements(ctx, auth.user.id, LIST_LIMIT),
    findBuyer(dbOf(ctx), auth.user.id),
  ]);
  return {
    orders: orders.filter((o) => o.siteId === auth.user.siteId).map(presentOrder),
    movements: ledger.map(presentMovement),
    credit_debt: buyer?.creditDebt ?? 0,
  };
}

/** The account purge: orders are money records and stay, without the member (their customer link goes). */
export async function purgeMember(ctx: DbContext, member: { userId: number }): Promise<void> {
  await detachOrders(dbOf(ctx), member.userId);
}

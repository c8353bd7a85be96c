import {
  bestValueId,
  DIRECT_DEBIT_OPEN_LIMIT,
  PAYMENT_ERRORS,
  type PackagesResponse,
  type PaymentMethodsResponse,
  type PricingResponse,
  type TransactionResponse,
  type TransactionsResponse,
} from '@amora/contracts';
import type { AppContext } from '../../context';
import { HttpError, notFound } from '../../lib/errors';
import { type DbContext, dbOf, withTransaction } from '../../lib/transaction';
import { movements } from '../credits/credits.service';
import { discountCodeById } from '../discounts/discounts.service';
import type { Auth } from '../sessions/sessions.service';
import type { Site } from '../sites/sites.service';
import { chooseDiscount, offeredMethodsFor, paymentCatalogue, paymentCountryOf, priceOf } from './catalogue';
import { applyPayment, WAITING } from './order-status.service';
import { presentMovement, presentOrder, presentPackage, presentPackages, presentReceipt } from './payments.presenter';
import {
  type Buyer,
  countOpenDirectDebits as countOpenDirectDebitsOf,
  countriesWithPackages,
  detachOrders,
  findBuyer,
  findCustomer as findCustomerOf,
  findLastPaidOrder,
  findOrder,
  findPackage,
  findValidMandate,
  insertPackage,
  listAllMethods,
  listAllPackages,
  listOrders,
  lockMemberForDirectDebit,
  type MethodRow,
  type PackageRow,
  replaceMethods,
  saveCustomer as saveCustomerOf,
  touchOrder,
  updatePackage,
} from './payments.repository';
import { allowedFee, CARD_BASED_METHODS, NO_CARD_SURCHARGE_COUNTRIES } from './provider/methods';

/**
 * Buying credits (issue 17; DESIGN Payments): the order is stored before the provider is called, the provider's
 * payment is fetched on every webhook and status check and applied to the order once per status, under the
 * order's row lock, so credits go in once whatever arrives twice or out of order.
 */

/** How old an open order's last look at the provider may be before the status call looks again. */
export const STATUS_RECHECK_MS = 10_000;
const LIST_LIMIT = 100;

export async function buyerOf(ctx: AppContext, auth: Auth): Promise<Buyer> {
  const buyer = await findBuyer(dbOf(ctx), auth.user.id);
  if (!buyer) throw notFound('Account not found');
  return buyer;
}

const pricesOf = (site: Site) => ({ message: site.messageCredits, gift: site.giftCredits, photo: site.photoCredits });
const minimumCostsOf = (site: Site, country: string) => site.minimumMessageCosts[country] ?? null;

const packageNotFound = () => new HttpError(404, PAYMENT_ERRORS.packageNotFound, 'This package could not be found');
export const methodUnavailable = () =>
  new HttpError(422, PAYMENT_ERRORS.methodUnavailable, 'This payment method is not available for this package', { field: 'method' });
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
export async function packageForBuyer(ctx: AppContext, site: Site, buyer: Buyer, packageId: number, visitorCountry: string | null) {
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

/** An order with what the provider says of its payment now (null: no payment, or the provider does not know it). */
export async function orderWithPayment(ctx: AppContext, orderId: number) {
  const order = await findOrder(dbOf(ctx), orderId);
  if (!order) return null;
  const payment = order.providerPaymentId ? await ctx.payments.getPayment(order.providerPaymentId) : null;
  return {
    order: { id: order.id, userId: order.userId, status: order.status, amountMinor: order.amountMinor, currency: order.currency },
    payment: payment && { id: payment.id, refundedMinor: payment.refundedMinor, chargedBackMinor: payment.chargedBackMinor },
  };
}

/**
 * Gives `amountMinor` of a paid order's payment back through the provider (its refund call, outside any unit of
 * work), then applies what the provider says of the payment as its webhook would: the refund's credits are taken
 * back as far as the balance goes, the rest owed (order-status.service applyRefund: event `refunded:<minor>`,
 * ledger key `refund:<order>:<minor>`). `inUnit` runs in the same unit of work as that correction (the audit row).
 */
export async function refundOrder(
  ctx: AppContext,
  orderId: number,
  input: { paymentId: string; amountMinor: number; currency: string; description: string; idempotencyKey: string },
  inUnit: (after: { status: string; refundedMinor: number }) => Promise<void>,
): Promise<{ status: string; refundedMinor: number }> {
  await ctx.payments.createRefund(input.paymentId, {
    amount: { minor: input.amountMinor, currency: input.currency },
    description: input.description,
    idempotencyKey: input.idempotencyKey,
  });
  const payment = await ctx.payments.getPayment(input.paymentId);
  if (!payment) throw new Error(`The provider no longer knows payment ${input.paymentId}`);
  return withTransaction(ctx, async () => {
    const order = await applyPayment(ctx, orderId, payment);
    const after = { status: order.status, refundedMinor: payment.refundedMinor };
    await inUnit(after);
    return after;
  });
}

/** The account purge: orders are money records and stay, without the member (their customer link goes). */
export async function purgeMember(ctx: DbContext, member: { userId: number }): Promise<void> {
  await detachOrders(dbOf(ctx), member.userId);
}

export type { MethodRow, PackageRow } from './payments.repository';

/**
 * Prices and methods as the console edits them. Packages and methods are read from the database at every price
 * list and order (no process keeps them), so a change is used by the next order on every process.
 */
export async function sitePackages(ctx: DbContext, siteId: number): Promise<PackageRow[]> {
  return listAllPackages(dbOf(ctx), siteId);
}

export type PackageValues = Pick<PackageRow, 'country' | 'currency' | 'credits' | 'priceMinor' | 'bestValue' | 'position' | 'active'>;

export async function addPackage(ctx: DbContext, siteId: number, values: PackageValues): Promise<PackageRow> {
  return insertPackage(dbOf(ctx), { ...values, siteId });
}

/** The package after the change; null when the site has no package with that id. */
export async function changePackage(ctx: DbContext, siteId: number, packageId: number, values: PackageValues): Promise<PackageRow | null> {
  return (await updatePackage(dbOf(ctx), siteId, packageId, values)) ?? null;
}

export async function sitePaymentMethods(ctx: DbContext, siteId: number): Promise<MethodRow[]> {
  return listAllMethods(dbOf(ctx), siteId);
}

/** Whether a method is paid with a consumer card (a card brand or Apple Pay). */
export const isCardMethod = (method: string) => (CARD_BASED_METHODS as readonly string[]).includes(method);
/** Whether consumer card payments in a country may carry no surcharge (the EEA, and the UK). */
export const noCardFeesIn = (country: string) => NO_CARD_SURCHARGE_COUNTRIES.includes(country.toUpperCase());

/**
 * Sets a site's methods in a country, in order. A fee on a consumer card where surcharges are banned is refused:
 * the index of the first such method, or null when stored.
 */
export async function setPaymentMethods(
  ctx: DbContext,
  siteId: number,
  country: string,
  methods: { method: string; feeMinor: number }[],
): Promise<{ refusedAt: number } | null> {
  const refusedAt = methods.findIndex((m) => allowedFee(country, m.method, m.feeMinor) !== m.feeMinor);
  if (refusedAt >= 0) return { refusedAt };
  await withTransaction(ctx, (tx) => replaceMethods(tx, siteId, country, methods));
  return null;
}

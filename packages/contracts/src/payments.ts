import { z } from 'zod';
import { PAYMENT_METHODS } from './constants';
import { discountCodeInputSchema, discountCodeSchema } from './discounts';
import { idSchema } from './fields';
import { minimumMessageCostSchema } from './settings';

/**
 * Buying credits (spec §2 credits, credits-repeat-order, credits-id-paymentmethod, premium, pricing,
 * transactions-id; §3 "Transaction fees per payment method"; §4 payment states; §9 payment methods). Amounts are
 * integers in minor units of `currency` everywhere; credits are whole credits.
 */

const paymentMethodSchema = z.enum(PAYMENT_METHODS);
export type PaymentMethodName = (typeof PAYMENT_METHODS)[number];

/**
 * An order's status as the provider reported it last (statuses never go back: a late 'open' after 'paid' is
 * ignored). `created`: stored, the provider not reached yet; `open`: waiting on the checkout; `pending` and
 * `authorized`: the payer finished, the money not yet confirmed; `paid`: credited; `failed`, `canceled`,
 * `expired`: nothing was paid; `charged_back`: the payer's bank took a paid payment back.
 */
const PAYMENT_ORDER_STATUSES = [
  'created',
  'open',
  'pending',
  'authorized',
  'paid',
  'failed',
  'canceled',
  'expired',
  'charged_back',
] as const;
export type PaymentOrderStatus = (typeof PAYMENT_ORDER_STATUSES)[number];

/** Error codes of the payment calls (besides the discount codes' DISCOUNT_ERRORS and the direct-debit ones). */
export const PAYMENT_ERRORS = {
  /** 404: no such package for this member's payment country. */
  packageNotFound: 'package_not_found',
  /** 422: the method is not offered for this package now (not sold in the country, or the provider does not list it). */
  methodUnavailable: 'method_unavailable',
  /** 404: repeat-order.php without a paid order before. */
  noPreviousOrder: 'no_previous_order',
  /** 503: the payment provider could not be reached; the order is kept and a retry with the same request_id resumes it. */
  providerUnavailable: 'payment_provider_unavailable',
  /**
   * 409: the discount is held by the member's own checkout that is still open at the provider (it cannot be
   * canceled and expires by itself) for another package or method; `order_id` names that order and `checkout_url`
   * is its checkout (null once the provider has none), to continue it.
   */
  discountReserved: 'discount_reserved',
} as const;

/** Prices of the site in credits (site settings message_credits, gift_credits, photo_credits). */
const creditPricesSchema = z.object({ message: z.number().int(), gift: z.number().int(), photo: z.number().int() });

/** A credit package in the member's payment country. */
const creditPackageSchema = z.object({
  id: z.number().int(),
  credits: z.number().int(),
  /** List price, minor units. */
  price: z.number().int(),
  currency: z.string().length(3),
  /** The cheapest per credit of the list at the price paid (bestValueId), worked out on every answer. */
  best_value: z.boolean(),
  /** The price after the active (or asked-for) discount, minor units; null without a discount that applies. */
  discounted_price: z.number().int().nullable(),
});
export type CreditPackage = z.infer<typeof creditPackageSchema>;

/**
 * The package that is really the cheapest per credit at the price the member pays (the discounted price when there
 * is one): the one `best_value` marks. Compared exactly (price × credits crosswise, no division); of equal ones the
 * package with more credits. Null for no packages.
 */
export function bestValueId(packages: readonly Pick<CreditPackage, 'id' | 'credits' | 'price' | 'discounted_price'>[]): number | null {
  let best: (typeof packages)[number] | null = null;
  for (const pkg of packages) {
    if (pkg.credits <= 0) continue;
    if (!best) {
      best = pkg;
      continue;
    }
    const mine = (pkg.discounted_price ?? pkg.price) * best.credits;
    const theirs = (best.discounted_price ?? best.price) * pkg.credits;
    if (mine < theirs || (mine === theirs && pkg.credits > best.credits)) best = pkg;
  }
  return best?.id ?? null;
}

/** GET /api/packages.php?discountcode=: the code to price the packages with instead of the active discount. */
export const packagesQuerySchema = z.object({ discountcode: discountCodeInputSchema().optional() }).strict();

const lastOrderSchema = z.object({ package_id: z.number().int(), method: paymentMethodSchema });

/** GET /api/packages.php (member). */
export const packagesResponseSchema = z.object({
  /** ISO 3166-1 alpha-2: the country of the member's first purchase, before it the visitor's; the site's default where it does not sell. */
  payment_country: z.string(),
  currency: z.string().length(3),
  /** The member's balance. */
  credits: z.number().int(),
  paid_user: z.boolean(),
  prices: creditPricesSchema,
  minimum_message_costs: minimumMessageCostSchema.nullable(),
  /** The discount the prices were computed with: the code asked for, else the time bonus, else the welcome discount. */
  discount: discountCodeSchema.nullable(),
  /** Why the code asked for does not apply (a DISCOUNT_ERRORS code); null when none was asked for or it applies. */
  discount_error: z.string().nullable(),
  packages: z.array(creditPackageSchema),
  /** The last paid order (what repeat-order.php buys again); null before the first purchase. */
  last_order: lastOrderSchema.nullable(),
});
export type PackagesResponse = z.infer<typeof packagesResponseSchema>;

/** GET /api/paymentmethods.php?package=&discountcode= (member). */
export const paymentMethodsQuerySchema = z
  .object({
    package: z.coerce.number().int().positive().max(2_147_483_647),
    discountcode: discountCodeInputSchema().optional(),
  })
  .strict();

const paymentMethodOptionSchema = z.object({
  name: paymentMethodSchema,
  /** The method's transaction fee, minor units (0: none). */
  fee: z.number().int(),
  /** What the member pays with this method: price − discount + fee, minor units. */
  amount: z.number().int(),
  currency: z.string().length(3),
  /** Direct debit only: true while the member has no valid mandate (the /directdebit form comes first). */
  needs_mandate: z.boolean(),
});
export type PaymentMethodOption = z.infer<typeof paymentMethodOptionSchema>;

export const paymentMethodsResponseSchema = z.object({
  payment_country: z.string(),
  package: creditPackageSchema,
  discount: discountCodeSchema.nullable(),
  discount_error: z.string().nullable(),
  methods: z.array(paymentMethodOptionSchema),
});
export type PaymentMethodsResponse = z.infer<typeof paymentMethodsResponseSchema>;

/** The client's id of one attempt to pay: a retry with the same id answers the same order. */
const requestIdSchema = z.uuid();

/** POST /api/payments.php (member). */
export const startPaymentSchema = z
  .object({
    package: idSchema().max(2_147_483_647),
    method: paymentMethodSchema,
    discountcode: discountCodeInputSchema().optional(),
    request_id: requestIdSchema,
  })
  .strict();
export type StartPaymentInput = z.input<typeof startPaymentSchema>;

/** POST /api/repeat-order.php (member): the last paid order's package with its method. */
export const repeatOrderSchema = z.object({ request_id: requestIdSchema }).strict();

/** A member's order of a credit package. */
const orderSchema = z.object({
  id: z.number().int(),
  status: z.enum(PAYMENT_ORDER_STATUSES),
  package_id: z.number().int(),
  credits: z.number().int(),
  currency: z.string().length(3),
  /** Minor units: list_price − discount + fee = amount. */
  list_price: z.number().int(),
  discount: z.number().int(),
  fee: z.number().int(),
  amount: z.number().int(),
  method: paymentMethodSchema,
  /** Paid with a stored mandate (direct debit, or a card after a first payment): no checkout. */
  recurring: z.boolean(),
  created_at: z.string(),
  paid_at: z.string().nullable(),
  /** The provider's hosted checkout while the order waits for the payer; null otherwise. */
  checkout_url: z.string().nullable(),
});
export type Order = z.infer<typeof orderSchema>;

/** POST /api/payments.php and /api/repeat-order.php: 201 (200 for a retried request_id). */
export const startPaymentResponseSchema = z.object({ order: orderSchema, checkout_url: z.string().nullable() });
export type StartPaymentResponse = z.infer<typeof startPaymentResponseSchema>;

/** Why credits moved, as the ledger says: purchase, chargeback, debt (a chargeback's debt paid off by a purchase), message, gift, photo, refund, signup… */
const movementSchema = z.object({
  id: z.number().int(),
  /** Credits added (> 0) or taken (< 0). */
  delta: z.number().int(),
  balance_after: z.number().int(),
  reason: z.string(),
  created_at: z.string(),
  /** The order a purchase, chargeback or debt movement belongs to. */
  order_id: z.number().int().nullable(),
});
export type Movement = z.infer<typeof movementSchema>;

/** GET /api/transactions.php?id=N. */
export const transactionsQuerySchema = z
  .object({ id: z.coerce.number().int().positive().max(Number.MAX_SAFE_INTEGER).optional() })
  .strict();

/** GET /api/transactions.php: orders and credit movements, newest first (the latest 100 of each). */
export const transactionsResponseSchema = z.object({
  orders: z.array(orderSchema),
  movements: z.array(movementSchema),
  /** Credits a chargeback took back that the balance could not cover; the next purchase pays them first. */
  credit_debt: z.number().int(),
});
export type TransactionsResponse = z.infer<typeof transactionsResponseSchema>;

const RECEIPT_LINE_KINDS = ['package', 'discount', 'fee'] as const;

/** A receipt of a paid order: data only, the web app words it. */
const receiptSchema = z.object({
  /** `<site id>-<year>-<order id, 6 digits>`, e.g. 1-2026-000042. */
  number: z.string(),
  /** When it was paid, ISO 8601. */
  date: z.string(),
  site: z.string(),
  company: z.object({
    id: z.number().int(),
    name: z.string(),
    address: z.string(),
    city: z.string(),
    country: z.string(),
    kvk: z.string(),
    vat_numbers: z.array(z.string()),
  }),
  currency: z.string().length(3),
  /** package (credits, amount > 0), discount (percentage, amount < 0), fee (method, amount ≥ 0); minor units. */
  lines: z.array(
    z.object({
      kind: z.enum(RECEIPT_LINE_KINDS),
      amount: z.number().int(),
      credits: z.number().int().nullable(),
      percentage: z.number().int().nullable(),
      method: paymentMethodSchema.nullable(),
    }),
  ),
  total: z.number().int(),
  method: paymentMethodSchema,
  payment_country: z.string(),
});
export type Receipt = z.infer<typeof receiptSchema>;

/** GET /api/transactions.php?id=N: one order of mine (asking the provider again while it is open), with its receipt once paid. */
export const transactionResponseSchema = z.object({ order: orderSchema, receipt: receiptSchema.nullable() });
export type TransactionResponse = z.infer<typeof transactionResponseSchema>;
/** GET /api/transactions.php: without id my orders and movements, with id that one order. */
export const transactionsAnswerSchema = z.union([transactionResponseSchema, transactionsResponseSchema]);

/** GET /api/pricing.php?country= (public). */
export const pricingQuerySchema = z
  .object({
    country: z
      .string()
      .regex(/^[A-Za-z]{2}$/)
      .optional(),
  })
  .strict();

export const pricingResponseSchema = z.object({
  payment_country: z.string(),
  currency: z.string().length(3),
  /** Every country the site sells in, for a country picker. */
  countries: z.array(z.string()),
  prices: creditPricesSchema,
  minimum_message_costs: minimumMessageCostSchema.nullable(),
  packages: z.array(creditPackageSchema),
  methods: z.array(z.object({ name: paymentMethodSchema, fee: z.number().int() })),
});
export type PricingResponse = z.infer<typeof pricingResponseSchema>;

/** POST /api/payments/webhook: what the provider posts (form encoded): its payment id, nothing else. */
export const paymentWebhookSchema = z.object({
  id: z
    .string()
    .regex(/^tr_[A-Za-z0-9]{1,64}$/)
    .max(67),
});

import {
  type DiscountCodeView,
  discountCodeResponseSchema,
  type Order,
  type PackagesResponse,
  type PaymentMethodsResponse,
  type PricingResponse,
  packagesResponseSchema,
  paymentMethodsResponseSchema,
  pricingResponseSchema,
  type Receipt,
  startPaymentResponseSchema,
  type TransactionsResponse,
  transactionResponseSchema,
  transactionsResponseSchema,
} from '@amora/contracts';
import { type DefaultBodyType, HttpResponse, http, type StrictRequest } from 'msw';
import { i18next } from '@/lib/i18n';
import { contractBody, contractJson } from '@/testing/contract';
import { text } from '@/testing/text';

/** Loads the payments catalogue of the test's language, so `pt` can read it before a page has asked for it. */
export const loadPaymentTexts = () => i18next.loadNamespaces('payments');

/** A text of the payments catalogue (English), as the page shows it. */
export const pt = (key: string, values?: Record<string, unknown>) => text(`payments:${key}`, values);

export function discountFixture(overrides: Partial<DiscountCodeView> = {}): DiscountCodeView {
  return {
    code: 'TIMEBONUS25',
    country: null,
    user_id: 7,
    expires: '2026-01-05T14:00:00.000Z',
    value_percentage: 25,
    currency: null,
    minimum_order_value: 0,
    status: 'active',
    validity: 3600,
    expired: false,
    paymentmethods: [],
    source: 'time_bonus',
    ...overrides,
  };
}

/** packages.php for a member in the Netherlands with 10 credits and four packages, no discount. */
export function packagesFixture(overrides: Partial<PackagesResponse> = {}): PackagesResponse {
  return contractBody(packagesResponseSchema, {
    payment_country: 'NL',
    currency: 'EUR',
    credits: 10,
    paid_user: false,
    prices: { message: 10, gift: 25, photo: 5 },
    minimum_message_costs: { costs: 1, currency: 'EUR' },
    discount: null,
    discount_error: null,
    packages: [
      { id: 1, credits: 50, price: 799, currency: 'EUR', best_value: false, discounted_price: null },
      { id: 2, credits: 120, price: 1699, currency: 'EUR', best_value: false, discounted_price: null },
      { id: 3, credits: 300, price: 3499, currency: 'EUR', best_value: false, discounted_price: null },
      { id: 4, credits: 700, price: 6999, currency: 'EUR', best_value: true, discounted_price: null },
    ],
    last_order: null,
    ...overrides,
  });
}

/** paymentmethods.php for package 2 (€16.99): iDEAL without a fee, PayPal with 35 cents, direct debit. */
export function methodsFixture(overrides: Partial<PaymentMethodsResponse> = {}): PaymentMethodsResponse {
  return contractBody(paymentMethodsResponseSchema, {
    payment_country: 'NL',
    package: { id: 2, credits: 120, price: 1699, currency: 'EUR', best_value: false, discounted_price: null },
    discount: null,
    discount_error: null,
    methods: [
      { name: 'ideal', fee: 0, amount: 1699, currency: 'EUR', needs_mandate: false },
      { name: 'paypal', fee: 35, amount: 1734, currency: 'EUR', needs_mandate: false },
      { name: 'directdebit', fee: 0, amount: 1699, currency: 'EUR', needs_mandate: true },
    ],
    ...overrides,
  });
}

export function orderFixture(overrides: Partial<Order> = {}): Order {
  return {
    id: 42,
    status: 'open',
    package_id: 2,
    credits: 120,
    currency: 'EUR',
    list_price: 1699,
    discount: 0,
    fee: 0,
    amount: 1699,
    method: 'ideal',
    recurring: false,
    created_at: '2026-03-02T09:30:00.000Z',
    paid_at: null,
    checkout_url: 'https://pay.example/checkout/tr_1',
    ...overrides,
  };
}

export function receiptFixture(overrides: Partial<Receipt> = {}): Receipt {
  return {
    number: '1-2026-000042',
    date: '2026-03-02T09:31:00.000Z',
    site: 'Amora',
    company: {
      id: 1,
      name: 'Amora Media B.V.',
      address: 'Herengracht 182',
      city: '1016 BR Amsterdam',
      country: 'NL',
      kvk: '90123456',
      vat_numbers: ['NL865432109B01'],
    },
    currency: 'EUR',
    lines: [
      { kind: 'package', amount: 1699, credits: 120, percentage: null, method: null },
      { kind: 'discount', amount: -425, credits: null, percentage: 25, method: null },
      { kind: 'fee', amount: 35, credits: null, percentage: null, method: 'paypal' },
    ],
    total: 1309,
    method: 'paypal',
    payment_country: 'NL',
    ...overrides,
  };
}

export function transactionsFixture(overrides: Partial<TransactionsResponse> = {}): TransactionsResponse {
  return contractBody(transactionsResponseSchema, { orders: [], movements: [], credit_debt: 0, ...overrides });
}

export function pricingFixture(overrides: Partial<PricingResponse> = {}): PricingResponse {
  const packages = packagesFixture().packages;
  return contractBody(pricingResponseSchema, {
    payment_country: 'NL',
    currency: 'EUR',
    countries: ['NL', 'BE', 'DE'],
    prices: { message: 10, gift: 25, photo: 5 },
    minimum_message_costs: { costs: 1, currency: 'EUR' },
    packages,
    methods: [
      { name: 'ideal', fee: 0 },
      { name: 'paypal', fee: 35 },
    ],
    ...overrides,
  });
}

/** An error answer in the API's shape. */
export const apiError = (status: number, error: string, extra: Record<string, unknown> = {}) =>
  HttpResponse.json({ error, message: error, ...extra }, { status });

/** Handlers of the payment calls, each answering through its contract. */
export const paymentAnswers = {
  packages: (body: PackagesResponse = packagesFixture()) =>
    http.get('*/api/packages.php', () => contractJson(packagesResponseSchema, body)),
  methods: (body: PaymentMethodsResponse = methodsFixture()) =>
    http.get('*/api/paymentmethods.php', () => contractJson(paymentMethodsResponseSchema, body)),
  transactions: (body: TransactionsResponse = transactionsFixture()) =>
    http.get('*/api/transactions.php', ({ request }) =>
      new URL(request.url).searchParams.has('id') ? apiError(404, 'not_found') : contractJson(transactionsResponseSchema, body),
    ),
  pricing: (body: PricingResponse = pricingFixture()) => http.get('*/api/pricing.php', () => contractJson(pricingResponseSchema, body)),
  discount: (discount: DiscountCodeView = discountFixture({ code: 'SPRING10', value_percentage: 10, source: 'code' })) =>
    http.get('*/api/discountcode.php', () => contractJson(discountCodeResponseSchema, { discount })),
};

/** The answer of payments.php / repeat-order.php for an order. */
export const startAnswer = (order: Order, checkoutUrl: string | null = order.checkout_url) =>
  contractJson(startPaymentResponseSchema, { order, checkout_url: checkoutUrl }, { status: 201 });

/** The answer of transactions.php?id= for an order (with its receipt). */
export const transactionAnswer = (order: Order, receipt: Receipt | null = null) =>
  contractJson(transactionResponseSchema, { order, receipt });

/** The JSON body of a request, typed for assertions. */
export async function bodyOf(request: StrictRequest<DefaultBodyType>): Promise<Record<string, unknown>> {
  return (await request.clone().json()) as Record<string, unknown>;
}

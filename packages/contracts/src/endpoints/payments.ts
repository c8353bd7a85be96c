import { okResponseSchema } from '../content';
import { directDebitPostResponseSchema, directDebitRequestSchema, directDebitStatusSchema } from '../directdebit';
import { discountCodeQuerySchema, discountCodeResponseSchema, timeBonusResponseSchema } from '../discounts';
import {
  packagesQuerySchema,
  packagesResponseSchema,
  paymentMethodsQuerySchema,
  paymentMethodsResponseSchema,
  paymentWebhookSchema,
  pricingQuerySchema,
  pricingResponseSchema,
  repeatOrderSchema,
  startPaymentResponseSchema,
  startPaymentSchema,
  transactionsAnswerSchema,
  transactionsQuerySchema,
} from '../payments';
import type { EndpointTable } from './endpoint';

/** Buying credits: packages, methods, orders, transactions, direct debit, discounts. */
export const paymentEndpoints = {
  'GET /api/packages.php': {
    tag: 'payments',
    summary: 'The credit packages of my payment country, priced with the active discount (or the code asked for), and my last order',
    query: packagesQuerySchema,
    response: packagesResponseSchema,
  },
  'GET /api/paymentmethods.php': {
    tag: 'payments',
    summary: 'The payment methods the provider offers now for a package, with their fees and what I would pay',
    query: paymentMethodsQuerySchema,
    response: paymentMethodsResponseSchema,
  },
  'GET /api/pricing.php': {
    tag: 'payments',
    summary: 'Public prices: credits per message, gift and photo, the packages and the fee of each payment method',
    query: pricingQuerySchema,
    response: pricingResponseSchema,
  },
  'POST /api/payments.php': {
    tag: 'payments',
    summary:
      'Buy a package: the order is stored, then the provider gives its checkout (or, for direct debit, collects with the mandate). The same request_id answers the same order.',
    body: startPaymentSchema,
    response: startPaymentResponseSchema,
    created: true,
  },
  'POST /api/repeat-order.php': {
    tag: 'payments',
    summary: 'Buy the last paid package again with the same method (with a mandate, without a checkout)',
    body: repeatOrderSchema,
    response: startPaymentResponseSchema,
    created: true,
  },
  'GET /api/transactions.php': {
    tag: 'payments',
    summary: 'My orders and credit movements; with id, one order of mine (checked with the provider while open) and its receipt',
    query: transactionsQuerySchema,
    response: transactionsAnswerSchema,
  },
  'POST /api/payments/webhook': {
    tag: 'payments',
    summary: 'The payment provider says a payment changed (form body id=tr_…): 200 once handled, 404 for a payment of no order',
    consumes: ['application/x-www-form-urlencoded'],
    body: paymentWebhookSchema,
    response: okResponseSchema,
  },
  'GET /api/directdebit.php': {
    tag: 'payments',
    summary: 'My direct-debit mandate (account shown by its last four characters), whether I am blocked, my open direct debits',
    response: directDebitStatusSchema,
  },
  'POST /api/directdebit.php': {
    tag: 'payments',
    summary:
      'The direct-debit form: step details sends a code by SMS, step otp checks it and makes the mandate, step resend sends a new code',
    body: directDebitRequestSchema,
    response: directDebitPostResponseSchema,
  },
  'GET /api/discountcode.php': {
    tag: 'discounts',
    summary:
      'A discount code checked for me (with package, method or country: against that order), or welcome=true: my welcome discount, null when I have none',
    query: discountCodeQuerySchema,
    response: discountCodeResponseSchema,
  },
  'GET /api/timebonus.php': {
    tag: 'discounts',
    summary: 'My time bonus: visible for 4 hours after signup until I pay or use it, with the seconds left and TIMEBONUS25',
    response: timeBonusResponseSchema,
  },
} satisfies EndpointTable;

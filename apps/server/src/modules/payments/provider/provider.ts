/**
 * The one interface the payments module talks to (issue 17, DESIGN.md Payments). There is one implementation,
 * the Mollie adapter on `@mollie/api-client` (mollie.provider.ts); it talks to Mollie itself when MOLLIE_API_KEY is
 * set and otherwise to the sandbox, which speaks Mollie's API at /sandbox/mollie/v2 (modules/payments/sandbox), so
 * the same adapter code runs offline. Amounts are integers in minor units; the adapter turns them into Mollie's
 * `{ currency, value: '12.34' }` and back.
 */

/** Mollie's payment statuses (docs.mollie.com, payment status changes). */
export type ProviderPaymentStatus = 'open' | 'pending' | 'authorized' | 'paid' | 'failed' | 'canceled' | 'expired';
export type SequenceType = 'oneoff' | 'first' | 'recurring';

interface ProviderAmount {
  /** Minor units (cents). */
  minor: number;
  /** ISO 4217. */
  currency: string;
}

/** A method as the provider lists it: Mollie's id ('creditcard', 'ideal', 'paypal', …). */
export interface ProviderMethod {
  id: string;
  description: string;
  /** Card brands the provider takes through 'creditcard' (visa, mastercard, maestro, …), when it says. */
  issuers?: string[];
}

export interface ListMethodsQuery {
  amount: ProviderAmount;
  /** Mollie locale, e.g. 'nl_NL'. */
  locale?: string;
  billingCountry?: string;
  sequenceType?: SequenceType;
}

export interface CreatePaymentInput {
  amount: ProviderAmount;
  description: string;
  /** Where the payer returns to (our return page for the order). */
  redirectUrl?: string;
  cancelUrl?: string;
  /** Our webhook; it receives `id=<payment id>` only. */
  webhookUrl?: string;
  /** Mollie's method id; absent lets the payer choose on the checkout. */
  method?: string;
  locale?: string;
  billingCountry?: string;
  sequenceType: SequenceType;
  customerId?: string;
  mandateId?: string;
  metadata: { orderId: number; siteId: number; userId: number };
  /** Sent as Mollie's Idempotency-Key header: a retried create answers the first payment. */
  idempotencyKey: string;
}

export interface ProviderPayment {
  id: string;
  status: ProviderPaymentStatus;
  amount: ProviderAmount;
  method: string | null;
  sequenceType: SequenceType;
  /** The hosted checkout; null once the payment is no longer open, and for recurring payments. */
  checkoutUrl: string | null;
  customerId: string | null;
  mandateId: string | null;
  /** Minor units charged back so far (0 when none). */
  chargedBackMinor: number;
  refundedMinor: number;
  metadata: unknown;
  paidAt: string | null;
}

/** A refund of (part of) a paid payment (Mollie's refund object). */
export interface ProviderRefund {
  id: string;
  paymentId: string;
  amount: ProviderAmount;
  /** queued, pending, processing, refunded, failed or canceled. */
  status: string;
}

export interface ProviderMandate {
  id: string;
  method: string;
  status: 'valid' | 'pending' | 'invalid';
}

/**
 * Call it outside any unit of work (withTransaction): Mollie's answers take network time, and the sandbox answers
 * in process from the same database, which on PGlite (one connection) would wait for the open transaction forever.
 * Errors are @mollie/api-client's `MollieApiError` (statusCode, field), from Mollie and the sandbox alike.
 */
export interface PaymentProvider {
  /** 'mollie' (the real Mollie) or 'sandbox' (the built-in sandbox speaking Mollie's API). */
  readonly name: 'mollie' | 'sandbox';
  listMethods(query: ListMethodsQuery): Promise<ProviderMethod[]>;
  createPayment(input: CreatePaymentInput): Promise<ProviderPayment>;
  /** Null when the provider does not know the id (a forged webhook). */
  getPayment(id: string): Promise<ProviderPayment | null>;
  /**
   * Cancels an open payment (Mollie's DELETE /payments/:id), so its checkout can no longer be paid. Throws (a
   * MollieApiError) when the provider will not cancel it: no longer open, or a method it cannot cancel.
   */
  cancelPayment(id: string): Promise<ProviderPayment>;
  /**
   * Gives (part of) a paid payment back (Mollie's POST /payments/:id/refunds). Throws (a MollieApiError) when the
   * provider refuses: not paid, or more than what remains. The payment's `refundedMinor` then counts it.
   */
  createRefund(paymentId: string, input: { amount: ProviderAmount; description: string; idempotencyKey: string }): Promise<ProviderRefund>;
  createCustomer(input: { name?: string; email?: string; metadata?: unknown }): Promise<{ id: string }>;
  /** A SEPA direct-debit mandate for a customer (consumerAccount: the IBAN). */
  createMandate(
    customerId: string,
    input: { method: 'directdebit'; consumerName: string; consumerAccount: string; signatureDate?: string; mandateReference?: string },
  ): Promise<ProviderMandate>;
  listMandates(customerId: string): Promise<ProviderMandate[]>;
}

import type { FastifyInstance } from 'fastify';
import { isValidIBAN } from 'ibantools';
import { dbOf } from '../../../lib/transaction';
import { parseMollieAmount } from '../provider/amounts';
import {
  type AvailabilityQuery,
  availableMethods,
  cancelableStatusOf,
  DISCONTINUED_METHODS,
  findMethod,
  MOLLIE_LOCALES,
  type SandboxMethodId,
  type SandboxSequenceType,
  unavailableReason,
} from './sandbox.catalogue';
import {
  changeStatus,
  findCustomer,
  findMandate,
  findMandates,
  findPayment,
  findPaymentByKey,
  insertCustomer,
  insertMandate,
  insertPayment,
  refund,
  type SandboxCustomer,
  type SandboxMandate,
  type SandboxPayment,
  type SandboxRefund,
} from './sandbox.repository';
import {
  BANK_TRANSFER_MS,
  DIRECT_DEBIT_SETTLE_MS,
  EXPIRE_JOB,
  enqueue,
  isSandboxId,
  OPEN_PAYMENT_MS,
  SandboxError,
  SETTLE_JOB,
  sandboxId,
  WEBHOOK_JOB,
} from './sandbox.shared';

/**
 * Mollie's API v2 as the sandbox answers it (sandbox-api.routes.ts): payments, customers and mandates, their
 * request bodies checked as Mollie checks them.
 */

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function optionalString(body: Record<string, unknown>, field: string, max: number): string | undefined {
  const value = body[field];
  if (value === undefined || value === null) return undefined;
  // PostgreSQL text cannot hold NUL: refused here as Mollie refuses what it cannot store.
  if (typeof value !== 'string' || value.length > max || value.includes('\u0000'))
    throw new SandboxError(422, `The ${field} is invalid`, field);
  return value;
}

/** Metadata as Mollie takes it: any JSON up to 1024 bytes (and, for jsonb, no NUL character). */
function metadataOf(value: unknown): unknown {
  const json = JSON.stringify(value ?? null);
  if (json.length > 1024) throw new SandboxError(422, 'The metadata is too large (at most 1024 bytes)', 'metadata');
  if (json.includes('\\u0000')) throw new SandboxError(422, 'The metadata is invalid', 'metadata');
  return value ?? null;
}

function optionalUrl(body: Record<string, unknown>, field: string, label: string): string | undefined {
  const value = optionalString(body, field, 2048);
  if (value === undefined || value === '') return undefined;
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    throw new SandboxError(422, `The ${label} is invalid`, field);
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') throw new SandboxError(422, `The ${label} is invalid`, field);
  return value;
}

function countryOf(value: string | undefined, field: string): string | null {
  if (value === undefined) return null;
  if (!/^[A-Z]{2}$/.test(value)) throw new SandboxError(422, 'The country code is invalid', field);
  return value;
}

function localeOf(value: string | undefined): string | null {
  if (value === undefined) return null;
  if (!MOLLIE_LOCALES.has(value)) throw new SandboxError(422, 'The locale is invalid', 'locale');
  return value;
}

function sequenceTypeOf(value: unknown): SandboxSequenceType {
  if (value === undefined || value === null) return 'oneoff';
  if (value === 'oneoff' || value === 'first' || value === 'recurring') return value;
  throw new SandboxError(422, 'The sequence type is invalid', 'sequenceType');
}

/** The methods a create asks for: one id or a list; giropay and SOFORT are refused as Mollie refuses them now. */
function methodsOf(value: unknown): SandboxMethodId[] | null {
  if (value === undefined || value === null) return null;
  const ids = Array.isArray(value) ? value : [value];
  if (ids.length === 0) throw new SandboxError(422, 'The payment method is invalid', 'method');
  return ids.map((id) => {
    if (typeof id !== 'string') throw new SandboxError(422, 'The payment method is invalid', 'method');
    if ((DISCONTINUED_METHODS as readonly string[]).includes(id)) {
      throw new SandboxError(422, `The payment method ${id} is no longer available`, 'method');
    }
    const method = findMethod(id);
    if (!method) throw new SandboxError(422, 'The payment method is invalid', 'method');
    return method.id;
  });
}

export interface MethodsListQuery extends AvailabilityQuery {
  locale: string | null;
}

/** GET /methods: its query string (amount[value], amount[currency], locale, billingCountry, sequenceType, includeWallets). */
export function methodsQueryOf(query: Record<string, unknown>): MethodsListQuery {
  const text = (key: string) => (typeof query[key] === 'string' ? (query[key] as string) : undefined);
  const value = text('amount[value]');
  const currency = text('amount[currency]');
  let amount: { minor: number; currency: string } | undefined;
  if (value !== undefined || currency !== undefined) {
    const parsed = parseMollieAmount({ value, currency });
    if (!parsed) throw new SandboxError(400, 'The amount contains an invalid value', 'amount');
    amount = parsed;
  }
  const wallets = text('includeWallets');
  return {
    ...(amount ? { amount } : {}),
    billingCountry: countryOf(text('billingCountry'), 'billingCountry'),
    sequenceType: sequenceTypeOf(text('sequenceType')),
    includeWallets: wallets?.split(',').includes('applepay') ?? false,
    locale: localeOf(text('locale')),
  };
}

async function validMandate(app: FastifyInstance, customerId: string, mandateId: string | undefined): Promise<SandboxMandate> {
  if (mandateId !== undefined) {
    const mandate = isSandboxId('mdt', mandateId) ? await findMandate(dbOf(app.ctx), customerId, mandateId) : undefined;
    if (!mandate) throw new SandboxError(404, `No mandate exists with token ${mandateId}.`, 'mandateId');
    if (mandate.status !== 'valid') throw new SandboxError(422, 'The mandate is not valid', 'mandateId');
    return mandate;
  }
  const mandate = (await findMandates(dbOf(app.ctx), customerId)).find((m) => m.status === 'valid');
  if (!mandate) throw new SandboxError(422, 'No suitable mandates found for customer', 'customerId');
  return mandate;
}

/**
 * POST /payments and POST /customers/:id/payments. With an idempotency key, a second create with the same key
 * (also twenty at once) answers the payment the first one made.
 */
export async function createPayment(
  app: FastifyInstance,
  body: unknown,
  options: { customerId?: string; idempotencyKey?: string },
): Promise<{ payment: SandboxPayment; created: boolean }> {
  const { db } = app.ctx;
  if (options.idempotencyKey !== undefined && !/^[\x21-\x7e]{1,255}$/.test(options.idempotencyKey)) {
    throw new SandboxError(400, 'The idempotency key is invalid');
  }
  if (options.idempotencyKey) {
    // Answered before the body is checked again: the retry of a request gets the first request's answer.
    const existing = await findPaymentByKey(db, options.idempotencyKey);
    if (existing) return { payment: existing, created: false };
  }
  if (!isRecord(body)) throw new SandboxError(400, 'The request body is not a JSON object');
  const amount = isRecord(body.amount) ? parseMollieAmount(body.amount) : null;
  if (!amount) throw new SandboxError(422, 'The amount contains an invalid value', 'amount');
  if (amount.minor < 1) throw new SandboxError(422, 'The amount is lower than the minimum', 'amount');
  const description = optionalString(body, 'description', 255)?.trim();
  if (!description) throw new SandboxError(422, 'The description is invalid', 'description');
  const sequenceType = sequenceTypeOf(body.sequenceType);
  const redirectUrl = optionalUrl(body, 'redirectUrl', 'redirect URL');
  if (!redirectUrl && sequenceType !== 'recurring') throw new SandboxError(422, 'The redirect URL is required', 'redirectUrl');
  const cancelUrl = optionalUrl(body, 'cancelUrl', 'cancel URL');
  const webhookUrl = optionalUrl(body, 'webhookUrl', 'webhook URL');
  const locale = localeOf(optionalString(body, 'locale', 10));
  const billingCountry = countryOf(optionalString(body, 'restrictPaymentMethodsToCountry', 2), 'restrictPaymentMethodsToCountry');
  const metadata = metadataOf(body.metadata);
  const requested = methodsOf(body.method);
  const customerId = options.customerId ?? optionalString(body, 'customerId', 64);
  const mandateIdAsked = optionalString(body, 'mandateId', 64);

  let customer: SandboxCustomer | undefined;
  if (customerId !== undefined) {
    customer = isSandboxId('cst', customerId) ? await findCustomer(db, customerId) : undefined;
    if (!customer) throw new SandboxError(404, `No customer exists with token ${customerId}.`, 'customerId');
  }
  if (sequenceType !== 'oneoff' && !customer)
    throw new SandboxError(422, `A customer is required for a ${sequenceType} payment`, 'customerId');

  const query: AvailabilityQuery = { amount, billingCountry, sequenceType, includeWallets: true };
  let method: SandboxMethodId | null = null;
  let mandate: SandboxMandate | null = null;
  if (sequenceType === 'recurring' && customer) {
    mandate = await validMandate(app, customer.id, mandateIdAsked);
    method = mandate.method as SandboxMethodId;
    if (requested && !requested.includes(method)) throw new SandboxError(422, 'The payment method does not match the mandate', 'method');
  }
  const candidates = requested ?? (method ? [method] : null);
  if (candidates) {
    const reasons = candidates.map((id) => {
      const found = findMethod(id);
      return found ? unavailableReason(found, query) : { field: 'method', detail: 'The payment method is invalid' };
    });
    const usable = candidates.filter((_, i) => reasons[i] === null);
    if (usable.length === 0) {
      const reason = reasons[0] ?? { field: 'method', detail: 'The payment method is invalid' };
      throw new SandboxError(422, reason.detail, reason.field);
    }
    if (usable.length === 1) method = usable[0] ?? null;
  } else if (availableMethods(query).length === 0) {
    throw new SandboxError(422, 'No suitable payment methods found', 'amount');
  }

  const now = app.ctx.now();
  const recurring = sequenceType === 'recurring';
  const status = !recurring ? 'open' : method === 'directdebit' ? 'pending' : 'paid';
  const { payment, created } = await insertPayment(db, {
    id: sandboxId('tr'),
    amountMinor: amount.minor,
    currency: amount.currency,
    description,
    method,
    status,
    sequenceType,
    redirectUrl: redirectUrl ?? null,
    cancelUrl: cancelUrl ?? null,
    webhookUrl: webhookUrl ?? null,
    locale,
    billingCountry,
    customerId: customer?.id ?? null,
    mandateId: mandate?.id ?? null,
    metadata,
    idempotencyKey: options.idempotencyKey ?? null,
    createdAt: now,
    paidAt: status === 'paid' ? now : null,
    expiresAt: recurring ? null : new Date(now.getTime() + (method === 'banktransfer' ? BANK_TRANSFER_MS : OPEN_PAYMENT_MS)),
  });
  if (created) {
    if (payment.status === 'open' && payment.expiresAt) {
      await enqueue(app, EXPIRE_JOB, { paymentId: payment.id }, payment.expiresAt.getTime() - now.getTime());
    } else if (payment.status === 'pending') {
      await enqueue(app, SETTLE_JOB, { paymentId: payment.id, status: 'paid' }, DIRECT_DEBIT_SETTLE_MS);
    } else if (payment.status === 'paid') {
      await enqueue(app, WEBHOOK_JOB, { paymentId: payment.id });
    }
  }
  return { payment, created };
}

/** A payment by id; an open one past its time is expired first (its webhook follows), as Mollie would have. */
export async function getPayment(app: FastifyInstance, id: string): Promise<SandboxPayment> {
  const payment = isSandboxId('tr', id) ? await findPayment(dbOf(app.ctx), id) : undefined;
  if (!payment) throw new SandboxError(404, `No payment exists with token ${id}.`);
  if (payment.status === 'open' && payment.expiresAt && payment.expiresAt.getTime() <= app.ctx.now().getTime()) {
    const expired = await changeStatus(dbOf(app.ctx), id, ['open'], { status: 'expired' });
    if (expired) {
      await enqueue(app, WEBHOOK_JOB, { paymentId: id });
      return expired;
    }
    return (await findPayment(dbOf(app.ctx), id)) ?? payment;
  }
  return payment;
}

/**
 * The merchant cancels a payment (Mollie's DELETE /payments/:id) that is cancelable (isCancelable): it can no
 * longer be paid. Any other answers 422, as Mollie does for a payment that is not cancelable.
 */
export async function cancelPayment(app: FastifyInstance, id: string): Promise<SandboxPayment> {
  const payment = await getPayment(app, id);
  const from = cancelableStatusOf(payment.method);
  const canceled =
    from !== null && payment.status === from ? await changeStatus(dbOf(app.ctx), id, [from], { status: 'canceled' }) : undefined;
  if (!canceled) throw new SandboxError(422, 'The payment cannot be canceled', 'id');
  return canceled;
}

/**
 * POST /payments/:id/refunds: gives back part or all of a paid payment at once (status 'refunded'), and calls
 * the payment's webhook as Mollie does. 422 when the payment is not paid or the amount is more than remains.
 */
export async function createRefund(app: FastifyInstance, paymentId: string, body: unknown): Promise<SandboxRefund> {
  const payment = await getPayment(app, paymentId);
  if (!isRecord(body)) throw new SandboxError(400, 'The request body is not a JSON object');
  const amount = isRecord(body.amount) ? parseMollieAmount(body.amount) : null;
  if (!amount || amount.minor < 1) throw new SandboxError(422, 'The amount contains an invalid value', 'amount');
  if (amount.currency !== payment.currency) throw new SandboxError(422, 'The currency does not match the payment', 'amount.currency');
  if (payment.status !== 'paid') throw new SandboxError(422, 'The payment cannot be refunded: it is not paid', 'id');
  const refunded = await refund(dbOf(app.ctx), payment.id, amount.minor);
  if (!refunded) throw new SandboxError(422, 'The amount is higher than the amount that remains to be refunded', 'amount');
  if (refunded.webhookUrl) await enqueue(app, WEBHOOK_JOB, { paymentId: payment.id });
  const description = optionalString(body, 'description', 255)?.trim() || payment.description;
  return { id: sandboxId('re'), payment: refunded, amountMinor: amount.minor, description, createdAt: app.ctx.now() };
}

export async function createCustomer(app: FastifyInstance, body: unknown): Promise<SandboxCustomer> {
  const input = isRecord(body) ? body : {};
  const name = optionalString(input, 'name', 255) ?? null;
  const email = optionalString(input, 'email', 320) ?? null;
  if (email !== null && !/^[^\s@]+@[^\s@]+$/.test(email)) throw new SandboxError(422, 'The email address is invalid', 'email');
  const metadata = metadataOf(input.metadata);
  return insertCustomer(dbOf(app.ctx), { id: sandboxId('cst'), name, email, metadata, createdAt: app.ctx.now() });
}

export async function getCustomer(app: FastifyInstance, id: string): Promise<SandboxCustomer> {
  const customer = isSandboxId('cst', id) ? await findCustomer(dbOf(app.ctx), id) : undefined;
  if (!customer) throw new SandboxError(404, `No customer exists with token ${id}.`);
  return customer;
}

/** POST /customers/:id/mandates: a SEPA direct-debit mandate from an IBAN, valid at once, as Mollie makes it. */
export async function createMandate(app: FastifyInstance, customerId: string, body: unknown): Promise<SandboxMandate> {
  const customer = await getCustomer(app, customerId);
  const input = isRecord(body) ? body : {};
  if (input.method !== 'directdebit')
    throw new SandboxError(422, 'The mandate method is invalid (only directdebit can be created)', 'method');
  const consumerName = optionalString(input, 'consumerName', 255)?.trim();
  if (!consumerName) throw new SandboxError(422, 'The consumer name is required', 'consumerName');
  const account = optionalString(input, 'consumerAccount', 64)?.replace(/\s+/g, '').toUpperCase();
  if (!account || !isValidIBAN(account)) throw new SandboxError(422, 'The bank account is invalid', 'consumerAccount');
  const signatureDate = optionalString(input, 'signatureDate', 10);
  if (signatureDate !== undefined && !/^\d{4}-\d{2}-\d{2}$/.test(signatureDate)) {
    throw new SandboxError(422, 'The signature date is invalid', 'signatureDate');
  }
  optionalString(input, 'mandateReference', 35);
  return insertMandate(dbOf(app.ctx), {
    id: sandboxId('mdt'),
    customerId: customer.id,
    method: 'directdebit',
    status: 'valid',
    consumerName,
    consumerAccount: account,
    createdAt: app.ctx.now(),
  });
}

export async function listMandates(app: FastifyInstance, customerId: string): Promise<SandboxMandate[]> {
  await getCustomer(app, customerId);
  return findMandates(dbOf(app.ctx), customerId);
}

export async function getMandate(app: FastifyInstance, customerId: string, mandateId: string): Promise<SandboxMandate> {
  await getCustomer(app, customerId);
  const mandate = isSandboxId('mdt', mandateId) ? await findMandate(dbOf(app.ctx), customerId, mandateId) : undefined;
  if (!mandate) throw new SandboxError(404, `No mandate exists with token ${mandateId}.`);
  return mandate;
}

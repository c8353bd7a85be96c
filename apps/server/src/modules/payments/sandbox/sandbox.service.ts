import type { FastifyInstance } from 'fastify';
import { dbOf } from '../../../lib/transaction';
import {
  type AvailabilityQuery,
  availableMethods,
  findMethod,
  type SandboxMethodId,
  type SandboxSequenceType,
  TEST_CARDS,
  TEST_ISSUERS,
  unavailableReason,
} from './sandbox.catalogue';
import { changeStatus, chargeBack, findPayment, insertMandate, type PaymentDetails, type SandboxPayment } from './sandbox.repository';
import { type CheckoutChoice, notifyLater, sandboxId } from './sandbox.shared';
import { deliverWebhook } from './sandbox.webhooks';
import { getPayment } from './sandbox-api.service';

/** What the payer chose on the test checkout. */
export interface CheckoutInput {
  status: CheckoutChoice;
  /** The method picked when the payment left the choice to the payer. */
  method?: string;
  /** A TEST_CARDS name for 'creditcard', a TEST_ISSUERS bank for the bank methods. */
  card?: string;
  issuer?: string;
}

/** A paid first payment leaves a mandate for later recurring payments: the card, PayPal, or SEPA for a bank method. */
async function mandateAfterFirst(
  app: FastifyInstance,
  payment: SandboxPayment,
  method: string,
  details: PaymentDetails,
): Promise<string | null> {
  if (payment.sequenceType !== 'first' || !payment.customerId) return null;
  const mandateMethod = method === 'creditcard' || method === 'applepay' ? 'creditcard' : method === 'paypal' ? 'paypal' : 'directdebit';
  const mandate = await insertMandate(dbOf(app.ctx), {
    id: sandboxId('mdt'),
    customerId: payment.customerId,
    method: mandateMethod,
    status: 'valid',
    consumerName: details.cardHolder ?? details.consumerName ?? 'T. Test',
    consumerAccount: mandateMethod === 'creditcard' ? (details.cardNumber ?? '4242') : (details.consumerAccount ?? 'NL55INGB0000000000'),
    createdAt: app.ctx.now(),
  });
  return mandate.id;
}

/**
 * The payer's choice on the test checkout, once: the payment moves from open to the chosen status (pending
 * stays for the dashboard to settle). Undefined when it was no longer open (a second click, a second tab).
 */
export async function completeCheckout(app: FastifyInstance, id: string, input: CheckoutInput): Promise<SandboxPayment | undefined> {
  const payment = await getPayment(app, id);
  if (payment.status !== 'open') return undefined;
  let method = payment.method;
  if (!method) {
    const query: AvailabilityQuery = {
      amount: { minor: payment.amountMinor, currency: payment.currency },
      billingCountry: payment.billingCountry,
      sequenceType: payment.sequenceType as SandboxSequenceType,
      includeWallets: true,
    };
    const picked = input.method ? findMethod(input.method) : undefined;
    method = picked && unavailableReason(picked, query) === null ? picked.id : (availableMethods(query)[0]?.id ?? 'creditcard');
  }
  const details: PaymentDetails = {};
  if (method === 'creditcard' || method === 'applepay') {
    const card = TEST_CARDS.find((c) => c.name === input.card) ?? TEST_CARDS[0];
    details.cardLabel = card.cardLabel;
    details.cardNumber = card.number;
    details.cardHolder = 'T. Test';
  } else if (TEST_ISSUERS[method as SandboxMethodId]) {
    const issuers = TEST_ISSUERS[method as SandboxMethodId] ?? [];
    details.issuer = issuers.find((name) => name === input.issuer) ?? issuers[0];
    details.consumerName = 'T. Test';
    details.consumerAccount = 'NL55INGB0000000000';
  }
  const paid = input.status === 'paid';
  const changed = await changeStatus(dbOf(app.ctx), id, ['open'], {
    status: input.status,
    method,
    details,
    ...(paid ? { paidAt: app.ctx.now() } : {}),
  });
  // Only the click that moved the payment makes its mandate (a second click at once makes none).
  const mandateId = changed && paid ? await mandateAfterFirst(app, changed, method, details) : null;
  return mandateId ? ((await changeStatus(dbOf(app.ctx), id, ['paid'], { status: 'paid', mandateId })) ?? changed) : changed;
}

/** Settles a pending (or still open) payment as paid or failed: the dashboard's action and the SEPA settle job. */
export async function settlePayment(app: FastifyInstance, id: string, status: 'paid' | 'failed'): Promise<SandboxPayment | undefined> {
  await getPayment(app, id);
  return changeStatus(dbOf(app.ctx), id, ['pending', 'open'], { status, ...(status === 'paid' ? { paidAt: app.ctx.now() } : {}) });
}

/** Charges back a paid payment in full, once (amountChargedBack); undefined when it was not paid or already charged back. */
export async function chargeBackPayment(app: FastifyInstance, id: string): Promise<SandboxPayment | undefined> {
  await getPayment(app, id);
  return chargeBack(dbOf(app.ctx), id);
}

/** The handlers of the sandbox's jobs, as app.ts hands them to jobs.ts. */
export type SandboxJobs = ReturnType<typeof sandboxJobs>;

/**
 * The sandbox's durable jobs (registered in jobs.ts where the sandbox is mounted), each given its checked payload:
 * the webhook call (retried, 10 attempts), and the provider's own later moves: settling a direct debit, a
 * chargeback, a checkout nobody finished expiring.
 */
export function sandboxJobs(app: FastifyInstance) {
  const { db } = app.ctx;
  return {
    async webhook({ paymentId }: { paymentId: string }): Promise<void> {
      const payment = await findPayment(db, paymentId);
      if (!payment?.webhookUrl) return;
      const result = await deliverWebhook(app, payment.webhookUrl, payment.id);
      if (!result.ok) throw new Error(`webhook ${payment.webhookUrl} answered ${result.status ?? result.error}`);
    },
    async settle({ paymentId, status = 'paid' }: { paymentId: string; status?: 'paid' | 'failed' }): Promise<void> {
      const settled = await changeStatus(db, paymentId, ['pending'], { status, ...(status === 'paid' ? { paidAt: app.ctx.now() } : {}) });
      if (settled) await notifyLater(app, paymentId, 0);
    },
    async chargeback({ paymentId }: { paymentId: string }): Promise<void> {
      const charged = await chargeBack(db, paymentId);
      if (charged) await notifyLater(app, paymentId, 0);
    },
    async expire({ paymentId }: { paymentId: string }): Promise<void> {
      const payment = await findPayment(db, paymentId);
      if (payment?.status !== 'open' || !payment.expiresAt) return;
      if (payment.expiresAt.getTime() > app.ctx.now().getTime()) return;
      const expired = await changeStatus(db, payment.id, ['open'], { status: 'expired' });
      if (expired) await notifyLater(app, payment.id, 0);
    },
  };
}

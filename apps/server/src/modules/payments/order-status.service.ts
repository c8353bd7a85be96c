import type { Executor } from '@amora/db';
import type { AppContext } from '../../context';
import { dbOf, withTransaction } from '../../lib/transaction';
import { addDebtAndBlock, setCreditDebt, setPaidUser } from '../accounts/accounts.service';
import { credit, spend } from '../credits/credits.service';
import { markDiscountUsed, releaseDiscount } from '../discounts/discounts.service';
import {
  findOrder,
  findOrderByPayment,
  hasOrdersWithoutPayment,
  lockBuyer,
  lockOrder,
  type OrderRow,
  recordEvent,
  refundedCreditsOf,
  updateOrder,
} from './payments.repository';
import type { ProviderPayment, ProviderPaymentStatus } from './provider/provider';

/**
 * An order's status, from what the provider says of its payment (the webhook, the check job, the return page's
 * polling): applied once per (order, status) under the order's row lock, never backwards; paid credits the package,
 * a refund or chargeback takes credits back (docs/ARCHITECTURE.md, "A payment's path", step 3).
 */

export const WAITING = new Set(['created', 'open', 'pending', 'authorized']);

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
  try {
    const outcome = await webhookOutcome(ctx, paymentId);
    ctx.metrics.paymentWebhook(outcome);
    return outcome;
  } catch (error) {
    ctx.metrics.paymentWebhook('error');
    throw error;
  }
}

async function webhookOutcome(ctx: AppContext, paymentId: string): Promise<WebhookOutcome> {
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

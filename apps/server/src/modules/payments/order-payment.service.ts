import { isLocale, localizePath, type StartPaymentResponse } from '@amora/contracts';
import type { AppContext } from '../../context';
import { dbOf } from '../../lib/transaction';
import type { Site } from '../sites/sites.service';
import { siteUrl } from '../sites/sites.service';
import { mollieLocale, providerUnavailable } from './catalogue';
import { applyPayment, WAITING } from './order-status.service';
import { presentOrder } from './payments.presenter';
import {
  attachPayment,
  type Buyer,
  findBuyer,
  findCustomer as findCustomerOf,
  findOrder,
  type OrderRow,
  saveCustomer as saveCustomerOf,
  touchOrder,
} from './payments.repository';
import { mollieMethodFor } from './provider/methods';
import type { ProviderPayment } from './provider/provider';

/**
 * The provider's payment of a stored order: made once (Idempotency-Key order:{id}) with its return and webhook
 * addresses, or waited for while another request of the same start is making it.
 */

/** How long a start that found another request's order waits for that request to reach the provider. */
const JOIN_WAIT_MS = 15_000;
export async function ensureCustomer(ctx: AppContext, buyer: Buyer, site: Site): Promise<string | null> {
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
export async function resume(
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

const WEBHOOK_PATH = '/api/payments/webhook';

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

import { randomUUID } from 'node:crypto';
import { packagesResponseSchema, startPaymentResponseSchema } from '@amora/contracts';
import { creditLedger, discountRedemptions, paymentOrders, users } from '@amora/db';
import { eq, like } from 'drizzle-orm';
import type { LightMyRequestResponse } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type CallArgs, callAs, createMember, type Member } from '../../test/factories';
import { createTestApp, type TestApp } from '../../test/harness';
import { applyPayment } from './order-status.service';
import { chargeBackPayment, completeCheckout } from './sandbox/sandbox.service';
import { notifyNow } from './sandbox/sandbox.shared';

/**
 * Money abuse cases of the orders (ASVS 5.0 V2 business logic): a once-per-member discount must not be had twice
 * by opening several checkouts before paying the first; money refunded does not leave its credits behind.
 */

const PACKAGES = '/api/packages.php';
const PAY = '/api/payments.php';

let t: TestApp;

beforeAll(async () => {
  t = await createTestApp();
});
afterAll(async () => {
  await t?.close();
});

const as = (...args: CallArgs) => callAs(t, ...args);

async function packagesOf(who: Member) {
  const res = await as(who, 'GET', PACKAGES);
  expect(res.statusCode, res.body).toBe(200);
  return packagesResponseSchema.parse(res.json());
}

function start(who: Member, body: Record<string, unknown>): Promise<LightMyRequestResponse> {
  return as(who, 'POST', PAY, { request_id: randomUUID(), ...body });
}

async function orderRow(id: number) {
  const [row] = await t.ctx.db.select().from(paymentOrders).where(eq(paymentOrders.id, id));
  return row;
}

/** The payer pays on the sandbox checkout and the webhook is delivered. */
async function pay(orderId: number, status: 'paid' | 'canceled' = 'paid') {
  const order = await orderRow(orderId);
  if (!order.providerPaymentId) throw new Error('order without payment');
  const payment = await completeCheckout(t.app, order.providerPaymentId, { status });
  if (!payment) throw new Error('payment was not open');
  await notifyNow(t.app, payment);
}

async function paidWithDiscount(who: Member) {
  const rows = await t.ctx.db.select().from(paymentOrders).where(eq(paymentOrders.userId, who.userId));
  return rows.filter((o) => o.status === 'paid' && o.discountMinor > 0);
}

describe('a once-per-member discount and orders opened side by side', () => {
  it('is not had twice by opening a second checkout with the code before paying the first', async () => {
    const sam = await createMember(t);
    const { packages } = await packagesOf(sam);
    const first = await start(sam, { package: packages[3].id, method: 'ideal', discountcode: 'TIMEBONUS25' });
    expect(first.statusCode, first.body).toBe(201);
    // The first checkout is still open at the provider, which does not cancel an open iDEAL payment: the same
    // choice again continues that checkout (no second one), another is refused naming it.
    const firstId = startPaymentResponseSchema.parse(first.json()).order.id;
    const second = await start(sam, { package: packages[3].id, method: 'ideal', discountcode: 'TIMEBONUS25' });
    expect([second.statusCode, startPaymentResponseSchema.parse(second.json()).order.id]).toEqual([200, firstId]);
    const other = await start(sam, { package: packages[2].id, method: 'ideal', discountcode: 'TIMEBONUS25' });
    expect([other.statusCode, other.json().error, other.json().order_id]).toEqual([409, 'discount_reserved', firstId]);
    expect((await orderRow(firstId)).status).toBe('open');
    // Without a typed code the active discount is refused the same way (never silently the full price).
    const auto = await start(sam, { package: packages[2].id, method: 'ideal' });
    expect([auto.statusCode, auto.json().error]).toEqual([409, 'discount_reserved']);
    await pay(firstId);
    expect(await paidWithDiscount(sam)).toHaveLength(1);
    // Paid once: a later checkout pays the full price.
    const later = await start(sam, { package: packages[3].id, method: 'ideal' });
    expect(startPaymentResponseSchema.parse(later.json()).order.discount).toBe(0);
  });

  it('holds under parallel starts: of 20 checkouts opened at once one at most can be paid with the code', async () => {
    const sam = await createMember(t);
    const { packages } = await packagesOf(sam);
    const answers = await Promise.all(
      Array.from({ length: 20 }, () => start(sam, { package: packages[1].id, method: 'ideal', discountcode: 'TIMEBONUS25' })),
    );
    const opened = answers.filter((r) => r.statusCode === 201);
    expect(opened).toHaveLength(1);
    // The others answer that same order: one checkout, one reservation.
    for (const r of answers.filter((a) => a.statusCode !== 201)) expect(r.statusCode, r.body).toBe(200);
    expect(new Set(answers.map((r) => startPaymentResponseSchema.parse(r.json()).order.id)).size).toBe(1);
    const holders = await t.ctx.db.select().from(discountRedemptions).where(eq(discountRedemptions.userId, sam.userId));
    expect(holders).toHaveLength(1);
    for (const r of opened) await pay(startPaymentResponseSchema.parse(r.json()).order.id).catch(() => undefined);
    expect(await paidWithDiscount(sam)).toHaveLength(1);
  });

  it('frees the code when the first checkout is canceled, also when its webhook never came', async () => {
    const sam = await createMember(t);
    const { packages } = await packagesOf(sam);
    const first = startPaymentResponseSchema.parse((await start(sam, { package: packages[0].id, method: 'ideal' })).json());
    expect(first.order.discount).toBeGreaterThan(0);
    const order = await orderRow(first.order.id);
    // The payer left the checkout with Cancel; the provider knows, no webhook reached us.
    await completeCheckout(t.app, order.providerPaymentId as string, { status: 'canceled' });
    t.clock.advance(11_000);
    const again = await start(sam, { package: packages[0].id, method: 'ideal', discountcode: 'TIMEBONUS25' });
    expect(again.statusCode, again.body).toBe(201);
    expect(startPaymentResponseSchema.parse(again.json()).order.discount).toBeGreaterThan(0);
    expect((await orderRow(first.order.id)).status).toBe('canceled');
  });
});

describe('a refunded payment', () => {
  async function userRow(who: Member) {
    const [row] = await t.ctx.db.select().from(users).where(eq(users.id, who.userId));
    return row;
  }

  it('takes its credits back in proportion, once per refunded amount, never below zero', async () => {
    const sam = await createMember(t);
    const { packages } = await packagesOf(sam);
    const before = (await userRow(sam)).credits;
    const started = startPaymentResponseSchema.parse((await start(sam, { package: packages[0].id, method: 'ideal' })).json());
    await pay(started.order.id);
    const order = await orderRow(started.order.id);
    expect(order.status).toBe('paid');
    expect((await userRow(sam)).credits).toBe(before + order.credits);
    const paid = await t.ctx.payments.getPayment(order.providerPaymentId as string);
    if (!paid) throw new Error('payment unknown');

    // The operator refunds half in the provider's dashboard; the provider calls the webhook (twice).
    const half = Math.floor(order.amountMinor / 2);
    for (let k = 0; k < 2; k++) await applyPayment(t.ctx, order.id, { ...paid, refundedMinor: half });
    const halfCredits = Math.ceil((order.credits * half) / order.amountMinor);
    expect((await userRow(sam)).credits).toBe(before + order.credits - halfCredits);

    // The member spends everything; then the rest is refunded: what the balance cannot give back is debt.
    await t.ctx.db.update(users).set({ credits: 0 }).where(eq(users.id, sam.userId));
    for (let k = 0; k < 3; k++) await applyPayment(t.ctx, order.id, { ...paid, refundedMinor: order.amountMinor });
    const after = await userRow(sam);
    expect(after.credits).toBe(0);
    expect(after.creditDebt).toBe(order.credits - halfCredits);
    const rows = await t.ctx.db
      .select()
      .from(creditLedger)
      .where(like(creditLedger.idempotencyKey, `refund:${order.id}:%`));
    expect(rows.map((r) => r.delta)).toEqual([-halfCredits]);
  });
});

describe('a member whose payment was charged back', () => {
  it('is not charged again on a saved card without a checkout', async () => {
    const sam = await createMember(t);
    const { packages } = await packagesOf(sam);
    // A card order (a first payment: the card is saved), then a repeat charged on the saved card.
    const first = startPaymentResponseSchema.parse((await start(sam, { package: packages[0].id, method: 'visa' })).json());
    await pay(first.order.id);
    const repeat = await as(sam, 'POST', '/api/repeat-order.php', { request_id: randomUUID() });
    const repeated = startPaymentResponseSchema.parse(repeat.json());
    expect(repeated.order).toMatchObject({ recurring: true, status: 'paid' });
    // The cardholder's bank takes the repeated payment back.
    const charged = await orderRow(repeated.order.id);
    await chargeBackPayment(t.app, charged.providerPaymentId as string);
    await t.app.inject({
      method: 'POST',
      url: '/api/payments/webhook',
      headers: { host: 'amora.localhost:3000', 'content-type': 'application/x-www-form-urlencoded' },
      payload: `id=${charged.providerPaymentId}`,
    });
    expect((await orderRow(repeated.order.id)).status).toBe('charged_back');
    // The next repeat goes through a checkout, where the payer confirms with the card again.
    const again = await as(sam, 'POST', '/api/repeat-order.php', { request_id: randomUUID() });
    expect(again.statusCode, again.body).toBe(201);
    const body = startPaymentResponseSchema.parse(again.json());
    expect(body.order.recurring).toBe(false);
    expect(body.checkout_url).not.toBeNull();
  });
});

import { randomUUID } from 'node:crypto';
import {
  discountCodeResponseSchema,
  type PackagesResponse,
  packagesResponseSchema,
  startPaymentResponseSchema,
  TIME_BONUS,
  timeBonusResponseSchema,
} from '@amora/contracts';
import { discountCodes, discountRedemptions, paymentOrders, users } from '@amora/db';
import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { siteByDomain } from '../../test/accounts';
import { type CallArgs, callAs, createMember, type Member } from '../../test/factories';
import { createTestApp, type TestApp } from '../../test/harness';
import { applyPayment } from './order-status.service';
import { completeCheckout } from './sandbox/sandbox.service';
import { notifyNow, OPEN_PAYMENT_MS } from './sandbox/sandbox.shared';

/**
 * A discount is used only by a paid payment: a checkout that is canceled, expires or fails gives it back at once,
 * and one the member left with the back button (still open at the provider) does not make it look used; the next
 * checkout takes it over and the one left behind can no longer be paid. For every kind of discount.
 */

const PACKAGES = '/api/packages.php';
const PAY = '/api/payments.php';
const HOUR = 3_600_000;

let t: TestApp;
let amoraId: number;

beforeAll(async () => {
  t = await createTestApp();
  amoraId = (await siteByDomain(t, 'amora.localhost')).id;
});
afterAll(async () => {
  await t?.close();
});

const as = (...args: CallArgs) => callAs(t, ...args);

type Kind = 'time bonus' | 'welcome discount' | 'typed code' | 'delete discount';
type Outcome = 'canceled' | 'expired' | 'failed' | 'back button';

/** A member with a discount of that kind, and the code to type (null: the active discount applies by itself). */
async function memberWith(kind: Kind): Promise<{ who: Member; code: string | null; lookUp: string }> {
  const who = await createMember(t);
  if (kind === 'time bonus') return { who, code: null, lookUp: `code=${TIME_BONUS.code}` };
  if (kind === 'welcome discount') {
    // Past the 4 hours of the time bonus, within the 72 of the welcome discount.
    await t.ctx.db
      .update(users)
      .set({ signupDate: new Date(t.clock.now().getTime() - 5 * HOUR) })
      .where(eq(users.id, who.userId));
    return { who, code: null, lookUp: 'welcome=true' };
  }
  if (kind === 'typed code') {
    const code = `SPRING${who.userId}`;
    await t.ctx.db.insert(discountCodes).values({
      code,
      siteId: amoraId,
      valuePercentage: 20,
      source: 'code',
      expiresAt: new Date(t.clock.now().getTime() + 24 * HOUR),
    });
    return { who, code, lookUp: `code=${code}` };
  }
  const offer = await as(who, 'POST', '/api/delete-discount.php', { password: who.password });
  expect(offer.statusCode, offer.body).toBe(200);
  const code = offer.json().code as string;
  return { who, code, lookUp: `code=${code}` };
}

async function packagesOf(who: Member, code: string | null): Promise<PackagesResponse> {
  const res = await as(who, 'GET', code ? `${PACKAGES}?discountcode=${code}` : PACKAGES);
  expect(res.statusCode, res.body).toBe(200);
  return packagesResponseSchema.parse(res.json());
}

async function start(who: Member, packageId: number, code: string | null, method = 'ideal') {
  const res = await as(who, 'POST', PAY, { request_id: randomUUID(), package: packageId, method, ...(code ? { discountcode: code } : {}) });
  return res;
}

async function orderRow(id: number) {
  const [row] = await t.ctx.db.select().from(paymentOrders).where(eq(paymentOrders.id, id));
  return row;
}

/** The payer's choice on the sandbox checkout, and the webhook delivered; undefined when it was no longer open. */
async function checkout(orderId: number, status: 'paid' | 'canceled' | 'expired' | 'failed' | 'pending') {
  const order = await orderRow(orderId);
  const payment = await completeCheckout(t.app, order.providerPaymentId as string, { status });
  if (payment) await notifyNow(t.app, payment);
  return payment;
}

/** What the member sees of the discount: the prices, the code's check and the time-bonus banner. */
async function seen(who: Member, code: string | null, lookUp: string) {
  const packages = await packagesOf(who, code);
  const looked = await as(who, 'GET', `/api/discountcode.php?${lookUp}`);
  const bonus = timeBonusResponseSchema.parse((await as(who, 'GET', '/api/timebonus.php')).json());
  return {
    discount: packages.discount?.code ?? null,
    prices: packages.packages.map((p) => p.discounted_price),
    lookUp: looked.statusCode === 200 ? (discountCodeResponseSchema.parse(looked.json()).discount?.code ?? null) : looked.json().error,
    banner: bonus.is_visible,
  };
}

const KINDS: Kind[] = ['time bonus', 'welcome discount', 'typed code', 'delete discount'];
const OUTCOMES: Outcome[] = ['canceled', 'expired', 'failed', 'back button'];

describe('a discount is used only by a paid payment', () => {
  for (const kind of KINDS) {
    for (const outcome of OUTCOMES) {
      it(`${kind}: a checkout ${outcome === 'back button' ? 'left with the back button' : outcome} gives it back at once`, async () => {
        const { who, code, lookUp } = await memberWith(kind);
        const before = await seen(who, code, lookUp);
        expect(before.discount).not.toBeNull();
        expect(before.prices.every((p) => p !== null)).toBe(true);
        expect(before.banner).toBe(kind !== 'welcome discount');
        const { packages } = await packagesOf(who, code);

        const first = await start(who, packages[1].id, code);
        expect(first.statusCode, first.body).toBe(201);
        const abandoned = startPaymentResponseSchema.parse(first.json()).order;
        expect(abandoned.discount).toBeGreaterThan(0);
        if (outcome !== 'back button') expect(await checkout(abandoned.id, outcome)).toBeDefined();

        // The prices, the code's check and the banner are as before the checkout.
        expect(await seen(who, code, lookUp)).toEqual(before);

        if (outcome === 'back button') {
          // The provider does not cancel an open iDEAL checkout (Mollie's isCancelable is false): Pay again with the
          // same choice continues that checkout, another method is refused naming it, until it expires by itself.
          const again = await start(who, packages[1].id, code);
          expect(again.statusCode, again.body).toBe(200);
          expect(startPaymentResponseSchema.parse(again.json()).order.id).toBe(abandoned.id);
          const refused = await start(who, packages[1].id, code, 'paypal');
          expect([refused.statusCode, refused.json().error, refused.json().order_id]).toEqual([409, 'discount_reserved', abandoned.id]);
          expect((await orderRow(abandoned.id)).status).toBe('open');
          t.clock.advance(OPEN_PAYMENT_MS + 60_000);
        }
        const second = await start(who, packages[1].id, code);
        expect(second.statusCode, second.body).toBe(201);
        const next = startPaymentResponseSchema.parse(second.json()).order;
        expect(next.discount).toBe(abandoned.discount);
        if (outcome === 'back button') {
          // The checkout left behind expired: it can no longer be paid at the discounted price.
          expect((await orderRow(abandoned.id)).status).toBe('expired');
          expect(await checkout(abandoned.id, 'paid')).toBeUndefined();
        }
        expect(await checkout(next.id, 'paid')).toBeDefined();
        expect((await orderRow(next.id)).status).toBe('paid');

        // Paid: used for good, and only once.
        const after = await seen(who, code, lookUp);
        expect(after.banner).toBe(false);
        expect(after.prices.every((p) => p === null)).toBe(true);
        if (code) expect(after.lookUp).toBe('discount_used');
        const rows = await t.ctx.db.select().from(discountRedemptions).where(eq(discountRedemptions.userId, who.userId));
        expect(rows.map((r) => r.status)).toEqual(['used']);
      });
    }
  }
});

describe('a payment under way keeps its discount, and the banner and prices say so', () => {
  for (const [label, method, status] of [
    ['a bank transfer waiting for the money', 'banktransfer', null],
    ['an iDEAL payment pending at the bank', 'ideal', 'pending'],
  ] as const) {
    it(`${label}: no discount shown until it fails, then all of it again`, async () => {
      const { who, code, lookUp } = await memberWith('time bonus');
      const before = await seen(who, code, lookUp);
      const { packages } = await packagesOf(who, code);
      const res = await start(who, packages[0].id, null, method);
      expect(res.statusCode, res.body).toBe(201);
      const order = startPaymentResponseSchema.parse(res.json()).order;
      expect(order.discount).toBeGreaterThan(0);
      if (status) await checkout(order.id, status);

      const during = await seen(who, code, lookUp);
      expect(during).toEqual({ discount: null, prices: [null, null, null, null], lookUp: 'discount_used', banner: false });
      // Nor the welcome discount: the first purchase gets one of the two.
      expect((await as(who, 'GET', '/api/discountcode.php?welcome=true')).json().discount).toBeNull();
      // A new order is charged the full price, and the payment under way keeps its code.
      const full = startPaymentResponseSchema.parse((await start(who, packages[0].id, null)).json()).order;
      expect(full.discount).toBe(0);
      expect((await orderRow(order.id)).status).not.toBe('canceled');

      const row = await orderRow(order.id);
      const payment = await t.ctx.payments.getPayment(row.providerPaymentId as string);
      expect(payment).not.toBeNull();
      await applyPayment(t.ctx, order.id, { ...(payment as NonNullable<typeof payment>), status: 'failed' });
      expect(await seen(who, code, lookUp)).toEqual(before);
    });
  }
});

describe('checkouts opened at once', () => {
  it('of 20 parallel starts with one code at most one can still be paid, and it is paid once', async () => {
    const { who } = await memberWith('time bonus');
    const { packages } = await packagesOf(who, null);
    const answers = await Promise.all(Array.from({ length: 20 }, () => start(who, packages[1].id, TIME_BONUS.code)));
    for (const r of answers) expect(r.statusCode, r.body).toBeOneOf([200, 201]);
    const opened = answers.filter((r) => r.statusCode === 201).map((r) => startPaymentResponseSchema.parse(r.json()).order.id);
    expect(opened).toHaveLength(1);
    const holding = await t.ctx.db
      .select()
      .from(discountRedemptions)
      .where(and(eq(discountRedemptions.userId, who.userId), eq(discountRedemptions.status, 'reserved')));
    expect(holding).toHaveLength(1);
    for (const id of opened) await checkout(id, 'paid');
    const paid = (await t.ctx.db.select().from(paymentOrders).where(eq(paymentOrders.userId, who.userId))).filter(
      (o) => o.status === 'paid' && o.discountMinor > 0,
    );
    expect(paid).toHaveLength(1);
  });
});

describe('a code of 1 to 99 %', () => {
  it('cannot be made at 100 % (or 0 %), and at 99 % makes an order the provider takes', async () => {
    const base = { siteId: amoraId, source: 'code', expiresAt: new Date(t.clock.now().getTime() + 24 * HOUR) };
    for (const valuePercentage of [100, 0, 150]) {
      await expect(t.ctx.db.insert(discountCodes).values({ ...base, code: `FREE${valuePercentage}`, valuePercentage })).rejects.toThrow();
    }
    const who = await createMember(t);
    await t.ctx.db.insert(discountCodes).values({ ...base, code: `ALMOST${who.userId}`, valuePercentage: 99 });
    const { packages } = await packagesOf(who, `ALMOST${who.userId}`);
    for (const p of packages) expect(p.discounted_price).toBeGreaterThan(0);
    const res = await start(who, packages[0].id, `ALMOST${who.userId}`);
    expect(res.statusCode, res.body).toBe(201);
    const order = startPaymentResponseSchema.parse(res.json()).order;
    expect(order.amount).toBeGreaterThan(0);
    expect(order.checkout_url).toMatch(/\/sandbox\/checkout\//);
    expect(await checkout(order.id, 'paid')).toBeDefined();
    expect((await orderRow(order.id)).status).toBe('paid');
  });
});

describe('bad input and another member', () => {
  it("does not cancel another member's checkout, and refuses an unknown code without touching the open one", async () => {
    const { who: ann } = await memberWith('time bonus');
    const { who: bob } = await memberWith('time bonus');
    const { packages } = await packagesOf(ann, null);
    const anns = startPaymentResponseSchema.parse((await start(ann, packages[0].id, null)).json()).order;
    const bobs = await start(bob, packages[0].id, null);
    expect(bobs.statusCode, bobs.body).toBe(201);
    expect((await orderRow(anns.id)).status).toBe('open');
    const wrong = await start(ann, packages[0].id, 'NOSUCHCODE');
    expect([wrong.statusCode, wrong.json().error]).toEqual([422, 'discount_not_found']);
    const bad = await as(ann, 'POST', PAY, { request_id: 'x', package: packages[0].id, method: 'ideal' });
    expect(bad.statusCode).toBe(400);
    expect((await orderRow(anns.id)).status).toBe('open');
  });
});

describe('a first purchase gets one of the two first-purchase discounts', () => {
  /** A new member, with the time bonus showing and their welcome code fetched as well. */
  async function newMember() {
    const { who } = await memberWith('time bonus');
    const welcome = await as(who, 'GET', '/api/discountcode.php?welcome=true');
    expect(welcome.statusCode, welcome.body).toBe(200);
    const code = discountCodeResponseSchema.parse(welcome.json()).discount?.code as string;
    expect(code).toMatch(/^WELCOME/);
    const { packages } = await packagesOf(who, null);
    return { who, welcome: code, packages };
  }

  it('paid with the time bonus, the welcome code is refused (and the other way round)', async () => {
    for (const [first, second] of [
      ['time bonus', 'welcome'],
      ['welcome', 'time bonus'],
    ] as const) {
      const { who, welcome, packages } = await newMember();
      const codeOf = (which: 'time bonus' | 'welcome') => (which === 'welcome' ? welcome : TIME_BONUS.code);
      const paid = await start(who, packages[1].id, codeOf(first));
      expect(paid.statusCode, paid.body).toBe(201);
      const order = startPaymentResponseSchema.parse(paid.json()).order;
      expect(order.discount).toBeGreaterThan(0);
      expect(await checkout(order.id, 'paid')).toBeDefined();

      const again = await start(who, packages[1].id, codeOf(second));
      expect([again.statusCode, again.json().error]).toEqual([422, 'discount_expired']);
      const looked = await as(who, 'GET', `/api/discountcode.php?code=${codeOf(second)}`);
      expect(looked.json().error).toBe('discount_expired');
      const orders = await t.ctx.db.select().from(paymentOrders).where(eq(paymentOrders.userId, who.userId));
      expect(orders).toHaveLength(1);
    }
  });

  it('while a bank transfer with one of them waits for the money, the other is refused', async () => {
    for (const first of ['time bonus', 'welcome'] as const) {
      const { who, welcome, packages } = await newMember();
      const pending = await start(who, packages[0].id, first === 'welcome' ? welcome : TIME_BONUS.code, 'banktransfer');
      expect(pending.statusCode, pending.body).toBe(201);
      expect(startPaymentResponseSchema.parse(pending.json()).order.discount).toBeGreaterThan(0);

      const other = first === 'welcome' ? TIME_BONUS.code : welcome;
      const refused = await start(who, packages[0].id, other);
      expect([refused.statusCode, refused.json().error]).toEqual([422, 'discount_used']);
      expect((await as(who, 'GET', `/api/discountcode.php?code=${other}`)).json().error).toBe('discount_used');
      const reservations = await t.ctx.db.select().from(discountRedemptions).where(eq(discountRedemptions.userId, who.userId));
      expect(reservations).toHaveLength(1);
    }
  });

  it('of 100 parallel starts split between the two codes, at most one discounted order can be paid', async () => {
    const { who, welcome, packages } = await newMember();
    const answers = await Promise.all(
      Array.from({ length: 100 }, (_, k) => start(who, packages[1].id, k % 2 === 0 ? TIME_BONUS.code : welcome)),
    );
    // The same code as the open checkout continues it; the other first-purchase code is refused naming it.
    for (const r of answers.filter((a) => a.statusCode > 201)) {
      expect([r.statusCode, r.json().error]).toEqual([409, 'discount_reserved']);
    }
    const opened = answers.filter((r) => r.statusCode === 201).map((r) => startPaymentResponseSchema.parse(r.json()).order.id);
    expect(opened.length).toBeGreaterThan(0);
    const holding = await t.ctx.db
      .select()
      .from(discountRedemptions)
      .innerJoin(paymentOrders, eq(paymentOrders.id, discountRedemptions.orderId))
      .where(and(eq(discountRedemptions.userId, who.userId), eq(paymentOrders.status, 'open')));
    expect(holding.length).toBeLessThanOrEqual(1);
    for (const id of opened) await checkout(id, 'paid');
    const paid = (await t.ctx.db.select().from(paymentOrders).where(eq(paymentOrders.userId, who.userId))).filter(
      (o) => o.status === 'paid' && o.discountMinor > 0,
    );
    expect(paid).toHaveLength(1);
  }, 120_000);
});

describe('a checkout left behind is taken over only by a start that can go ahead', () => {
  it('a new start with a method the provider does not offer changes nothing, and does not ask the provider to cancel', async () => {
    const { who } = await memberWith('time bonus');
    const { packages } = await packagesOf(who, null);
    const left = startPaymentResponseSchema.parse((await start(who, packages[1].id, TIME_BONUS.code)).json()).order;
    const cancel = vi.spyOn(t.ctx.payments, 'cancelPayment');
    try {
      const refused = await start(who, packages[1].id, TIME_BONUS.code, 'blik');
      expect([refused.statusCode, refused.json().error]).toEqual([422, 'method_unavailable']);
      expect(cancel).not.toHaveBeenCalled();
    } finally {
      cancel.mockRestore();
    }
    expect((await orderRow(left.id)).status).toBe('open');
    const payment = await t.ctx.payments.getPayment((await orderRow(left.id)).providerPaymentId as string);
    expect(payment?.status).toBe('open');
  });
});

describe('a checkout left behind with the other first-purchase discount', () => {
  async function leftWithTimeBonus() {
    const { who } = await memberWith('time bonus');
    const welcome = discountCodeResponseSchema.parse((await as(who, 'GET', '/api/discountcode.php?welcome=true')).json()).discount
      ?.code as string;
    const { packages } = await packagesOf(who, null);
    const left = startPaymentResponseSchema.parse((await start(who, packages[1].id, TIME_BONUS.code)).json()).order;
    expect(left.discount).toBeGreaterThan(0);
    return { who, welcome, packages, left };
  }

  it('is taken over by an order with the welcome code when the provider cancels it', async () => {
    const { who, welcome, packages, left } = await leftWithTimeBonus();
    // A provider that cancels an open checkout (the sandbox, as Mollie, does so only for a bank transfer).
    const cancel = vi.spyOn(t.ctx.payments, 'cancelPayment').mockImplementation(async (id) => {
      await completeCheckout(t.app, id, { status: 'canceled' });
      return (await t.ctx.payments.getPayment(id)) as NonNullable<Awaited<ReturnType<typeof t.ctx.payments.getPayment>>>;
    });
    try {
      const next = await start(who, packages[1].id, welcome);
      expect(next.statusCode, next.body).toBe(201);
      expect(startPaymentResponseSchema.parse(next.json()).order.discount).toBeGreaterThan(0);
      expect(cancel).toHaveBeenCalledTimes(1);
    } finally {
      cancel.mockRestore();
    }
    expect((await orderRow(left.id)).status).toBe('canceled');
    expect(await checkout(left.id, 'paid')).toBeUndefined();
  });

  it('refuses the welcome code, changing nothing, when the provider will not cancel it', async () => {
    const { who, welcome, packages, left } = await leftWithTimeBonus();
    const refused = await start(who, packages[1].id, welcome);
    expect([refused.statusCode, refused.json().error, refused.json().order_id]).toEqual([409, 'discount_reserved', left.id]);
    expect((await orderRow(left.id)).status).toBe('open');
    const orders = await t.ctx.db.select().from(paymentOrders).where(eq(paymentOrders.userId, who.userId));
    expect(orders).toHaveLength(1);
    // Paid after all: the welcome code is over for good.
    expect(await checkout(left.id, 'paid')).toBeDefined();
    expect((await start(who, packages[1].id, welcome)).json().error).toBe('discount_expired');
  });
});

describe('back from a discounted checkout that the provider cannot cancel, and Pay again', () => {
  async function leftBehind() {
    const { who } = await memberWith('time bonus');
    const { packages } = await packagesOf(who, null);
    const first = await start(who, packages[1].id, null);
    expect(first.statusCode, first.body).toBe(201);
    const left = startPaymentResponseSchema.parse(first.json());
    expect(left.order.discount).toBeGreaterThan(0);
    return { who, packages, left };
  }
  const reservationsOf = (userId: number) => t.ctx.db.select().from(discountRedemptions).where(eq(discountRedemptions.userId, userId));
  const ordersOf = (userId: number) => t.ctx.db.select().from(paymentOrders).where(eq(paymentOrders.userId, userId));

  it('the same package and method answer the same order and checkout, with one reservation', async () => {
    const { who, packages, left } = await leftBehind();
    // With the code typed or with the active discount alone, the same payment.
    for (const code of [null, TIME_BONUS.code]) {
      const again = await start(who, packages[1].id, code);
      expect(again.statusCode, again.body).toBe(200);
      const answer = startPaymentResponseSchema.parse(again.json());
      expect(answer.order.id).toBe(left.order.id);
      expect(answer.checkout_url).toBe(left.checkout_url);
      expect(answer.order.amount).toBe(left.order.amount);
    }
    expect(await ordersOf(who.userId)).toHaveLength(1);
    expect(await reservationsOf(who.userId)).toHaveLength(1);
    // Paid on that checkout: used once.
    expect(await checkout(left.order.id, 'paid')).toBeDefined();
    expect((await reservationsOf(who.userId)).map((r) => r.status)).toEqual(['used']);
  });

  it('another method or package is refused with discount_reserved naming the open order, and nothing changes', async () => {
    const { who, packages, left } = await leftBehind();
    for (const [pkg, method] of [
      [packages[1].id, 'paypal'],
      [packages[0].id, 'ideal'],
    ] as const) {
      const refused = await start(who, pkg, null, method);
      expect(refused.statusCode, refused.body).toBe(409);
      expect(refused.json()).toMatchObject({ error: 'discount_reserved', order_id: left.order.id, checkout_url: left.checkout_url });
    }
    expect(await ordersOf(who.userId)).toHaveLength(1);
    expect(await reservationsOf(who.userId)).toHaveLength(1);
    const row = await orderRow(left.order.id);
    expect([row.status, row.checkoutUrl]).toEqual(['open', left.checkout_url]);
    expect((await t.ctx.payments.getPayment(row.providerPaymentId as string))?.status).toBe('open');
  });

  it("another member's open checkout is not theirs to continue", async () => {
    const { packages, left } = await leftBehind();
    const { who: other } = await memberWith('time bonus');
    const own = await start(other, packages[1].id, null);
    expect(own.statusCode, own.body).toBe(201);
    const order = startPaymentResponseSchema.parse(own.json()).order;
    expect(order.id).not.toBe(left.order.id);
    expect(order.discount).toBe(left.order.discount);
    expect((await orderRow(left.order.id)).status).toBe('open');
  });

  it('once the open checkout has expired, a start with another method gets the discount', async () => {
    const { who, packages, left } = await leftBehind();
    t.clock.advance(OPEN_PAYMENT_MS + 60_000);
    const next = await start(who, packages[1].id, null, 'paypal');
    expect(next.statusCode, next.body).toBe(201);
    const order = startPaymentResponseSchema.parse(next.json()).order;
    expect(order.id).not.toBe(left.order.id);
    expect(order.discount).toBe(left.order.discount);
    expect((await orderRow(left.order.id)).status).toBe('expired');
    expect(await checkout(left.order.id, 'paid')).toBeUndefined();
  });

  it('50 parallel starts of the same package and method make one order', async () => {
    const { who } = await memberWith('time bonus');
    const { packages } = await packagesOf(who, null);
    const answers = await Promise.all(Array.from({ length: 50 }, () => start(who, packages[1].id, null)));
    for (const r of answers) expect(r.statusCode, r.body).toBeOneOf([200, 201]);
    const ids = new Set(answers.map((r) => startPaymentResponseSchema.parse(r.json()).order.id));
    expect(ids.size).toBe(1);
    expect(answers.filter((r) => r.statusCode === 201)).toHaveLength(1);
    expect(await ordersOf(who.userId)).toHaveLength(1);
    expect(await reservationsOf(who.userId)).toHaveLength(1);
  }, 120_000);
});

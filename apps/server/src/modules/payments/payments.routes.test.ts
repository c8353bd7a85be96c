import { randomUUID } from 'node:crypto';
import {
  DIRECT_DEBIT_OPEN_LIMIT,
  packagesResponseSchema,
  paymentMethodsResponseSchema,
  pricingResponseSchema,
  startPaymentResponseSchema,
  transactionResponseSchema,
  transactionsResponseSchema,
} from '@amora/contracts';
import {
  creditLedger,
  directDebitMandates,
  paymentCustomers,
  paymentEvents,
  paymentOrders,
  profiles,
  sandboxPayments,
  users,
} from '@amora/db';
import { and, eq, inArray } from 'drizzle-orm';
import type { LightMyRequestResponse } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call, HERZ } from '../../test/accounts';
import { type CallArgs, callAs, createMember, type Member, type MemberOptions } from '../../test/factories';
import { createTestApp, type TestApp } from '../../test/harness';
import { spend } from '../credits/credits.service';
import { purgeDeletedAccounts } from '../deletion/deletion.service';
import { applyPayment, CHECK_AFTER_MS } from './order-status.service';
import { chargeBackPayment, completeCheckout, settlePayment } from './sandbox/sandbox.service';
import { notifyNow } from './sandbox/sandbox.shared';

const PACKAGES = '/api/packages.php';
const METHODS = '/api/paymentmethods.php';
const PAY = '/api/payments.php';
const REPEAT = '/api/repeat-order.php';
const TRANSACTIONS = '/api/transactions.php';
const PRICING = '/api/pricing.php';
const WEBHOOK = '/api/payments/webhook';

let t: TestApp;

beforeAll(async () => {
  t = await createTestApp({ trustProxy: true, geoCountryHeader: 'x-country-code' });
});
afterAll(async () => {
  await t?.close();
});

const member = (options?: MemberOptions) => createMember(t, options);
const as = (...args: CallArgs) => callAs(t, ...args);

/** From the visitor's country `country` (the geo header) when given. */
const from = (country: string) => ({ headers: { 'x-country-code': country } });

async function packagesOf(who: Member, country?: string) {
  const res = await as(who, 'GET', PACKAGES, undefined, country ? from(country) : {});
  expect(res.statusCode, res.body).toBe(200);
  return packagesResponseSchema.parse(res.json());
}

async function start(who: Member, body: Record<string, unknown>): Promise<LightMyRequestResponse> {
  return as(who, 'POST', PAY, { request_id: randomUUID(), ...body });
}

async function startOk(who: Member, body: Record<string, unknown>) {
  const res = await start(who, body);
  expect(res.statusCode, res.body).toBe(201);
  return startPaymentResponseSchema.parse(res.json());
}

async function orderRow(id: number) {
  const [row] = await t.ctx.db.select().from(paymentOrders).where(eq(paymentOrders.id, id));
  return row;
}

async function userRow(who: Member) {
  const [row] = await t.ctx.db.select().from(users).where(eq(users.id, who.userId));
  return row;
}

async function ledgerOf(orderId: number) {
  return t.ctx.db
    .select()
    .from(creditLedger)
    .where(inArray(creditLedger.idempotencyKey, [`pay:${orderId}`, `debt:${orderId}`, `chargeback:${orderId}`]));
}

/** What the provider's webhook sends: a form with the payment id, no client header, no cookie. */
function webhook(paymentId: string, host = 'amora.localhost:3000') {
  return t.app.inject({
    method: 'POST',
    url: WEBHOOK,
    headers: { host, 'content-type': 'application/x-www-form-urlencoded' },
    payload: `id=${encodeURIComponent(paymentId)}`,
  }) as Promise<LightMyRequestResponse>;
}

/** The payer's choice on the sandbox's checkout page, without the webhook the sandbox would send. */
async function payerChooses(orderId: number, status: 'paid' | 'failed' | 'canceled' | 'expired' | 'pending') {
  const order = await orderRow(orderId);
  if (!order.providerPaymentId) throw new Error('order without payment');
  const payment = await completeCheckout(t.app, order.providerPaymentId, { status });
  if (!payment) throw new Error('payment was not open');
  return payment;
}

/** A member's first package bought with iDEAL and paid, webhook delivered. */
async function buy(who: Member, method = 'ideal', index = 0) {
  const { packages } = await packagesOf(who);
  const started = await startOk(who, { package: packages[index].id, method });
  const payment = await payerChooses(started.order.id, 'paid');
  await notifyNow(t.app, payment);
  return { order: await orderRow(started.order.id), pkg: packages[index], paymentId: payment.id };
}

describe('the catalogue', () => {
  it('lists four packages of the payment country with a best-value mark, in minor units of its currency', async () => {
    const sam = await member();
    const body = await packagesOf(sam);
    expect(body.payment_country).toBe('NL');
    expect(body.currency).toBe('EUR');
    expect(body.packages).toHaveLength(4);
    expect(body.packages.filter((p) => p.best_value)).toHaveLength(1);
    // Best value is the package really cheapest per credit at the price paid (the largest one here), worked out.
    const perCredit = body.packages.map((p) => (p.discounted_price ?? p.price) / p.credits);
    const cheapest = body.packages[perCredit.indexOf(Math.min(...perCredit))];
    expect(body.packages.find((p) => p.best_value)?.id).toBe(cheapest.id);
    expect(body.packages.every((p) => Number.isInteger(p.price) && p.currency === 'EUR')).toBe(true);
    expect(body.prices).toEqual({ message: 10, gift: 25, photo: 5 });
    expect(body.minimum_message_costs).toEqual({ costs: 1, currency: 'EUR' });
    expect(body.paid_user).toBe(false);
    expect(body.last_order).toBeNull();
    // A new member has the time bonus: the packages are priced with it.
    expect(body.discount?.code).toBe('TIMEBONUS25');
    expect(body.packages[0].discounted_price).toBe(body.packages[0].price - Math.floor((body.packages[0].price * 25 + 50) / 100));
  });

  it("takes the visitor's country when the site sells there, else the site's default; never the profile's", async () => {
    const swiss = await member({ host: HERZ });
    const ch = await packagesOf(swiss, 'CH');
    expect([ch.payment_country, ch.currency]).toEqual(['CH', 'CHF']);
    expect((await packagesOf(await member(), 'PL')).currency).toBe('PLN');
    // A country the site does not sell in: the site's default country.
    const de = await packagesOf(await member({ host: HERZ }), 'PL');
    expect([de.payment_country, de.currency]).toEqual(['DE', 'EUR']);
    // Editing the profile to another country does not move the prices there.
    const mover = await member({ host: HERZ, profile: { country: 'CH' } });
    expect((await packagesOf(mover)).payment_country).toBe('DE');
    await t.ctx.db.update(profiles).set({ country: 'CH' }).where(eq(profiles.id, mover.profileId));
    expect((await packagesOf(mover, 'DE')).payment_country).toBe('DE');
  });

  it('is fixed by the first purchase: later calls from another country, or a profile edit, keep it', async () => {
    const pia = await member();
    const { packages } = await packagesOf(pia, 'PL');
    const res = await as(pia, 'POST', PAY, { request_id: randomUUID(), package: packages[0].id, method: 'blik' }, from('PL'));
    expect(res.statusCode, res.body).toBe(201);
    const order = startPaymentResponseSchema.parse(res.json()).order;
    // Before it is paid, a call from the Netherlands is priced there.
    expect((await packagesOf(pia, 'NL')).payment_country).toBe('NL');
    await notifyNow(t.app, await payerChooses(order.id, 'paid'));
    expect((await orderRow(order.id)).status).toBe('paid');
    await t.ctx.db.update(profiles).set({ country: 'NL' }).where(eq(profiles.id, pia.profileId));
    for (const country of ['NL', 'GB', undefined]) {
      const after = await packagesOf(pia, country);
      expect([after.payment_country, after.currency]).toEqual(['PL', 'PLN']);
    }
    // A package of the country the visitor is in now is not theirs to buy.
    const nl = await packagesOf(await member(), 'NL');
    const refused = await as(pia, 'POST', PAY, { request_id: randomUUID(), package: nl.packages[0].id, method: 'ideal' }, from('NL'));
    expect([refused.statusCode, refused.json().error]).toEqual([404, 'package_not_found']);
  });

  it('lists the methods the provider offers for the amount, with fees, and direct debit needing a mandate', async () => {
    const sam = await member();
    const { packages } = await packagesOf(sam);
    const res = await as(sam, 'GET', `${METHODS}?package=${packages[1].id}`);
    expect(res.statusCode, res.body).toBe(200);
    const body = paymentMethodsResponseSchema.parse(res.json());
    const names = body.methods.map((m) => m.name);
    expect(names).toContain('ideal');
    expect(names).toContain('visa');
    expect(names).toContain('paypal');
    expect(body.methods.find((m) => m.name === 'directdebit')).toMatchObject({ needs_mandate: true });
    const paypal = body.methods.find((m) => m.name === 'paypal');
    const discounted = body.package.discounted_price ?? body.package.price;
    expect(paypal?.amount).toBe(discounted + (paypal?.fee ?? 0));
    expect(paypal?.fee).toBeGreaterThan(0);
    expect(body.methods.find((m) => m.name === 'ideal')?.fee).toBe(0);
    // Giropay and SOFORT are discontinued: not listed where the site would offer them.
    const berlin = await member({ host: HERZ });
    const de = await packagesOf(berlin);
    const deMethods = paymentMethodsResponseSchema.parse((await as(berlin, 'GET', `${METHODS}?package=${de.packages[0].id}`)).json());
    expect(deMethods.methods.map((m) => m.name)).not.toContain('giropay');
    expect(deMethods.methods.map((m) => m.name)).not.toContain('sofort');
    expect(deMethods.methods.map((m) => m.name)).toContain('paypal');
  });

  it("answers 404 for another site's or another country's package, and 400 for bad input", async () => {
    const sam = await member();
    const herz = await packagesOf(await member({ host: HERZ }));
    expect((await as(sam, 'GET', `${METHODS}?package=${herz.packages[0].id}`)).statusCode).toBe(404);
    const pole = await packagesOf(await member(), 'PL');
    const res = await as(sam, 'GET', `${METHODS}?package=${pole.packages[0].id}`);
    expect([res.statusCode, res.json().error]).toEqual([404, 'package_not_found']);
    for (const q of ['?package=abc', '?package=99999999999999999999', '?package=1%00', '?package=1&discountcode=%00', '']) {
      expect((await as(sam, 'GET', `${METHODS}${q}`)).statusCode).toBe(400);
    }
    expect((await as(null, 'GET', PACKAGES)).statusCode).toBe(403);
  });

  it('shows the public prices with the fee of each method, per country', async () => {
    const res = await call(t, 'GET', PRICING, undefined, { client: false });
    expect(res.statusCode, res.body).toBe(200);
    const body = pricingResponseSchema.parse(res.json());
    expect(body.payment_country).toBe('NL');
    expect(body.packages).toHaveLength(4);
    expect(body.countries).toContain('GB');
    expect(body.methods.find((m) => m.name === 'ideal')).toEqual({ name: 'ideal', fee: 0 });
    const gb = pricingResponseSchema.parse((await call(t, 'GET', `${PRICING}?country=gb`)).json());
    expect([gb.payment_country, gb.currency]).toEqual(['GB', 'GBP']);
    expect(gb.methods.map((m) => m.name)).not.toContain('ideal');
    const unknown = pricingResponseSchema.parse((await call(t, 'GET', `${PRICING}?country=JP`)).json());
    expect(unknown.payment_country).toBe('NL');
    expect((await call(t, 'GET', `${PRICING}?country=%00%00`)).statusCode).toBe(400);
  });
});

describe('a provider that cannot be reached', () => {
  it('still shows the price list with the site methods, and answers 503 where a payment needs the provider', async () => {
    // The Mollie adapter pointed at an address where nothing listens.
    const down = await createTestApp({
      payments: { mollieApiKey: 'test_unreachableunreachable00', mollieApiUrl: 'http://127.0.0.1:9/v2/', publicUrl: null, sandbox: false },
    });
    try {
      const sam = await createMember(down);
      const pricing = pricingResponseSchema.parse((await callAs(down, null, 'GET', PRICING)).json());
      expect(pricing.methods.map((m) => m.name)).toContain('ideal');
      const { packages } = packagesResponseSchema.parse((await callAs(down, sam, 'GET', PACKAGES)).json());
      const methods = await callAs(down, sam, 'GET', `${METHODS}?package=${packages[0].id}`);
      expect([methods.statusCode, methods.json().error]).toEqual([503, 'payment_provider_unavailable']);
      const started = await callAs(down, sam, 'POST', PAY, { package: packages[0].id, method: 'ideal', request_id: randomUUID() });
      expect([started.statusCode, started.json().error]).toEqual([503, 'payment_provider_unavailable']);
    } finally {
      await down.close();
    }
  });
});

describe('a start the provider refuses', () => {
  it('keeps the order, answers 503 at once to the retry too, and expires it at its first check', async () => {
    const sam = await member();
    // A customer the provider no longer knows: it refuses the card's first payment.
    await t.ctx.db.insert(paymentCustomers).values({ userId: sam.userId, provider: t.ctx.payments.name, customerId: 'cst_gone00000' });
    const { packages } = await packagesOf(sam);
    const body = { package: packages[0].id, method: 'visa', request_id: randomUUID() };
    const first = await as(sam, 'POST', PAY, body);
    expect([first.statusCode, first.json().error]).toEqual([503, 'payment_provider_unavailable']);
    const started = Date.now();
    const retry = await as(sam, 'POST', PAY, body);
    expect(retry.statusCode).toBe(503);
    expect(Date.now() - started).toBeLessThan(5000);
    const [order] = await t.ctx.db.select().from(paymentOrders).where(eq(paymentOrders.userId, sam.userId));
    expect(order).toMatchObject({ status: 'created', providerPaymentId: null });
    t.clock.advance(CHECK_AFTER_MS[0] + 1000);
    await t.ctx.jobs.runDue();
    expect((await orderRow(order.id)).status).toBe('expired');
    const again = startPaymentResponseSchema.parse((await as(sam, 'POST', PAY, body)).json());
    expect(again.order).toMatchObject({ id: order.id, status: 'expired', checkout_url: null });
  });
});

describe('starting a payment', () => {
  it('stores the order before the provider is called and answers the checkout on the site domain return page', async () => {
    const sam = await member();
    const { packages } = await packagesOf(sam);
    const requestId = randomUUID();
    const res = await as(sam, 'POST', PAY, { package: packages[0].id, method: 'ideal', request_id: requestId });
    expect(res.statusCode, res.body).toBe(201);
    const body = startPaymentResponseSchema.parse(res.json());
    expect(body.order).toMatchObject({ status: 'open', method: 'ideal', credits: packages[0].credits, currency: 'EUR', recurring: false });
    expect(body.checkout_url).toMatch(/\/sandbox\/checkout\/tr_/);
    const row = await orderRow(body.order.id);
    expect(row.providerPaymentId).toMatch(/^tr_/);
    expect(row.amountMinor).toBe(row.listPriceMinor - row.discountMinor + row.feeMinor);
    const payment = await t.ctx.payments.getPayment(row.providerPaymentId as string);
    expect(payment?.metadata).toEqual({ orderId: row.id, siteId: row.siteId, userId: sam.userId });
    expect(payment?.amount).toEqual({ minor: row.amountMinor, currency: 'EUR' });
    // The retry answers the same order.
    const again = await as(sam, 'POST', PAY, { package: packages[0].id, method: 'ideal', request_id: requestId });
    expect(again.statusCode).toBe(200);
    expect(again.json().order.id).toBe(body.order.id);
  });

  it('gives the provider the return page on the site own domain and locale, never the request host', async () => {
    const berlin = await member({ host: HERZ });
    await as(berlin, 'PUT', '/api/user.php', { language: 'de' });
    const { packages } = await packagesOf(berlin);
    const started = await startOk(berlin, { package: packages[0].id, method: 'paypal' });
    const row = await orderRow(started.order.id);
    const [sandbox] = await t.ctx.db
      .select()
      .from(sandboxPayments)
      .where(eq(sandboxPayments.id, row.providerPaymentId as string));
    expect(sandbox.redirectUrl).toBe(`http://herzklopfen.localhost:3000/de/transactions/${row.id}`);
    expect(sandbox.webhookUrl).toBe('http://herzklopfen.localhost:3000/api/payments/webhook');
  });

  it('makes one order for 100 parallel starts with one request_id', async () => {
    const sam = await member();
    const { packages } = await packagesOf(sam);
    const requestId = randomUUID();
    const results = await Promise.all(
      Array.from({ length: 100 }, () => as(sam, 'POST', PAY, { package: packages[2].id, method: 'ideal', request_id: requestId })),
    );
    expect(results.map((r) => r.statusCode).sort()).toEqual([...Array(99).fill(200), 201].sort());
    const ids = new Set(results.map((r) => r.json().order.id));
    expect(ids.size).toBe(1);
    const urls = new Set(results.map((r) => r.json().checkout_url));
    expect(urls.size).toBe(1);
    const rows = await t.ctx.db.select().from(paymentOrders).where(eq(paymentOrders.userId, sam.userId));
    expect(rows).toHaveLength(1);
  });

  it('refuses bad input, an unknown package, a method not offered, and needs the client header', async () => {
    const sam = await member();
    const { packages } = await packagesOf(sam);
    const id = packages[0].id;
    const cases: [Record<string, unknown>, number, string][] = [
      [{ package: id, method: 'ideal', request_id: 'not-a-uuid' }, 400, 'validation_failed'],
      [{ package: id, method: 'bitcoin' }, 400, 'validation_failed'],
      [{ package: 1e300, method: 'ideal' }, 400, 'validation_failed'],
      [{ package: 2 ** 53, method: 'ideal' }, 400, 'validation_failed'],
      [{ package: id, method: 'ideal\u0000' }, 400, 'validation_failed'],
      [{ package: id, method: 'ideal', discountcode: 'A\u0000B' }, 400, 'validation_failed'],
      [{ package: id, method: 'ideal', extra: 1 }, 400, 'validation_failed'],
      [{ package: 2_000_000_000, method: 'ideal' }, 404, 'package_not_found'],
      [{ package: id, method: 'blik' }, 422, 'method_unavailable'],
      [{ package: id, method: 'giropay' }, 422, 'method_unavailable'],
      [{ package: id, method: 'ideal', discountcode: 'NOSUCHCODE' }, 422, 'discount_not_found'],
      [{ package: id, method: 'directdebit' }, 409, 'mandate_required'],
    ];
    for (const [body, status, error] of cases) {
      const res = await start(sam, body);
      expect([res.statusCode, res.json().error], JSON.stringify(body)).toEqual([status, error]);
    }
    const noHeader = await as(sam, 'POST', PAY, { package: id, method: 'ideal', request_id: randomUUID() }, { client: false });
    expect([noHeader.statusCode, noHeader.json().error]).toEqual([403, 'client_header_required']);
    expect((await as(null, 'POST', PAY, { package: id, method: 'ideal', request_id: randomUUID() })).statusCode).toBe(403);
    expect(await t.ctx.db.select().from(paymentOrders).where(eq(paymentOrders.userId, sam.userId))).toEqual([]);
  });
});

describe('the webhook', () => {
  it('credits once when the webhook comes 5 times, makes the member premium and keeps the order paid', async () => {
    const sam = await member();
    const before = await userRow(sam);
    const { packages } = await packagesOf(sam);
    const started = await startOk(sam, { package: packages[0].id, method: 'ideal' });
    const payment = await payerChooses(started.order.id, 'paid');
    for (let i = 0; i < 5; i++) expect((await webhook(payment.id)).statusCode).toBe(200);
    const after = await userRow(sam);
    expect(after.credits).toBe(before.credits + packages[0].credits);
    expect(after.paidUser).toBe(true);
    expect((await ledgerOf(started.order.id)).map((r) => [r.reason, r.delta])).toEqual([['purchase', packages[0].credits]]);
    const row = await orderRow(started.order.id);
    expect(row.status).toBe('paid');
    expect(row.creditedAt).not.toBeNull();
    const events = await t.ctx.db.select().from(paymentEvents).where(eq(paymentEvents.orderId, row.id));
    expect(events.map((e) => e.status).sort()).toEqual(['paid']);
    // The member object says so too.
    const user = (await as(sam, 'GET', '/api/user.php')).json().user;
    expect([user.credits, user.paid_user]).toEqual([after.credits, true]);
  });

  it('credits once for 100 parallel webhooks of one payment', async () => {
    const sam = await member();
    const before = await userRow(sam);
    const { packages } = await packagesOf(sam);
    const started = await startOk(sam, { package: packages[3].id, method: 'visa' });
    const payment = await payerChooses(started.order.id, 'paid');
    const answers = await Promise.all(Array.from({ length: 100 }, () => webhook(payment.id)));
    expect(answers.every((r) => r.statusCode === 200)).toBe(true);
    expect((await userRow(sam)).credits).toBe(before.credits + packages[3].credits);
    expect(await ledgerOf(started.order.id)).toHaveLength(1);
  });

  it('never goes back: a stale pending after paid changes nothing, and the pending-then-paid order credits once', async () => {
    const sam = await member();
    const before = await userRow(sam);
    const { packages } = await packagesOf(sam);
    const started = await startOk(sam, { package: packages[0].id, method: 'banktransfer' });
    const pending = await payerChooses(started.order.id, 'pending');
    const stale = await t.ctx.payments.getPayment(pending.id);
    expect(stale?.status).toBe('pending');
    await settlePayment(t.app, pending.id, 'paid');
    // The paid webhook arrives first, the pending one after it.
    expect((await webhook(pending.id)).statusCode).toBe(200);
    await applyPayment(t.ctx, started.order.id, stale as NonNullable<typeof stale>);
    const row = await orderRow(started.order.id);
    expect(row.status).toBe('paid');
    expect((await userRow(sam)).credits).toBe(before.credits + packages[0].credits);
    expect(await ledgerOf(started.order.id)).toHaveLength(1);
  });

  it('answers 404 for a payment of no order and credits nothing for an id the provider does not know', async () => {
    const unknown = await webhook('tr_doesnotexist123');
    expect(unknown.statusCode).toBe(404);
    // A real payment at the provider, made to look like one of ours, with an amount that is not the order's.
    const sam = await member();
    const before = await userRow(sam);
    const { packages } = await packagesOf(sam);
    const started = await startOk(sam, { package: packages[0].id, method: 'ideal' });
    const forged = await t.ctx.payments.createPayment({
      amount: { minor: 1, currency: 'EUR' },
      description: 'forged',
      redirectUrl: 'http://amora.localhost:3000/transactions/1',
      sequenceType: 'oneoff',
      metadata: { orderId: started.order.id, siteId: 1, userId: sam.userId },
      idempotencyKey: randomUUID(),
    });
    await completeCheckout(t.app, forged.id, { status: 'paid' });
    expect((await webhook(forged.id)).statusCode).toBe(404);
    for (const body of ['', 'id=', 'id=%00', 'id=tr_%00', `id=${'x'.repeat(2000)}`, 'id=tr_a&id=tr_b']) {
      const res = (await t.app.inject({
        method: 'POST',
        url: WEBHOOK,
        headers: { host: 'amora.localhost:3000', 'content-type': 'application/x-www-form-urlencoded' },
        payload: body,
      })) as LightMyRequestResponse;
      expect([400, 404, 413]).toContain(res.statusCode);
    }
    expect((await userRow(sam)).credits).toBe(before.credits);
    expect((await orderRow(started.order.id)).status).toBe('open');
  });

  it('credits a payment paid after the return page was closed: by the webhook, or by the status call when it was missed', async () => {
    const sam = await member();
    const before = await userRow(sam);
    const { packages } = await packagesOf(sam);
    // The payer pays and closes the tab; the webhook comes later (the sandbox's durable job).
    const first = await startOk(sam, { package: packages[0].id, method: 'ideal' });
    const payment = await payerChooses(first.order.id, 'paid');
    await notifyNow(t.app, payment);
    expect((await orderRow(first.order.id)).status).toBe('paid');
    // A missed webhook: the status call asks the provider once the last look is 10 s old.
    const second = await startOk(sam, { package: packages[1].id, method: 'ideal' });
    await payerChooses(second.order.id, 'paid');
    const early = transactionResponseSchema.parse((await as(sam, 'GET', `${TRANSACTIONS}?id=${second.order.id}`)).json());
    expect(early.order.status).toBe('open');
    t.clock.advance(11_000);
    const late = transactionResponseSchema.parse((await as(sam, 'GET', `${TRANSACTIONS}?id=${second.order.id}`)).json());
    expect(late.order.status).toBe('paid');
    expect(late.receipt).not.toBeNull();
    // Neither a webhook nor the return page: the order's own check asks the provider a couple of minutes later.
    const third = await startOk(sam, { package: packages[2].id, method: 'ideal' });
    await payerChooses(third.order.id, 'paid');
    t.clock.advance(CHECK_AFTER_MS[0] + 1000);
    await t.ctx.jobs.runDue();
    expect((await orderRow(third.order.id)).status).toBe('paid');
    expect((await userRow(sam)).credits).toBe(before.credits + packages[0].credits + packages[1].credits + packages[2].credits);
    expect(await ledgerOf(third.order.id)).toHaveLength(1);
  });

  it('gives a failed payment discount back and credits nothing', async () => {
    const sam = await member();
    const before = await userRow(sam);
    const { packages } = await packagesOf(sam);
    const started = await startOk(sam, { package: packages[0].id, method: 'ideal', discountcode: 'TIMEBONUS25' });
    expect(started.order.discount).toBeGreaterThan(0);
    const payment = await payerChooses(started.order.id, 'failed');
    await notifyNow(t.app, payment);
    expect((await orderRow(started.order.id)).status).toBe('failed');
    expect((await userRow(sam)).credits).toBe(before.credits);
    // The code is free again for the next try, which is paid and uses it for good.
    const next = await startOk(sam, { package: packages[0].id, method: 'ideal', discountcode: 'TIMEBONUS25' });
    await notifyNow(t.app, await payerChooses(next.order.id, 'paid'));
    expect((await userRow(sam)).paidUser).toBe(true);
    const used = await start(sam, { package: packages[0].id, method: 'ideal', discountcode: 'TIMEBONUS25' });
    expect(used.statusCode).toBe(422);
    expect(String(used.json().error)).toMatch(/^discount_/);
  });

  it('answers on an address that is no site (PAYMENTS_PUBLIC_URL) in production, where other calls get 421', async () => {
    const production = await createTestApp({ isProduction: true, payments: { ...t.ctx.config.payments, sandbox: false } });
    try {
      const host = 'hooks.example.com';
      const res = await production.app.inject({
        method: 'POST',
        url: WEBHOOK,
        headers: { host, 'content-type': 'application/x-www-form-urlencoded' },
        payload: 'id=tr_abc123',
      });
      expect([res.statusCode, res.json().error]).toEqual([404, 'unknown_payment']);
      expect((await production.app.inject({ url: PACKAGES, headers: { host } })).statusCode).toBe(421);
    } finally {
      await production.close();
    }
  });

  it('needs no client header on the webhook only', async () => {
    const res = await t.app.inject({
      method: 'POST',
      url: '/api/complaint.php',
      headers: { host: 'amora.localhost:3000', 'content-type': 'application/json' },
      payload: '{}',
    });
    expect([res.statusCode, res.json().error]).toEqual([403, 'client_header_required']);
    const webhookWithout = await webhook('tr_notoneofours1');
    expect(webhookWithout.statusCode).toBe(404);
  });
});

describe('chargebacks', () => {
  it('takes the credits back up to the balance, records the rest as debt, blocks direct debit; a later purchase pays the debt first', async () => {
    const sam = await member();
    const { order, pkg, paymentId } = await buy(sam);
    const bought = (await userRow(sam)).credits;
    const siteId = order.siteId;
    // Most credits are spent before the bank takes the money back.
    await spend(t.ctx, { userId: sam.userId, siteId, amount: bought - 5, reason: 'message' });
    await chargeBackPayment(t.app, paymentId);
    const payment = await t.ctx.payments.getPayment(paymentId);
    expect(payment?.chargedBackMinor).toBeGreaterThan(0);
    await Promise.all(Array.from({ length: 5 }, () => webhook(paymentId)));
    const after = await userRow(sam);
    expect(after.credits).toBe(0);
    expect(after.creditDebt).toBe(pkg.credits - 5);
    expect(after.directDebitBlocked).toBe(true);
    expect((await orderRow(order.id)).status).toBe('charged_back');
    expect((await ledgerOf(order.id)).map((r) => [r.reason, r.delta]).sort()).toEqual(
      [
        ['chargeback', -5],
        ['purchase', pkg.credits],
      ].sort(),
    );
    const list = transactionsResponseSchema.parse((await as(sam, 'GET', TRANSACTIONS)).json());
    expect(list.credit_debt).toBe(pkg.credits - 5);
    expect(list.movements.find((m) => m.reason === 'chargeback')?.order_id).toBe(order.id);

    const blocked = await start(sam, { package: pkg.id, method: 'directdebit' });
    expect([blocked.statusCode, blocked.json().error]).toEqual([403, 'direct_debit_blocked']);

    const next = await buy(sam, 'ideal', 3);
    const paid = await userRow(sam);
    expect(paid.creditDebt).toBe(0);
    expect(paid.credits).toBe(next.pkg.credits - (pkg.credits - 5));
    expect((await ledgerOf(next.order.id)).map((r) => r.reason).sort()).toEqual(['debt', 'purchase']);
  });
});

describe('a chargeback seen first', () => {
  it('credits, then takes back: the first webhook the server sees is of a payment already charged back', async () => {
    const sam = await member();
    const before = await userRow(sam);
    const { packages } = await packagesOf(sam);
    const started = await startOk(sam, { package: packages[0].id, method: 'ideal' });
    const payment = await payerChooses(started.order.id, 'paid');
    await chargeBackPayment(t.app, payment.id);
    expect((await webhook(payment.id)).statusCode).toBe(200);
    const after = await userRow(sam);
    expect(after.credits).toBe(before.credits);
    expect(after.creditDebt).toBe(0);
    expect(after.directDebitBlocked).toBe(true);
    expect((await orderRow(started.order.id)).status).toBe('charged_back');
    const events = await t.ctx.db.select().from(paymentEvents).where(eq(paymentEvents.orderId, started.order.id));
    expect(events.map((e) => e.status).sort()).toEqual(['charged_back', 'paid']);
    const one = transactionResponseSchema.parse((await as(sam, 'GET', `${TRANSACTIONS}?id=${started.order.id}`)).json());
    expect([one.order.status, one.receipt]).toEqual(['charged_back', null]);
  });
});

describe('direct debit', () => {
  it('collects on the member mandate without a checkout, up to the open limit, and credits once settled', async () => {
    const sam = await member();
    const { siteId } = await userRow(sam);
    // The mandate as the direct-debit form leaves it: the provider's customer and mandate, and our rows of them.
    const customer = await t.ctx.payments.createCustomer({ name: sam.name });
    const mandate = await t.ctx.payments.createMandate(customer.id, {
      method: 'directdebit',
      consumerName: 'Sam Test',
      consumerAccount: 'NL55INGB0000000000',
    });
    await t.ctx.db.insert(paymentCustomers).values({ userId: sam.userId, provider: t.ctx.payments.name, customerId: customer.id });
    await t.ctx.db.insert(directDebitMandates).values({
      siteId,
      userId: sam.userId,
      accountHolder: 'Sam Test',
      ibanLast4: '0000',
      street: 'Damrak',
      houseNumber: '1',
      zip: '1012 LG',
      city: 'Amsterdam',
      phone: '+31612345678',
      provider: t.ctx.payments.name,
      providerMandateId: mandate.id,
    });
    const before = await userRow(sam);
    const { packages } = await packagesOf(sam);
    const methods = paymentMethodsResponseSchema.parse((await as(sam, 'GET', `${METHODS}?package=${packages[0].id}`)).json());
    expect(methods.methods.find((m) => m.name === 'directdebit')).toMatchObject({ needs_mandate: false, fee: 0 });

    const orders = [];
    for (let i = 0; i < DIRECT_DEBIT_OPEN_LIMIT; i++) {
      const started = await startOk(sam, { package: packages[0].id, method: 'directdebit' });
      expect(started.checkout_url).toBeNull();
      expect(started.order).toMatchObject({ status: 'pending', recurring: true, method: 'directdebit' });
      expect((await orderRow(started.order.id)).mandateId).toBe(mandate.id);
      orders.push(started.order.id);
    }
    const limit = await start(sam, { package: packages[0].id, method: 'directdebit' });
    expect([limit.statusCode, limit.json().error]).toEqual([409, 'direct_debit_limit']);
    expect((await userRow(sam)).credits).toBe(before.credits);

    // The bank settles the debits (the sandbox after 30 s) and the webhooks come.
    t.clock.advance(31_000);
    await t.ctx.jobs.runDue();
    await t.ctx.jobs.runDue();
    for (const id of orders) expect((await orderRow(id)).status).toBe('paid');
    expect((await userRow(sam)).credits).toBe(before.credits + DIRECT_DEBIT_OPEN_LIMIT * packages[0].credits);

    // Repeating the last order debits the same mandate again, without a checkout.
    const repeat = startPaymentResponseSchema.parse((await as(sam, 'POST', REPEAT, { request_id: randomUUID() })).json());
    expect(repeat.checkout_url).toBeNull();
    expect(repeat.order).toMatchObject({ method: 'directdebit', recurring: true, status: 'pending', package_id: packages[0].id });
    expect((await orderRow(repeat.order.id)).mandateId).toBe(mandate.id);
  });
});

describe('transactions and receipts', () => {
  it("lists my orders and movements, shows a receipt of a paid order, and 404 for another member's order", async () => {
    const sam = await member();
    const { order, pkg } = await buy(sam, 'paypal');
    const list = transactionsResponseSchema.parse((await as(sam, 'GET', TRANSACTIONS)).json());
    expect(list.orders.map((o) => o.id)).toEqual([order.id]);
    expect(list.movements.map((m) => m.reason)).toEqual(['purchase', 'signup']);
    expect(list.movements[0]).toMatchObject({ delta: pkg.credits, order_id: order.id });
    const one = transactionResponseSchema.parse((await as(sam, 'GET', `${TRANSACTIONS}?id=${order.id}`)).json());
    expect(one.order.status).toBe('paid');
    const receipt = one.receipt;
    expect(receipt?.company).toMatchObject({ id: 1, name: 'Amora Media B.V.', vat_numbers: ['NL865432109B01'] });
    expect(receipt?.number).toBe(`${order.siteId}-${new Date().getUTCFullYear()}-${String(order.id).padStart(6, '0')}`);
    expect(receipt?.total).toBe(order.amountMinor);
    expect(receipt?.lines.reduce((sum, line) => sum + line.amount, 0)).toBe(order.amountMinor);
    expect(receipt?.lines.map((l) => l.kind)).toEqual(['package', 'discount', 'fee']);

    const other = await member();
    expect((await as(other, 'GET', `${TRANSACTIONS}?id=${order.id}`)).statusCode).toBe(404);
    expect((await as(other, 'GET', `${TRANSACTIONS}?id=99999999`)).statusCode).toBe(404);
    for (const q of ['?id=0', '?id=-1', '?id=abc', '?id=1e400', '?id=%00'])
      expect((await as(sam, 'GET', `${TRANSACTIONS}${q}`)).statusCode).toBe(400);
    // Herzklopfen's receipt names its own company.
    const berlin = await member({ host: HERZ });
    const herz = await buy(berlin, 'paypal');
    const herzOne = transactionResponseSchema.parse((await as(berlin, 'GET', `${TRANSACTIONS}?id=${herz.order.id}`)).json());
    expect(herzOne.receipt?.company).toMatchObject({ id: 5, vat_numbers: ['IE3456789LH'] });
    expect((await as(sam, 'GET', `${TRANSACTIONS}?id=${herz.order.id}`)).statusCode).toBe(404);
  });
});

describe('repeat order', () => {
  it('answers no_previous_order before a purchase, then repeats a card order with its mandate without a checkout', async () => {
    const sam = await member();
    const none = await as(sam, 'POST', REPEAT, { request_id: randomUUID() });
    expect([none.statusCode, none.json().error]).toEqual([404, 'no_previous_order']);
    const { order, pkg } = await buy(sam, 'visa', 1);
    expect(order.sequenceType).toBe('first');
    expect(order.mandateId).toMatch(/^mdt_/);
    const before = await userRow(sam);
    const res = await as(sam, 'POST', REPEAT, { request_id: randomUUID() });
    expect(res.statusCode, res.body).toBe(201);
    const body = startPaymentResponseSchema.parse(res.json());
    expect(body.checkout_url).toBeNull();
    expect(body.order).toMatchObject({ method: 'visa', package_id: pkg.id, recurring: true, status: 'paid' });
    expect((await userRow(sam)).credits).toBe(before.credits + pkg.credits);
    expect((await packagesOf(sam)).last_order).toEqual({ package_id: pkg.id, method: 'visa' });
    expect((await as(sam, 'POST', REPEAT, { request_id: 'x' })).statusCode).toBe(400);
  });

  it('repeats an iDEAL order with a new checkout of the same method', async () => {
    const sam = await member();
    const { pkg } = await buy(sam, 'ideal', 2);
    const body = startPaymentResponseSchema.parse((await as(sam, 'POST', REPEAT, { request_id: randomUUID() })).json());
    expect(body.order).toMatchObject({ method: 'ideal', package_id: pkg.id, status: 'open', recurring: false });
    expect(body.checkout_url).toMatch(/\/sandbox\/checkout\//);
  });
});

describe('the purge', () => {
  it("keeps a deleted member's orders as money records without the member", async () => {
    const sam = await member();
    const { order } = await buy(sam);
    await t.ctx.db
      .update(users)
      .set({ status: 'deleted', deletedAt: new Date(Date.now() - 30 * 86_400_000) })
      .where(eq(users.id, sam.userId));
    await purgeDeletedAccounts(t.ctx);
    const kept = await orderRow(order.id);
    expect(kept).toMatchObject({ userId: null, status: 'paid', amountMinor: order.amountMinor });
    expect(await ledgerOf(order.id)).toHaveLength(1);
    expect(
      await t.ctx.db
        .select()
        .from(users)
        .where(and(eq(users.id, sam.userId))),
    ).toEqual([]);
  });
});

import { randomUUID } from 'node:crypto';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { createTestApp, request, type TestApp } from '../../../test/harness';
import { SANDBOX_API_KEY } from '../provider';
import type { CreatePaymentInput } from '../provider/provider';

let t: TestApp;
/** Webhook calls this app received in process: path, body, content type. */
const received: { path: string; body: string; type: string | undefined }[] = [];
/** Answers the test webhook gives, first to last; 200 once they are used up. */
let answers: number[] = [];

const SITE = 'http://amora.localhost:3000';

async function webhookReceiver(app: FastifyInstance) {
  await app.register(async (scope) => {
    scope.addContentTypeParser('application/x-www-form-urlencoded', { parseAs: 'string' }, (_request, body, done) => done(null, body));
    scope.post('/test/webhook', async (req, reply) => {
      received.push({ path: req.url, body: String(req.body), type: req.headers['content-type'] });
      return reply.status(answers.shift() ?? 200).send('ok');
    });
  });
}

beforeAll(async () => {
  t = await createTestApp({}, { beforeReady: webhookReceiver });
});
afterAll(() => t.close());
beforeEach(() => {
  received.length = 0;
  answers = [];
  t.clock.set(new Date());
});

function input(overrides: Partial<CreatePaymentInput> = {}): CreatePaymentInput {
  return {
    amount: { minor: 1499, currency: 'EUR' },
    description: 'Amora: 100 credits',
    redirectUrl: `${SITE}/en/transactions/7`,
    webhookUrl: `${SITE}/test/webhook`,
    locale: 'en_GB',
    billingCountry: 'NL',
    sequenceType: 'oneoff',
    metadata: { orderId: 7, siteId: 1, userId: 1 },
    idempotencyKey: randomUUID(),
    ...overrides,
  };
}

function form(fields: Record<string, string>) {
  return { 'content-type': 'application/x-www-form-urlencoded', payload: new URLSearchParams(fields).toString() };
}

async function pay(id: string, fields: Record<string, string>, headers: Record<string, string> = {}) {
  const { payload, ...type } = form(fields);
  return request(t.app, {
    method: 'POST',
    url: `/sandbox/checkout/${id}`,
    headers: { host: 'amora.localhost:3000', ...type, ...headers },
    payload,
  });
}

describe('test checkout page', () => {
  it('is labelled as a test, shows the amount and escapes the description', async () => {
    const payment = await t.ctx.payments.createPayment(
      input({ description: '<script>alert(1)</script> & "credits" <img src=x onerror=alert(2)>' }),
    );
    expect(payment.checkoutUrl).toBe(`${SITE}/sandbox/checkout/${payment.id}`);
    const page = await request(t.app, {
      method: 'GET',
      url: new URL(payment.checkoutUrl ?? '').pathname,
      headers: { host: 'amora.localhost:3000' },
    });
    expect(page.statusCode).toBe(200);
    expect(page.headers['content-type']).toContain('text/html');
    expect(page.body).toContain('TEST MODE');
    expect(page.body).toContain('€14.99');
    expect(page.body).toContain('&lt;script&gt;alert(1)&lt;/script&gt; &amp; &quot;credits&quot; &lt;img src=x onerror=alert(2)&gt;');
    expect(page.body).not.toContain('<script>alert');
    expect(page.body).not.toContain('<img src=x');
    expect(page.body).not.toMatch(/<script/i);
    // No method was asked for: the payer picks one of those offered for the amount and country.
    expect(page.body).toContain('value="ideal"');
    expect(page.body).not.toContain('value="bancontact"');
    for (const outcome of ['paid', 'failed', 'canceled', 'expired', 'pending'])
      expect(page.body).toContain(`name="status" value="${outcome}"`);
    // The redirect after the form is allowed by the page's CSP; scripts stay off.
    const csp = String(page.headers['content-security-policy']);
    expect(csp).toContain(`form-action 'self' ${SITE}`);
    expect(csp).toContain("script-src 'self'");
  });

  it('answers an unknown payment with a 404 page', async () => {
    for (const id of ['tr_unknown123', 'nonsense', '<b>']) {
      const page = await request(t.app, { method: 'GET', url: `/sandbox/checkout/${encodeURIComponent(id)}` });
      expect(page.statusCode).toBe(404);
      expect(page.body).toContain('Payment not found');
      expect(page.body).not.toContain('<b>');
    }
    expect((await pay('tr_unknown123', { status: 'paid' })).statusCode).toBe(404);
  });

  it('pays with the card chosen, calls the webhook three times before the redirect, then redirects', async () => {
    const payment = await t.ctx.payments.createPayment(input());
    const answer = await pay(payment.id, { status: 'paid', method: 'creditcard', card: 'Mastercard', webhook: 'before', copies: '3' });
    expect(answer.statusCode).toBe(303);
    expect(answer.headers.location).toBe(`${SITE}/en/transactions/7`);
    expect(received).toEqual(
      Array.from({ length: 3 }, () => ({ path: '/test/webhook', body: `id=${payment.id}`, type: 'application/x-www-form-urlencoded' })),
    );
    const paid = await t.ctx.payments.getPayment(payment.id);
    expect(paid).toMatchObject({ status: 'paid', method: 'creditcard', checkoutUrl: null });
    expect(paid?.paidAt).toBeTruthy();
    const raw = await request(t.app, {
      method: 'GET',
      url: `/sandbox/mollie/v2/payments/${payment.id}`,
      headers: { authorization: `Bearer ${SANDBOX_API_KEY}` },
    });
    expect(raw.json().details).toMatchObject({ cardLabel: 'Mastercard', cardNumber: '4444' });
  });

  it('calls the webhook after the redirect by default, through the webhook job', async () => {
    const payment = await t.ctx.payments.createPayment(input({ method: 'ideal' }));
    const answer = await pay(payment.id, { status: 'failed', issuer: 'ING', copies: '2' });
    expect(answer.headers.location).toBe(`${SITE}/en/transactions/7`);
    expect(received).toHaveLength(0);
    expect((await t.ctx.payments.getPayment(payment.id))?.status).toBe('failed');
    t.clock.advance(2_000);
    await t.ctx.jobs.runDue();
    expect(received.map((r) => r.body)).toEqual([`id=${payment.id}`, `id=${payment.id}`]);
  });

  it('sends a canceled payer to the cancel URL, and takes each outcome once', async () => {
    const payment = await t.ctx.payments.createPayment(input({ cancelUrl: `${SITE}/en/credits` }));
    const canceled = await pay(payment.id, { status: 'canceled', webhook: 'before' });
    expect(canceled.headers.location).toBe(`${SITE}/en/credits`);
    expect(received).toHaveLength(1);
    // A second click: nothing changes, the page says what it is.
    const again = await pay(payment.id, { status: 'paid', webhook: 'before' });
    expect(again.statusCode).toBe(303);
    expect(again.headers.location).toBe(`/sandbox/checkout/${payment.id}`);
    expect(received).toHaveLength(1);
    expect((await t.ctx.payments.getPayment(payment.id))?.status).toBe('canceled');
    const page = await request(t.app, { method: 'GET', url: `/sandbox/checkout/${payment.id}` });
    expect(page.body).toContain('can no longer be paid');
  });

  it('takes one outcome when the payer clicks twice at once', async () => {
    const payment = await t.ctx.payments.createPayment(input());
    const answers = await Promise.all([
      pay(payment.id, { status: 'paid', webhook: 'before' }),
      pay(payment.id, { status: 'failed', webhook: 'before' }),
    ]);
    expect(answers.filter((a) => a.headers.location === `${SITE}/en/transactions/7`)).toHaveLength(1);
    expect(received).toHaveLength(1);
  });

  it('expires, or leaves pending without a webhook, as chosen', async () => {
    const expired = await t.ctx.payments.createPayment(input());
    await pay(expired.id, { status: 'expired', webhook: 'before' });
    expect((await t.ctx.payments.getPayment(expired.id))?.status).toBe('expired');
    expect(received).toHaveLength(1);
    const pending = await t.ctx.payments.createPayment(input({ method: 'banktransfer' }));
    await pay(pending.id, { status: 'pending', webhook: 'before' });
    expect((await t.ctx.payments.getPayment(pending.id))?.status).toBe('pending');
    expect(received).toHaveLength(1);
  });

  it('never calls the webhook when told so (a lost webhook)', async () => {
    const payment = await t.ctx.payments.createPayment(input());
    await pay(payment.id, { status: 'paid', webhook: 'none' });
    t.clock.advance(5_000);
    await t.ctx.jobs.runDue();
    expect(received).toHaveLength(0);
    expect((await t.ctx.payments.getPayment(payment.id))?.status).toBe('paid');
  });

  it('charges back late when asked, and calls the webhook again', async () => {
    const payment = await t.ctx.payments.createPayment(input());
    await pay(payment.id, { status: 'paid', webhook: 'before', chargeback_after: '30' });
    expect(received).toHaveLength(1);
    t.clock.advance(10_000);
    await t.ctx.jobs.runDue();
    expect((await t.ctx.payments.getPayment(payment.id))?.chargedBackMinor).toBe(0);
    t.clock.advance(21_000);
    await t.ctx.jobs.runDue();
    expect(await t.ctx.payments.getPayment(payment.id)).toMatchObject({ status: 'paid', chargedBackMinor: 1499 });
    expect(received).toHaveLength(2);
  });

  it('refuses a form posted from another site, and a missing outcome', async () => {
    const payment = await t.ctx.payments.createPayment(input());
    expect((await pay(payment.id, { status: 'paid' }, { 'sec-fetch-site': 'cross-site' })).statusCode).toBe(403);
    expect((await pay(payment.id, { status: 'refunded' })).statusCode).toBe(400);
    expect((await pay(payment.id, {})).statusCode).toBe(400);
    expect((await t.ctx.payments.getPayment(payment.id))?.status).toBe('open');
  });

  it('makes a mandate when a first payment is paid', async () => {
    const customer = await t.ctx.payments.createCustomer({ name: 'Member' });
    const payment = await t.ctx.payments.createPayment(input({ sequenceType: 'first', customerId: customer.id }));
    await pay(payment.id, { status: 'paid', method: 'creditcard', card: 'Visa' });
    const [mandate] = await t.ctx.payments.listMandates(customer.id);
    expect(mandate).toMatchObject({ method: 'creditcard', status: 'valid' });
    expect((await t.ctx.payments.getPayment(payment.id))?.mandateId).toBe(mandate?.id);
    const recurring = await t.ctx.payments.createPayment(
      input({ sequenceType: 'recurring', customerId: customer.id, redirectUrl: undefined }),
    );
    expect(recurring).toMatchObject({ status: 'paid', method: 'creditcard', checkoutUrl: null });
  });

  it('makes one mandate when the payer of a first payment clicks paid twice at once', async () => {
    const customer = await t.ctx.payments.createCustomer({ name: 'Member' });
    const payment = await t.ctx.payments.createPayment(input({ sequenceType: 'first', customerId: customer.id, method: 'ideal' }));
    await Promise.all([pay(payment.id, { status: 'paid' }), pay(payment.id, { status: 'paid' })]);
    const mandates = await t.ctx.payments.listMandates(customer.id);
    expect(mandates).toHaveLength(1);
    expect(mandates[0]).toMatchObject({ method: 'directdebit', status: 'valid' });
    expect((await t.ctx.payments.getPayment(payment.id))?.mandateId).toBe(mandates[0]?.id);
  });

  it('expires an open payment after 15 minutes and says so to the webhook', async () => {
    const payment = await t.ctx.payments.createPayment(input());
    t.clock.advance(16 * 60_000);
    await t.ctx.jobs.runDue();
    expect((await t.ctx.payments.getPayment(payment.id))?.status).toBe('expired');
    expect(received.map((r) => r.body)).toContain(`id=${payment.id}`);
  });
});

describe('webhook delivery', () => {
  it('retries a webhook that did not answer 2xx, through the job', async () => {
    const payment = await t.ctx.payments.createPayment(input());
    answers = [500, 503];
    await pay(payment.id, { status: 'paid', webhook: 'before' });
    expect(received).toHaveLength(1);
    t.clock.advance(31_000);
    await t.ctx.jobs.runDue();
    expect(received).toHaveLength(2);
    t.clock.advance(31_000);
    await t.ctx.jobs.runDue();
    expect(received).toHaveLength(3);
    t.clock.advance(5 * 60_000);
    await t.ctx.jobs.runDue();
    expect(received).toHaveLength(3);
  });

  it('calls a webhook on another server over HTTP with the form body id=tr_…', async () => {
    const calls: { method?: string; url?: string; type?: string; body: string }[] = [];
    const server: Server = createServer((req, res) => {
      let body = '';
      req.on('data', (c) => {
        body += c;
      });
      req.on('end', () => {
        calls.push({ method: req.method, url: req.url, type: req.headers['content-type'], body });
        res.end('ok');
      });
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    try {
      const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/hook?site=1`;
      const payment = await t.ctx.payments.createPayment(input({ webhookUrl: url }));
      await pay(payment.id, { status: 'paid', webhook: 'before' });
      expect(calls).toEqual([{ method: 'POST', url: '/hook?site=1', type: 'application/x-www-form-urlencoded', body: `id=${payment.id}` }]);
      expect(received).toHaveLength(0);
    } finally {
      await new Promise<void>((resolve) => server.close(() => resolve()));
    }
  });
});

describe('dashboard', () => {
  it('lists recent payments, escaped, with their actions', async () => {
    const payment = await t.ctx.payments.createPayment(input({ description: 'Credits <b>bold</b>' }));
    const page = await request(t.app, { method: 'GET', url: '/sandbox' });
    expect(page.statusCode).toBe(200);
    expect(page.body).toContain('TEST MODE');
    expect(page.body).toContain(payment.id);
    expect(page.body).toContain('Credits &lt;b&gt;bold&lt;/b&gt;');
    expect(page.body).toContain(`/sandbox/payments/${payment.id}/settle`);
    const notice = await request(t.app, { method: 'GET', url: '/sandbox?notice=%3Cscript%3Ex' });
    expect(notice.body).toContain('&lt;script&gt;x');
    expect(notice.body).not.toMatch(/<script/i);
  });

  it('settles a pending payment as paid or failed and calls the webhook', async () => {
    const first = await t.ctx.payments.createPayment(input());
    const second = await t.ctx.payments.createPayment(input());
    await pay(first.id, { status: 'pending' });
    await pay(second.id, { status: 'pending' });
    const { payload, ...type } = form({ status: 'paid' });
    const settled = await request(t.app, { method: 'POST', url: `/sandbox/payments/${first.id}/settle`, headers: type, payload });
    expect(settled.statusCode).toBe(303);
    expect(decodeURIComponent(String(settled.headers.location))).toContain(`${first.id} settled: webhook answered 200`);
    expect((await t.ctx.payments.getPayment(first.id))?.status).toBe('paid');
    const failed = form({ status: 'failed' });
    await request(t.app, {
      method: 'POST',
      url: `/sandbox/payments/${second.id}/settle`,
      headers: { 'content-type': failed['content-type'] },
      payload: failed.payload,
    });
    expect((await t.ctx.payments.getPayment(second.id))?.status).toBe('failed');
    expect(received.map((r) => r.body)).toEqual([`id=${first.id}`, `id=${second.id}`]);
  });

  it('charges back a paid payment once, with a webhook, and does nothing to one that is not paid', async () => {
    const payment = await t.ctx.payments.createPayment(input());
    await pay(payment.id, { status: 'paid', webhook: 'none' });
    const charge = () => request(t.app, { method: 'POST', url: `/sandbox/payments/${payment.id}/chargeback` });
    expect((await charge()).statusCode).toBe(303);
    expect(await t.ctx.payments.getPayment(payment.id)).toMatchObject({ status: 'paid', chargedBackMinor: 1499 });
    expect(received).toHaveLength(1);
    const again = await charge();
    expect(decodeURIComponent(String(again.headers.location))).toContain('nothing to do');
    expect(received).toHaveLength(1);
    const open = await t.ctx.payments.createPayment(input());
    await request(t.app, { method: 'POST', url: `/sandbox/payments/${open.id}/chargeback` });
    expect((await t.ctx.payments.getPayment(open.id))?.chargedBackMinor).toBe(0);
    expect((await request(t.app, { method: 'POST', url: '/sandbox/payments/tr_unknown123/chargeback' })).statusCode).toBe(404);
  });
});

describe('request gate', () => {
  it('lets the sandbox forms through without the client header, and still refuses an API change without it', async () => {
    const payment = await t.ctx.payments.createPayment(input());
    expect((await pay(payment.id, { status: 'paid' })).statusCode).toBe(303);
    const api = await request(t.app, { method: 'POST', url: '/api/user.php', payload: { email: 'a@example.com', password: 'x' } });
    expect(api.statusCode).toBe(403);
    expect(api.json().error).toBe('client_header_required');
  });
});

describe('mounting', () => {
  it('is not there when the sandbox is off (MOLLIE_API_KEY set, or production without PAYMENTS_SANDBOX)', async () => {
    const off = await createTestApp({
      payments: {
        mollieApiKey: 'test_abcdefghijklmnopqrstuvwxyz12',
        mollieApiUrl: 'http://127.0.0.1:9/v2/',
        publicUrl: null,
        sandbox: false,
      },
    });
    try {
      expect(off.ctx.payments.name).toBe('mollie');
      const dashboard = await request(off.app, { method: 'GET', url: '/sandbox' });
      expect(dashboard.body).not.toContain('Payment sandbox');
      const api = await request(off.app, {
        method: 'GET',
        url: '/sandbox/mollie/v2/methods',
        headers: { authorization: `Bearer ${SANDBOX_API_KEY}` },
      });
      expect(api.body).not.toContain('"resource":"method"');
      const checkout = await request(off.app, { method: 'POST', url: '/sandbox/checkout/tr_abc1234567', ...form({ status: 'paid' }) });
      expect(checkout.statusCode).toBe(404);
    } finally {
      await off.close();
    }
  });
});

describe('across processes', () => {
  it.skipIf(process.env.AMORA_TEST_DB !== 'postgres')('a payment made through one process is paid on the checkout of another', async () => {
    const other = await createTestApp({}, { joining: t, beforeReady: webhookReceiver });
    try {
      const payment = await t.ctx.payments.createPayment(input());
      expect((await other.ctx.payments.getPayment(payment.id))?.status).toBe('open');
      const { payload, ...type } = form({ status: 'paid', webhook: 'before' });
      const answer = await request(other.app, { method: 'POST', url: `/sandbox/checkout/${payment.id}`, headers: type, payload });
      expect(answer.statusCode).toBe(303);
      expect((await t.ctx.payments.getPayment(payment.id))?.status).toBe('paid');
      expect(received.map((r) => r.body)).toEqual([`id=${payment.id}`]);
    } finally {
      await other.close();
    }
  });
});

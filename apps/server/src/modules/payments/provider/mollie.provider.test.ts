import { randomUUID } from 'node:crypto';
import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { sandboxPayments } from '@amora/db';
import { MollieApiError } from '@mollie/api-client';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../../../config';
import { createTestApp, type TestApp } from '../../../test/harness';
import { createHttpSandboxProvider, createPaymentProvider, SANDBOX_API_KEY } from '.';
import type { CreatePaymentInput, PaymentProvider } from './provider';

let t: TestApp;
let base: string;
let provider: PaymentProvider;

beforeAll(async () => {
  t = await createTestApp();
  await t.app.listen({ port: 0, host: '127.0.0.1' });
  base = `http://localhost:${(t.app.server.address() as AddressInfo).port}`;
  provider = createHttpSandboxProvider(base);
});
afterAll(() => t.close());

function input(overrides: Partial<CreatePaymentInput> = {}): CreatePaymentInput {
  return {
    amount: { minor: 1499, currency: 'EUR' },
    description: 'Amora: 100 credits',
    redirectUrl: 'http://amora.localhost:3000/en/transactions/1',
    webhookUrl: 'http://amora.localhost:3000/api/payments/webhook',
    locale: 'en_GB',
    billingCountry: 'NL',
    sequenceType: 'oneoff',
    metadata: { orderId: 1, siteId: 1, userId: 1 },
    idempotencyKey: randomUUID(),
    ...overrides,
  };
}

const ids = (methods: { id: string }[]) => methods.map((m) => m.id).sort();

async function raw(path: string, init: RequestInit & { key?: string | null } = {}) {
  const headers = new Headers(init.headers);
  if (init.key !== null) headers.set('authorization', `Bearer ${init.key ?? SANDBOX_API_KEY}`);
  if (init.body) headers.set('content-type', 'application/json');
  const response = await fetch(`${base}/sandbox/mollie/v2${path}`, { ...init, headers });
  return { status: response.status, type: response.headers.get('content-type'), body: (await response.json()) as Record<string, unknown> };
}

describe('methods', () => {
  it('lists what Mollie offers a Dutch payer in euros, without giropay, SOFORT or direct debit', async () => {
    const methods = await provider.listMethods({ amount: { minor: 1499, currency: 'EUR' }, billingCountry: 'NL', locale: 'nl_NL' });
    expect(ids(methods)).toEqual(['applepay', 'banktransfer', 'creditcard', 'ideal', 'paypal', 'paysafecard']);
    expect(methods.find((m) => m.id === 'creditcard')?.description).toBe('Creditcard');
  });

  it('filters by country and currency: Bancontact in Belgium, EPS in Austria, BLIK only in złoty', async () => {
    const eur = (country: string) => provider.listMethods({ amount: { minor: 2000, currency: 'EUR' }, billingCountry: country });
    expect(ids(await eur('BE'))).toContain('bancontact');
    expect(ids(await eur('BE'))).not.toContain('ideal');
    expect(ids(await eur('AT'))).toContain('eps');
    expect(ids(await eur('PL'))).not.toContain('blik');
    const pln = await provider.listMethods({ amount: { minor: 8000, currency: 'PLN' }, billingCountry: 'PL' });
    expect(ids(pln)).toEqual(['applepay', 'blik', 'creditcard', 'paypal']);
    const gbp = await provider.listMethods({ amount: { minor: 999, currency: 'GBP' }, billingCountry: 'GB' });
    expect(ids(gbp)).toEqual(['applepay', 'creditcard', 'paypal']);
  });

  it('filters by amount: paysafecard up to 1,000 euros, EPS from 1 euro', async () => {
    const at = (minor: number) => provider.listMethods({ amount: { minor, currency: 'EUR' }, billingCountry: 'AT' });
    expect(ids(await at(150_000))).not.toContain('paysafecard');
    expect(ids(await at(100_000))).toContain('paysafecard');
    expect(ids(await at(50))).not.toContain('eps');
    expect(ids(await at(100))).toContain('eps');
  });

  it('lists card, PayPal and SEPA direct debit for recurring payments', async () => {
    const methods = await provider.listMethods({
      amount: { minor: 1499, currency: 'EUR' },
      billingCountry: 'DE',
      sequenceType: 'recurring',
    });
    expect(ids(methods)).toEqual(['creditcard', 'directdebit', 'paypal']);
  });
});

describe('payments', () => {
  it('creates a payment and reads it back in our terms', async () => {
    const created = await provider.createPayment(input());
    expect(created).toMatchObject({
      status: 'open',
      amount: { minor: 1499, currency: 'EUR' },
      method: null,
      sequenceType: 'oneoff',
      chargedBackMinor: 0,
      metadata: { orderId: 1, siteId: 1, userId: 1 },
    });
    expect(created.id).toMatch(/^tr_[A-Za-z0-9]{10}$/);
    // The checkout is on the site the payer returns to.
    expect(created.checkoutUrl).toBe(`http://amora.localhost:3000/sandbox/checkout/${created.id}`);
    expect(await provider.getPayment(created.id)).toEqual(created);
  });

  it('answers twenty parallel creates with one idempotency key with one payment', async () => {
    const key = randomUUID();
    const results = await Promise.all(Array.from({ length: 20 }, () => provider.createPayment(input({ idempotencyKey: key }))));
    expect(new Set(results.map((p) => p.id)).size).toBe(1);
    const rows = await t.ctx.db.select().from(sandboxPayments).where(eq(sandboxPayments.idempotencyKey, key));
    expect(rows).toHaveLength(1);
  });

  it('takes a method asked for, and refuses one that cannot take the payment as Mollie does', async () => {
    expect((await provider.createPayment(input({ method: 'ideal' }))).method).toBe('ideal');
    const refused = await provider.createPayment(input({ method: 'ideal', amount: { minor: 1000, currency: 'GBP' } })).catch((e) => e);
    expect(refused).toBeInstanceOf(MollieApiError);
    expect(refused).toMatchObject({ statusCode: 422, field: 'amount.currency' });
    const giropay = await provider.createPayment(input({ method: 'giropay' })).catch((e) => e);
    expect(giropay).toMatchObject({ statusCode: 422, field: 'method', message: 'The payment method giropay is no longer available' });
  });

  it('knows nothing of an unknown or malformed id', async () => {
    expect(await provider.getPayment('tr_unknown123')).toBeNull();
    expect(await provider.getPayment('nonsense')).toBeNull();
    const answer = await raw('/payments/tr_unknown123');
    expect(answer.status).toBe(404);
    expect(answer.type).toContain('application/hal+json');
    expect(answer.body).toMatchObject({ status: 404, title: 'Not Found', detail: 'No payment exists with token tr_unknown123.' });
  });

  it('refuses bad amounts and bad fields in Mollie shape', async () => {
    const body = (amount: unknown) => JSON.stringify({ amount, description: 'x', redirectUrl: 'http://amora.localhost/en/transactions/1' });
    for (const amount of [{ currency: 'EUR', value: '10' }, { currency: 'EUR', value: '-1.00' }, { currency: 'EUR' }, 'ten']) {
      const answer = await raw('/payments', { method: 'POST', body: body(amount) });
      expect(answer.status).toBe(422);
      expect(answer.body).toMatchObject({ status: 422, field: 'amount' });
    }
    const zero = await raw('/payments', { method: 'POST', body: body({ currency: 'EUR', value: '0.00' }) });
    expect(zero.body).toMatchObject({ status: 422, detail: 'The amount is lower than the minimum' });
    const noRedirect = await raw('/payments', {
      method: 'POST',
      body: JSON.stringify({ amount: { currency: 'EUR', value: '1.00' }, description: 'x' }),
    });
    expect(noRedirect.body).toMatchObject({ status: 422, field: 'redirectUrl' });
    const badJson = await raw('/payments', { method: 'POST', body: '{' });
    expect(badJson.status).toBe(400);
    expect(badJson.body).toMatchObject({ status: 400 });
    await expect(provider.createPayment(input({ amount: { minor: -5, currency: 'EUR' } }))).rejects.toThrow(RangeError);
  });

  it('refuses a request without the sandbox key with Mollie 401', async () => {
    for (const key of [null, 'live_abc', 'test_other']) {
      const answer = await raw('/methods', { key });
      expect(answer.status).toBe(401);
      expect(answer.body).toMatchObject({ status: 401, title: 'Unauthorized Request' });
    }
  });

  it('answers an unknown sandbox path with a Mollie 404', async () => {
    const answer = await raw('/orders');
    expect(answer.status).toBe(404);
    expect(answer.body).toMatchObject({ status: 404, title: 'Not Found' });
  });
});

describe('customers, mandates and recurring payments', () => {
  it('makes a SEPA mandate and a recurring payment on it that is pending until the bank settles it', async () => {
    const customer = await provider.createCustomer({ name: 'Test Member', email: 'member@example.com', metadata: { userId: 5 } });
    expect(customer.id).toMatch(/^cst_/);
    const refused = await provider
      .createMandate(customer.id, { method: 'directdebit', consumerName: 'Test Member', consumerAccount: 'NL00BANK0123456789' })
      .catch((e) => e);
    expect(refused).toMatchObject({ statusCode: 422, field: 'consumerAccount' });
    // Without a mandate a recurring payment is refused.
    const early = await provider.createPayment(input({ sequenceType: 'recurring', customerId: customer.id })).catch((e) => e);
    expect(early).toMatchObject({ statusCode: 422 });

    const mandate = await provider.createMandate(customer.id, {
      method: 'directdebit',
      consumerName: 'Test Member',
      consumerAccount: 'NL91 ABNA 0417 1643 00',
    });
    expect(mandate).toMatchObject({ method: 'directdebit', status: 'valid' });
    expect(await provider.listMandates(customer.id)).toEqual([mandate]);
    expect(await provider.listMandates('cst_unknown123')).toEqual([]);

    const recurring = await provider.createPayment(
      input({ sequenceType: 'recurring', customerId: customer.id, mandateId: mandate.id, redirectUrl: undefined }),
    );
    expect(recurring).toMatchObject({
      status: 'pending',
      method: 'directdebit',
      checkoutUrl: null,
      mandateId: mandate.id,
      customerId: customer.id,
    });
    t.clock.advance(31_000);
    await t.ctx.jobs.runDue();
    expect((await provider.getPayment(recurring.id))?.status).toBe('paid');
    t.clock.set(new Date());
  });

  it('refuses a payment for an unknown customer', async () => {
    const error = await provider.createPayment(input({ sequenceType: 'first', customerId: 'cst_unknown123' })).catch((e) => e);
    expect(error).toMatchObject({ statusCode: 404 });
  });
});

describe('in process', () => {
  it('the harness provider reaches the sandbox of an app that is not listening', async () => {
    const app = await createTestApp();
    try {
      expect(app.ctx.payments.name).toBe('sandbox');
      const payment = await app.ctx.payments.createPayment(input());
      expect((await app.ctx.payments.getPayment(payment.id))?.status).toBe('open');
      expect(ids(await app.ctx.payments.listMethods({ amount: { minor: 1000, currency: 'EUR' }, billingCountry: 'BE' }))).toContain(
        'bancontact',
      );
    } finally {
      await app.close();
    }
  });
});

describe('with MOLLIE_API_KEY', () => {
  let stand: Server;
  let standBase: string;
  const seen: { method: string; url: string; headers: IncomingMessage['headers']; body: string }[] = [];
  const payment = (id: string, extra: Record<string, unknown> = {}) => ({
    resource: 'payment',
    id,
    mode: 'test',
    createdAt: '2026-01-01T00:00:00+00:00',
    amount: { value: '12.34', currency: 'EUR' },
    description: 'x',
    method: null,
    metadata: { orderId: 7 },
    status: 'open',
    isCancelable: false,
    profileId: 'pfl_x',
    sequenceType: 'oneoff',
    _links: {
      self: { href: `x/${id}`, type: 'application/hal+json' },
      checkout: { href: `https://www.mollie.com/checkout/${id}`, type: 'text/html' },
    },
    ...extra,
  });

  beforeAll(async () => {
    // A stand-in for Mollie's servers that records what the adapter sends and answers like Mollie.
    stand = createServer((request, response) => {
      let body = '';
      request.on('data', (chunk) => {
        body += chunk;
      });
      request.on('end', () => {
        seen.push({ method: request.method ?? '', url: request.url ?? '', headers: request.headers, body });
        response.setHeader('content-type', 'application/hal+json');
        if (request.url?.startsWith('/v2/methods')) {
          response.end(
            JSON.stringify({ count: 1, _embedded: { methods: [{ resource: 'method', id: 'ideal', description: 'iDEAL' }] }, _links: {} }),
          );
        } else if (request.url === '/v2/payments/tr_gone12345') {
          response.statusCode = 404;
          response.end(JSON.stringify({ status: 404, title: 'Not Found', detail: 'No payment exists with token tr_gone12345.' }));
        } else {
          response.statusCode = request.method === 'POST' ? 201 : 200;
          response.end(JSON.stringify(payment('tr_recorded01', { amountChargedBack: { value: '12.34', currency: 'EUR' } })));
        }
      });
    });
    await new Promise<void>((resolve) => stand.listen(0, '127.0.0.1', resolve));
    standBase = `http://127.0.0.1:${(stand.address() as AddressInfo).port}/v2/`;
  });
  afterAll(() => new Promise<void>((resolve) => stand.close(() => resolve())));

  it('selects Mollie by the key and the sandbox without it, and nothing in production without either', () => {
    const key = 'test_abcdefghijklmnopqrstuvwxyz12';
    expect(createPaymentProvider(loadConfig({ NODE_ENV: 'test', MOLLIE_API_KEY: key })).name).toBe('mollie');
    expect(createPaymentProvider(loadConfig({ NODE_ENV: 'test' })).name).toBe('sandbox');
    expect(loadConfig({ NODE_ENV: 'production' }).payments.sandbox).toBe(false);
  });

  it('sends Mollie the request shapes of its API v2', async () => {
    const mollie = createPaymentProvider(
      loadConfig({ NODE_ENV: 'test', MOLLIE_API_KEY: 'test_abcdefghijklmnopqrstuvwxyz12', MOLLIE_API_URL: standBase }),
    );
    const key = randomUUID();
    const created = await mollie.createPayment(
      input({
        amount: { minor: 1234, currency: 'EUR' },
        idempotencyKey: key,
        method: 'ideal',
        // Mollie cannot call localhost: the adapter leaves such a webhook out.
        webhookUrl: 'http://amora.localhost:3000/api/payments/webhook',
      }),
    );
    expect(created).toMatchObject({ id: 'tr_recorded01', amount: { minor: 1234, currency: 'EUR' }, chargedBackMinor: 1234 });
    expect(created.checkoutUrl).toBe('https://www.mollie.com/checkout/tr_recorded01');
    const post = seen.at(-1);
    expect(post?.method).toBe('POST');
    expect(post?.url).toBe('/v2/payments');
    expect(post?.headers.authorization).toBe('Bearer test_abcdefghijklmnopqrstuvwxyz12');
    expect(post?.headers['idempotency-key']).toBe(key);
    const sent = JSON.parse(post?.body ?? '{}');
    expect(sent).toMatchObject({
      amount: { currency: 'EUR', value: '12.34' },
      description: 'Amora: 100 credits',
      redirectUrl: 'http://amora.localhost:3000/en/transactions/1',
      method: 'ideal',
      locale: 'en_GB',
      restrictPaymentMethodsToCountry: 'NL',
      sequenceType: 'oneoff',
      metadata: { orderId: 1, siteId: 1, userId: 1 },
    });
    expect(sent).not.toHaveProperty('webhookUrl');
    expect(sent).not.toHaveProperty('idempotencyKey');

    await mollie.createPayment(
      input({ webhookUrl: 'https://pay.example.com/api/payments/webhook', customerId: 'cst_abc1234567', sequenceType: 'first' }),
    );
    expect(seen.at(-1)?.url).toBe('/v2/customers/cst_abc1234567/payments');
    expect(JSON.parse(seen.at(-1)?.body ?? '{}').webhookUrl).toBe('https://pay.example.com/api/payments/webhook');

    const methods = await mollie.listMethods({ amount: { minor: 1000, currency: 'EUR' }, locale: 'nl_NL', billingCountry: 'nl' });
    expect(methods).toEqual([{ id: 'ideal', description: 'iDEAL' }]);
    const listed = new URL(seen.at(-1)?.url ?? '', 'http://x');
    expect(listed.pathname).toBe('/v2/methods');
    expect(Object.fromEntries(listed.searchParams)).toEqual({
      'amount[value]': '10.00',
      'amount[currency]': 'EUR',
      locale: 'nl_NL',
      billingCountry: 'NL',
      includeWallets: 'applepay',
    });

    expect(await mollie.getPayment('tr_gone12345')).toBeNull();
    expect(seen.at(-1)).toMatchObject({ method: 'GET', url: '/v2/payments/tr_gone12345' });
  });
});

describe('under Node', () => {
  it('loads the library as Node does (CommonJS, not the ESM build the test runner picks) and makes both providers', async () => {
    const { execFile } = await import('node:child_process');
    const { fileURLToPath } = await import('node:url');
    const index = fileURLToPath(new URL('./index.ts', import.meta.url));
    const cli = fileURLToPath(new URL('../../../../../../node_modules/tsx/dist/cli.mjs', import.meta.url));
    const code = `import { createPaymentProvider } from ${JSON.stringify(index)};
const sandbox = createPaymentProvider({ port: 3000, payments: { mollieApiKey: null, mollieApiUrl: null, publicUrl: null, sandbox: true } });
const mollie = createPaymentProvider({ port: 3000, payments: { mollieApiKey: 'test_abcdefghijklmnopqrstuvwxyz12', mollieApiUrl: null, publicUrl: null, sandbox: false } });
console.log(sandbox.name, mollie.name);`;
    const output = await new Promise<string>((resolve, reject) =>
      execFile(process.execPath, [cli, '--input-type=module', '-e', code], { timeout: 30_000 }, (error, stdout, stderr) =>
        error ? reject(new Error(`${error.message}\n${stderr}`)) : resolve(stdout),
      ),
    );
    expect(output.trim()).toBe('sandbox mollie');
  });
});

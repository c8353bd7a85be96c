import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, request, type TestApp } from '../../../test/harness';
import { SANDBOX_API_KEY } from '../provider';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(() => t.close());

const AUTH = { authorization: `Bearer ${SANDBOX_API_KEY}` };
const NUL = '\u0000';

async function call(method: 'GET' | 'POST' | 'DELETE', url: string, body?: unknown, headers: Record<string, string> = {}) {
  const response = await request(t.app, {
    method,
    url,
    headers: { ...AUTH, ...(body === undefined ? {} : { 'content-type': 'application/json' }), ...headers },
    ...(body === undefined ? {} : { payload: typeof body === 'string' ? body : JSON.stringify(body) }),
  });
  return { status: response.statusCode, body: response.json() as Record<string, unknown> };
}

const good = { amount: { currency: 'EUR', value: '10.00' }, description: 'x', redirectUrl: 'http://amora.localhost/en/transactions/1' };

describe('sandbox API under malformed input', () => {
  it('answers every malformed request in Mollie shape, never with a 5xx', async () => {
    const customer = await call('POST', '/sandbox/mollie/v2/customers', { name: 'x' });
    const cst = customer.body.id as string;
    const bodies: unknown[] = [
      '[]',
      '"x"',
      'null',
      '{',
      { amount: null },
      { ...good, description: 123 },
      { ...good, description: `a${NUL}b` },
      { ...good, description: 'x'.repeat(300) },
      { ...good, metadata: { note: `a${NUL}` } },
      { ...good, metadata: 'x'.repeat(2000) },
      { ...good, method: [] },
      { ...good, method: {} },
      { ...good, method: 5 },
      { ...good, method: ['ideal', 'bitcoin'] },
      { ...good, sequenceType: 'weekly' },
      { ...good, locale: 'xx_XX' },
      { ...good, restrictPaymentMethodsToCountry: 'nl' },
      { ...good, redirectUrl: 'javascript:alert(1)' },
      { ...good, webhookUrl: 'not a url' },
      { ...good, customerId: `cst_${NUL}` },
      { ...good, customerId: 'x'.repeat(100) },
      { ...good, sequenceType: 'recurring', customerId: cst, mandateId: `mdt_${NUL}` },
      { ...good, amount: { currency: 'EUR', value: '99999999999999.00' } },
      { ...good, amount: { currency: 'XXX', value: '1.00' } },
    ];
    for (const body of bodies) {
      for (const url of ['/sandbox/mollie/v2/payments', `/sandbox/mollie/v2/customers/${cst}/payments`]) {
        // On a customer's payments the path names the customer; a customerId in the body is not read there.
        if (url.includes('/customers/') && typeof body === 'object' && body !== null && 'customerId' in body && !('mandateId' in body))
          continue;
        const answer = await call('POST', url, body);
        expect(answer.status, `${url} ${JSON.stringify(body)}`).toBeGreaterThanOrEqual(400);
        expect(answer.status, `${url} ${JSON.stringify(body)}`).toBeLessThan(500);
        expect(answer.body.status).toBe(answer.status);
      }
    }
    for (const body of [
      '[]',
      { method: 'directdebit' },
      { method: 'directdebit', consumerName: `a${NUL}`, consumerAccount: 'NL91ABNA0417164300' },
      { method: 'paypal', consumerName: 'x' },
    ]) {
      const answer = await call('POST', `/sandbox/mollie/v2/customers/${cst}/mandates`, body);
      expect(answer.status).toBe(422);
    }
    for (const body of [{ email: 'nope' }, { name: `a${NUL}` }, { metadata: { a: NUL } }]) {
      expect((await call('POST', '/sandbox/mollie/v2/customers', body)).status).toBe(422);
    }
    for (const key of [`k${NUL}`, 'x'.repeat(300), 'with space']) {
      const answer = await call('POST', '/sandbox/mollie/v2/payments', good, { 'idempotency-key': key });
      expect(answer.status).toBe(400);
    }
  });

  it('cancels an open payment once (DELETE /payments/:id), as Mollie does; then and for an unknown id it refuses', async () => {
    const created = await call('POST', '/sandbox/mollie/v2/payments', { ...good, method: 'banktransfer' });
    expect([created.status, created.body.isCancelable]).toEqual([201, true]);
    const id = created.body.id as string;
    const canceled = await call('DELETE', `/sandbox/mollie/v2/payments/${id}`);
    expect([canceled.status, canceled.body.status, canceled.body.isCancelable]).toEqual([200, 'canceled', false]);
    expect((await call('GET', `/sandbox/mollie/v2/payments/${id}`)).body.status).toBe('canceled');
    const again = await call('DELETE', `/sandbox/mollie/v2/payments/${id}`);
    expect(again.status).toBe(422);
    expect((await call('DELETE', '/sandbox/mollie/v2/payments/tr_unknown1')).status).toBe(404);
    expect((await call('DELETE', `/sandbox/mollie/v2/payments/${id}`, undefined, { authorization: 'Bearer nope' })).status).toBe(401);
  });

  it('cancels only what Mollie cancels: an open checkout of iDEAL, a card or PayPal is not cancelable and stays open', async () => {
    for (const method of ['ideal', 'creditcard', 'paypal', null]) {
      const created = await call('POST', '/sandbox/mollie/v2/payments', { ...good, ...(method ? { method } : {}) });
      expect([created.status, created.body.status, created.body.isCancelable], String(method)).toEqual([201, 'open', false]);
      const refused = await call('DELETE', `/sandbox/mollie/v2/payments/${created.body.id}`);
      expect(refused.status, String(method)).toBe(422);
      expect((await call('GET', `/sandbox/mollie/v2/payments/${created.body.id}`)).body.status).toBe('open');
    }
  });

  it('answers unknown and malformed ids with Mollie 404s', async () => {
    for (const url of [
      '/sandbox/mollie/v2/payments/tr_%00',
      `/sandbox/mollie/v2/payments/${'tr_'.padEnd(150, 'a')}`,
      '/sandbox/mollie/v2/payments/cst_abc',
      '/sandbox/mollie/v2/customers/cst_%00/mandates',
      '/sandbox/mollie/v2/customers/tr_abc',
      '/sandbox/mollie/v2/customers/cst_unknown1/payments',
      '/sandbox/mollie/v2/customers/cst_unknown1/mandates/mdt_%00',
    ]) {
      const answer = await call('GET', url);
      expect(answer.status, url).toBe(404);
      expect(answer.body).toMatchObject({ status: 404, title: 'Not Found' });
    }
  });

  it('answers a bad method query with a Mollie 400 or 422', async () => {
    for (const query of [
      'amount[value]=10&amount[currency]=EUR',
      'amount[value]=10.00',
      'locale=xx',
      'billingCountry=nl',
      'sequenceType=weekly',
    ]) {
      const answer = await call('GET', `/sandbox/mollie/v2/methods?${query}`);
      expect([400, 422], query).toContain(answer.status);
      expect(answer.body.status).toBe(answer.status);
    }
  });
});

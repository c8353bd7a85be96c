import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, request, type TestApp } from '../../../test/harness';

/**
 * The sandbox's Mollie API is for this server's own adapter, which reaches it in process. Anyone else who knows a
 * key from the source (`test_sandbox…`) could list every payment, read customers' names and e-mail addresses and
 * their mandates' full IBANs, and create payments with a webhook URL of their choosing (the server would then
 * POST to any address: SSRF) or a redirect URL of their choosing (the test checkout on our domain would send the
 * payer there: an open redirect).
 */

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(() => t.close());

describe("the sandbox's API from outside this process", () => {
  it('refuses the keys anyone can read in the source', async () => {
    // Something real to read: a customer made by the server's own adapter.
    const customer = await t.ctx.payments.createCustomer({ name: 'Sam Example', email: 'sam@example.com' });
    for (const key of ['test_sandbox', 'test_sandbox_amora_local_provider', 'test_sandboxX']) {
      const headers = { authorization: `Bearer ${key}` };
      const list = await request(t.app, { method: 'GET', url: '/sandbox/mollie/v2/payments', headers });
      expect(list.statusCode, key).toBe(401);
      const read = await request(t.app, { method: 'GET', url: `/sandbox/mollie/v2/customers/${customer.id}`, headers });
      expect([read.statusCode, read.body.includes('sam@example.com')], key).toEqual([401, false]);
      const create = await request(t.app, {
        method: 'POST',
        url: '/sandbox/mollie/v2/payments',
        headers: { ...headers, 'content-type': 'application/json' },
        payload: JSON.stringify({
          amount: { currency: 'EUR', value: '1.00' },
          description: 'x',
          redirectUrl: 'https://attacker.example/',
          webhookUrl: 'http://169.254.169.254/latest/meta-data/',
        }),
      });
      expect(create.statusCode, key).toBe(401);
    }
  });

  it('still answers the server own adapter', async () => {
    const methods = await t.ctx.payments.listMethods({ amount: { minor: 1000, currency: 'EUR' }, billingCountry: 'NL' });
    expect(methods.length).toBeGreaterThan(0);
  });
});

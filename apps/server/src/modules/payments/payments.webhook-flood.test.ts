import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../test/harness';

/**
 * The webhook is public and takes any `tr_…` id. Each id that names no order of ours must not make the server ask
 * the provider (with our API key) about it: a flood of made-up ids would spend the account's API rate on nothing
 * and slow the real payments down. Only while an order exists whose payment id we may have missed (its start
 * reached the provider but the answer was lost) is an unknown id worth a look.
 */

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(async () => {
  await t?.close();
});

describe('the webhook under made-up payment ids', () => {
  it('answers 404 without asking the provider when no order can be waiting for its payment id', async () => {
    let asked = 0;
    const real = t.ctx.payments.getPayment.bind(t.ctx.payments);
    (t.ctx.payments as { getPayment: typeof real }).getPayment = async (id: string) => {
      asked++;
      return real(id);
    };
    try {
      for (let k = 0; k < 30; k++) {
        const res = await t.app.inject({
          method: 'POST',
          url: '/api/payments/webhook',
          headers: { host: 'amora.localhost:3000', 'content-type': 'application/x-www-form-urlencoded' },
          payload: `id=tr_madeup${k}x`,
        });
        expect(res.statusCode).toBe(404);
      }
      expect(asked).toBe(0);
    } finally {
      (t.ctx.payments as { getPayment: typeof real }).getPayment = real;
    }
  });
});

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../config';
import { DEMO, login, mailsTo, sessionCookie } from '../test/accounts';
import { CLIENT, createTestApp, type TestApp } from '../test/harness';

const HOST = { host: 'localhost:3000' };

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(async () => {
  await t.close();
});

describe('percent-encoded paths', () => {
  it('are routed to the API, so they meet the client-header rule like any API call', async () => {
    for (const url of ['/%61pi/password-reset.php', '/%61%70%69/password-reset.php', '/api/password%2Dreset.php']) {
      const res = await t.app.inject({ method: 'POST', url, headers: HOST, remoteAddress: '10.70.0.1', payload: { email: DEMO.email } });
      expect(res.statusCode, url).toBe(403);
      expect(res.json()).toMatchObject({ error: 'client_header_required' });
    }
    await t.ctx.mailer.idle();
    expect(await mailsTo(t, DEMO.email, 'reset')).toHaveLength(0);
  });

  it('carry the session like any API call', async () => {
    const cookie = sessionCookie(await login(t, DEMO.email, DEMO.password, { ip: '10.70.0.2' }));
    const res = await t.app.inject({ url: '/%61pi/user.php', headers: { ...HOST, cookie }, remoteAddress: '10.70.0.2' });
    expect(res.statusCode).toBe(200);
    expect(res.json().user?.email).toBe(DEMO.email);
    expect(res.headers['content-security-policy']).toBe("default-src 'none'; frame-ancestors 'none'");
  });

  it('are counted by the flood guard', async () => {
    const small = await createTestApp({ apiRateLimit: 3 });
    try {
      const answers = [];
      for (let i = 0; i < 5; i++) {
        const url = i % 2 ? '/%61pi/interests.php' : '/api/interests.php';
        answers.push((await small.app.inject({ url, headers: HOST, remoteAddress: '10.70.0.3' })).statusCode);
      }
      expect(answers).toEqual([200, 200, 200, 429, 429]);
    } finally {
      await small.close();
    }
  });

  it('answer an undecodable path with a 400, never a 500', async () => {
    const res = await t.app.inject({ method: 'POST', url: '/%E0%A4%A/x', headers: HOST, payload: {} });
    expect(res.statusCode).toBeLessThan(500);
  });
});

describe('state-changing GETs of the spec', () => {
  it.each(['/api/logout.php', '/api/auto-like.php', '/api/logout.php/', '/%61pi/logout.php'])('%s needs the client header', async (url) => {
    const cookie = sessionCookie(await login(t, DEMO.email, DEMO.password, { ip: '10.70.1.1' }));
    const bare = await t.app.inject({ url, headers: { ...HOST, cookie }, remoteAddress: '10.70.1.1' });
    expect(bare.statusCode).toBe(403);
    expect(bare.json()).toMatchObject({ error: 'client_header_required' });
    // The session was not ended by the refused call.
    const me = await t.app.inject({ url: '/api/user.php', headers: { ...HOST, cookie }, remoteAddress: '10.70.1.1' });
    expect(me.json().user?.email).toBe(DEMO.email);

    const ok = await t.app.inject({ url, headers: { ...HOST, ...CLIENT, cookie }, remoteAddress: '10.70.1.1' });
    expect(ok.statusCode).toBe(200);
  });
});

describe("the payment provider's webhook", () => {
  const form = { ...HOST, 'content-type': 'application/x-www-form-urlencoded' };

  it('is the one API change that needs no client header (a provider cannot send it)', async () => {
    for (const url of ['/api/payments/webhook', '/api/payments/webhook/', '/%61pi/payments/webhook']) {
      const res = await t.app.inject({ method: 'POST', url, headers: form, payload: 'id=tr_unknown1', remoteAddress: '10.70.2.1' });
      // Past the gate: the route answers that no order has this payment.
      expect([res.statusCode, res.json().error], url).toEqual([404, 'unknown_payment']);
    }
  });

  it.each([
    ['POST', '/api/payments.php'],
    ['POST', '/api/repeat-order.php'],
    ['POST', '/api/payments/webhooks'],
    ['POST', '/api/payments/webhook.php'],
    ['PUT', '/api/payments/webhook'],
    ['DELETE', '/api/payments/webhook'],
    ['POST', '/api/complaint.php'],
  ] as const)('does not open %s %s', async (method, url) => {
    const res = await t.app.inject({ method, url, headers: form, payload: 'id=tr_unknown1', remoteAddress: '10.70.2.2' });
    expect([res.statusCode, res.json().error]).toEqual([403, 'client_header_required']);
  });
});

describe('cross-site calls', () => {
  const change = (headers: Record<string, string>) =>
    t.app.inject({
      method: 'PUT',
      url: '/api/password-reset.php',
      headers: { ...HOST, ...CLIENT, ...headers },
      remoteAddress: '10.70.2.1',
      payload: { token: 'x'.repeat(43), password: 'a-brand-new-passphrase', password_confirm: 'a-brand-new-passphrase' },
    });

  it('refuses a state-changing call a browser marks as cross-site, even with the client header', async () => {
    const res = await change({ 'sec-fetch-site': 'cross-site' });
    expect(res.statusCode).toBe(403);
    expect(res.json()).toMatchObject({ error: 'cross_site' });
  });

  it('refuses a state-changing call whose Origin is another host', async () => {
    for (const origin of ['https://attacker.example', 'null', 'http://localhost:3001']) {
      const res = await change({ origin });
      expect(res.statusCode, origin).toBe(403);
      expect(res.json()).toMatchObject({ error: 'cross_site' });
    }
  });

  it('lets same-origin calls and calls without these headers (non-browser clients) through', async () => {
    const variants: Record<string, string>[] = [
      {},
      { 'sec-fetch-site': 'same-origin' },
      { 'sec-fetch-site': 'same-origin', origin: 'http://localhost:3000' },
      { origin: 'http://localhost:3000' },
      { 'sec-fetch-site': 'none' },
    ];
    for (const headers of variants) {
      const res = await change(headers);
      // Through the gate to the route, which refuses the made-up link.
      expect(res.statusCode, JSON.stringify(headers)).toBe(400);
      expect(res.json()).toMatchObject({ error: 'link_invalid' });
    }
  });

  it('keeps the beacon’s own rule: no client header, and same-site is refused', async () => {
    const beacon = (headers: Record<string, string>) =>
      t.app.inject({
        method: 'POST',
        url: '/api/page-hidden.php',
        headers: { ...HOST, ...headers },
        payload: {},
        remoteAddress: '10.70.2.2',
      });
    expect((await beacon({ 'sec-fetch-site': 'same-origin' })).statusCode).toBe(200);
    expect((await beacon({})).statusCode).toBe(200);
    expect((await beacon({ 'sec-fetch-site': 'same-site' })).statusCode).toBe(403);
    expect((await beacon({ 'sec-fetch-site': 'cross-site' })).statusCode).toBe(403);
  });

  it('does not apply to reads', async () => {
    const res = await t.app.inject({
      url: '/api/interests.php',
      headers: { ...HOST, 'sec-fetch-site': 'cross-site', origin: 'https://x.example' },
    });
    expect(res.statusCode).toBe(200);
  });
});

describe('API documentation', () => {
  it('is served outside production', async () => {
    expect((await t.app.inject({ url: '/api/docs/json', headers: HOST })).statusCode).toBe(200);
  });

  it('is off in production unless the operator turns it on', async () => {
    const production = (env: Record<string, string> = {}) => {
      const { isProduction, apiDocs } = loadConfig({ NODE_ENV: 'production', ...env });
      return createTestApp({ isProduction, apiDocs });
    };
    const prod = await production();
    const docs = await production({ API_DOCS: 'on' });
    try {
      for (const url of ['/api/docs', '/api/docs/json']) {
        expect((await prod.app.inject({ url, headers: { host: 'amora.localhost' } })).statusCode, url).toBe(404);
      }
      expect((await docs.app.inject({ url: '/api/docs/json', headers: { host: 'amora.localhost' } })).statusCode).toBe(200);
    } finally {
      await prod.close();
      await docs.close();
    }
  });
});

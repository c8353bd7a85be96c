import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../../config';
import { call, DEMO, latestToken, login, mailsTo, sessionCookie, signup, uniqueEmail } from '../../test/accounts';
import { createTestApp, type TestApp } from '../../test/harness';

/** Every link in the mails of one address, as written in the plain-text part. */
async function linksTo(t: TestApp, address: string, kind: string): Promise<string[]> {
  const mails = await mailsTo(t, address, kind);
  return mails.flatMap((m) => m.text.match(/https?:\/\/\S+/g) ?? []);
}

describe('links in mails, outside production', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp();
  });
  afterAll(async () => {
    await t.close();
  });

  const EVIL = 'attacker.example';

  it('come from the site’s own domain whatever Host the request names: activation, reset, email change, reactivation', async () => {
    // Outside production an unknown host still reaches the default site (a fresh install answers on any address).
    const member = await signup(t, {}, { ip: '10.40.0.1', host: EVIL });
    expect(await linksTo(t, member.email, 'activation')).toEqual([
      expect.stringMatching(/^http:\/\/amora\.localhost:3000\/api\/activate\.php\?token=[A-Za-z0-9_-]{43}$/),
    ]);

    const resent = await call(t, 'POST', '/api/activation.php', {}, { ip: '10.40.0.1', host: `${EVIL}:8443`, cookie: member.cookie });
    expect(resent.statusCode).toBe(200);
    expect(await linksTo(t, member.email, 'activation')).toHaveLength(2);
    for (const link of await linksTo(t, member.email, 'activation')) expect(link).toMatch(/^http:\/\/amora\.localhost:3000\//);

    const ask = await call(t, 'POST', '/api/password-reset.php', { email: member.email }, { ip: '10.40.0.2', host: EVIL });
    expect(ask.statusCode).toBe(200);
    await expect.poll(() => linksTo(t, member.email, 'reset')).toHaveLength(1);
    expect((await linksTo(t, member.email, 'reset'))[0]).toMatch(
      /^http:\/\/amora\.localhost:3000\/reset-password\/do\?token=[A-Za-z0-9_-]{43}$/,
    );

    // Only a member who confirmed their address may change it.
    const activation = await latestToken(t, member.email, 'activation');
    expect((await call(t, 'GET', `/api/activate.php?token=${activation}`, undefined, { ip: '10.40.0.3', host: EVIL })).statusCode).toBe(
      302,
    );
    const newEmail = uniqueEmail('moved');
    const change = await call(
      t,
      'POST',
      '/api/mail-change.php',
      { password: member.password, new_email: newEmail },
      { ip: '10.40.0.3', host: EVIL, cookie: member.cookie },
    );
    expect(change.statusCode).toBe(200);
    expect(await linksTo(t, newEmail, 'mail_change')).toEqual([
      expect.stringMatching(/^http:\/\/amora\.localhost:3000\/mail-change\/do\?token=[A-Za-z0-9_-]{43}$/),
    ]);

    const removed = await call(
      t,
      'DELETE',
      '/api/user.php',
      { password: member.password, reason: 'taking_break' },
      { ip: '10.40.0.4', host: EVIL, cookie: member.cookie },
    );
    expect(removed.statusCode).toBe(200);
    expect(await linksTo(t, member.email, 'deleted')).toEqual([
      expect.stringMatching(/^http:\/\/amora\.localhost:3000\/account-deleted\?token=[A-Za-z0-9_-]{43}$/),
    ]);

    // The right password while the account is being removed mails a fresh reactivation link: also the site's.
    const again = await login(t, member.email, member.password, { ip: '10.40.0.5', host: EVIL });
    expect(again.statusCode).toBe(409);
    const reactivation = await linksTo(t, member.email, 'deleted');
    expect(reactivation).toHaveLength(2);
    for (const link of reactivation) expect(link).toMatch(/^http:\/\/amora\.localhost:3000\/account-deleted\?token=/);
  });

  it('ignore X-Forwarded-Host and the Host a site is reached on: the German site links to its own domain', async () => {
    const member = await signup(t, {}, { ip: '10.40.1.1', host: '127.0.0.1:3000', headers: { 'x-forwarded-host': EVIL } });
    expect(await linksTo(t, member.email, 'activation')).toEqual([
      expect.stringMatching(/^http:\/\/herzklopfen\.localhost:3000\/api\/activate\.php\?token=/),
    ]);
    const ask = await call(t, 'POST', '/api/password-reset.php', { email: member.email }, { ip: '10.40.1.1', host: '127.0.0.1:3000' });
    expect(ask.statusCode).toBe(200);
    await expect.poll(() => linksTo(t, member.email, 'reset')).toHaveLength(1);
    expect((await linksTo(t, member.email, 'reset'))[0]).toMatch(/^http:\/\/herzklopfen\.localhost:3000\/de\/reset-password\/do\?token=/);
  });

  it('open where they point: the reset link of a mail works on the host it names', async () => {
    const member = await signup(t, {}, { ip: '10.40.2.1' });
    await call(t, 'POST', '/api/password-reset.php', { email: member.email }, { ip: '10.40.2.1', host: EVIL });
    await expect.poll(() => linksTo(t, member.email, 'reset')).toHaveLength(1);
    const link = new URL((await linksTo(t, member.email, 'reset'))[0]);
    const token = await latestToken(t, member.email, 'reset');
    const res = await call(
      t,
      'PUT',
      '/api/password-reset.php',
      { token, password: 'a-brand-new-passphrase', password_confirm: 'a-brand-new-passphrase' },
      { ip: '10.40.2.1', host: link.host },
    );
    expect(res.statusCode).toBe(200);
    expect(res.json().user.email).toBe(member.email);
  });
});

describe('links in mails and hosts, in production', () => {
  let prod: TestApp;
  beforeAll(async () => {
    const { isProduction, linkPort, apiDocs } = loadConfig({ NODE_ENV: 'production', PORT: '3000' });
    prod = await createTestApp({ isProduction, linkPort, apiDocs });
  });
  afterAll(async () => {
    await prod.close();
  });

  it('answers a host that names no site with 421 Misdirected Request, never the default site', async () => {
    for (const [method, url] of [
      ['GET', '/api/settings.php'],
      ['POST', '/api/password-reset.php'],
      ['GET', '/members'],
    ] as const) {
      const res = await prod.app.inject({
        method,
        url,
        headers: { host: 'attacker.example', 'x-request-type': 'client' },
        ...(method === 'POST' ? { payload: { email: DEMO.email } } : {}),
      });
      expect(res.statusCode, `${method} ${url}`).toBe(421);
      expect(res.json()).toMatchObject({ error: 'unknown_host' });
    }
    expect(await mailsTo(prod, DEMO.email, 'reset')).toHaveLength(0);
  });

  it('still answers the health check on any host (load balancers ask by address)', async () => {
    const res = await prod.app.inject({ url: '/api/health.php', headers: { host: '10.0.0.7:3000' } });
    expect(res.statusCode).toBe(200);
  });

  it('links to https on the site’s domain, without the port the request came in on', async () => {
    const ask = await prod.app.inject({
      method: 'POST',
      url: '/api/password-reset.php',
      headers: { host: 'www.amora.localhost:8080', 'x-request-type': 'client' },
      remoteAddress: '10.41.0.1',
      payload: { email: DEMO.email },
    });
    expect(ask.statusCode).toBe(200);
    await expect.poll(() => linksTo(prod, DEMO.email, 'reset')).toHaveLength(1);
    expect((await linksTo(prod, DEMO.email, 'reset'))[0]).toMatch(
      /^https:\/\/amora\.localhost\/reset-password\/do\?token=[A-Za-z0-9_-]{43}$/,
    );
    // The site answers on its own domain and the hosts listed on it.
    const own = await login(prod, DEMO.email, DEMO.password, { ip: '10.41.0.2', host: 'amora.localhost' });
    expect(own.statusCode).toBe(200);
    expect(sessionCookie(own)).toMatch(/^auth\.session=/);
  });
});

describe('the port of links (LINK_PORT)', () => {
  it('is the server’s port outside production, none in production, and LINK_PORT when set', () => {
    expect(loadConfig({ NODE_ENV: 'development', PORT: '4000' }).linkPort).toBe(4000);
    expect(loadConfig({ NODE_ENV: 'production', PORT: '4000' }).linkPort).toBeNull();
    expect(loadConfig({ NODE_ENV: 'development', PORT: '3000', LINK_PORT: '5173' }).linkPort).toBe(5173);
    expect(loadConfig({ NODE_ENV: 'production', LINK_PORT: '8443' }).linkPort).toBe(8443);
    expect(() => loadConfig({ LINK_PORT: 'abc' })).toThrow(/LINK_PORT/);
  });
});

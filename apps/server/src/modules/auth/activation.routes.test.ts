import { accountTokens } from '@amora/db';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call, currentUser, DEMO, HERZ, latestToken, login, mailsTo, profileOf, sessionCookie, signup, userRow } from '../../test/accounts';
import { createTestApp, type TestApp } from '../../test/harness';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(async () => {
  await t.close();
});

function open(token: string, host?: string) {
  return call(t, 'GET', `/api/activate.php?token=${encodeURIComponent(token)}`, undefined, { host });
}

describe('GET /api/activate.php', () => {
  it('confirms the user and activates the profile, then redirects to /activate/done; the link works twice', async () => {
    const member = await signup(t, {}, { ip: '10.4.0.1' });
    const token = await latestToken(t, member.email, 'activation');

    const res = await open(token);
    expect(res.statusCode).toBe(302);
    expect(res.headers.location).toBe('/activate/done');
    const row = await userRow(t, member.user.id);
    expect(row.status).toBe('confirmed');
    expect(row.confirmedAt).toBeInstanceOf(Date);
    expect((await profileOf(t, member.user.id)).status).toBe('active');
    expect(await currentUser(t, member.cookie)).toMatchObject({ status: 'confirmed' });

    const again = await open(token);
    expect(again.statusCode).toBe(302);
    expect(again.headers.location).toBe('/activate/done');
    expect((await userRow(t, member.user.id)).status).toBe('confirmed');
  });

  it("redirects in the member's language", async () => {
    const member = await signup(t, { language: 'de' }, { ip: '10.4.0.2' });
    const token = await latestToken(t, member.email, 'activation');
    const res = await open(token);
    expect(res.statusCode).toBe(302);
    expect(res.headers.location).toBe('/de/activate/done');

    // A signup on the German site without a language picks the site's language.
    const herz = await signup(t, {}, { ip: '10.4.0.2', host: HERZ });
    const herzToken = await latestToken(t, herz.email, 'activation');
    expect((await mailsTo(t, herz.email, 'activation'))[0].text).toContain('http://herzklopfen.localhost:3000/api/activate.php?token=');
    const herzRes = await open(herzToken, HERZ);
    expect(herzRes.headers.location).toBe('/de/activate/done');
  });

  it('redirects a wrong, short or missing token to /activate/error and changes nothing', async () => {
    const member = await signup(t, {}, { ip: '10.4.0.3' });
    const token = await latestToken(t, member.email, 'activation');
    for (const url of [
      `/api/activate.php?token=${token.slice(0, -2)}xx`,
      '/api/activate.php?token=short',
      '/api/activate.php?token=',
      '/api/activate.php',
    ]) {
      const res = await call(t, 'GET', url);
      expect(res.statusCode, url).toBe(302);
      expect(res.headers.location, url).toBe('/activate/error');
    }
    expect((await userRow(t, member.user.id)).status).toBe('not_confirmed');
    expect((await profileOf(t, member.user.id)).status).toBe('disabled');
  });

  it('does not accept another kind of token', async () => {
    const member = await signup(t, {}, { ip: '10.4.0.4' });
    const reset = await call(t, 'POST', '/api/password-reset.php', { email: member.email }, { ip: '10.4.0.4' });
    expect(reset.statusCode).toBe(200);
    await t.ctx.mailer.idle(); // the reset mail is made after the answer
    const resetToken = await latestToken(t, member.email, 'reset');
    const res = await open(resetToken);
    expect(res.headers.location).toBe('/activate/error');
    expect((await userRow(t, member.user.id)).status).toBe('not_confirmed');
  });

  it('refuses an expired link', async () => {
    const member = await signup(t, {}, { ip: '10.4.0.5' });
    const token = await latestToken(t, member.email, 'activation');
    await t.ctx.db
      .update(accountTokens)
      .set({ expiresAt: new Date(t.clock.now().getTime() - 1000) })
      .where(eq(accountTokens.userId, member.user.id));
    const res = await open(token);
    expect(res.headers.location).toBe('/activate/error');
    expect((await userRow(t, member.user.id)).status).toBe('not_confirmed');
  });
});

describe('POST /api/activation.php', () => {
  it('sends the activation email again, three times an hour, and refuses the fourth with a 429', async () => {
    const member = await signup(t, {}, { ip: '10.4.1.1' });
    expect(await mailsTo(t, member.email, 'activation')).toHaveLength(1);
    for (let i = 1; i <= 3; i++) {
      const res = await call(t, 'POST', '/api/activation.php', undefined, { cookie: member.cookie, ip: '10.4.1.1' });
      expect(res.statusCode, `resend ${i}`).toBe(200);
      expect(res.json()).toEqual({ ok: true });
      expect(await mailsTo(t, member.email, 'activation')).toHaveLength(1 + i);
    }
    const fourth = await call(t, 'POST', '/api/activation.php', undefined, { cookie: member.cookie, ip: '10.4.1.1' });
    expect(fourth.statusCode).toBe(429);
    expect(fourth.json()).toMatchObject({ error: 'rate_limited' });
    expect(await mailsTo(t, member.email, 'activation')).toHaveLength(4);

    // Each mail has its own link, and the newest one works.
    const mails = await mailsTo(t, member.email, 'activation');
    expect(new Set(mails.map((m) => m.text)).size).toBe(4);
    const res = await open(await latestToken(t, member.email, 'activation'));
    expect(res.headers.location).toBe('/activate/done');
  });

  it('answers 409 for a confirmed member and sends nothing', async () => {
    const cookie = sessionCookie(await login(t, DEMO.email, DEMO.password, { ip: '10.4.1.2' }));
    const res = await call(t, 'POST', '/api/activation.php', undefined, { cookie, ip: '10.4.1.2' });
    expect(res.statusCode).toBe(409);
    expect(res.json().error).toBe('already_confirmed');
    expect(await mailsTo(t, DEMO.email, 'activation')).toHaveLength(0);

    const member = await signup(t, {}, { ip: '10.4.1.2' });
    await open(await latestToken(t, member.email, 'activation'));
    const after = await call(t, 'POST', '/api/activation.php', undefined, { cookie: member.cookie, ip: '10.4.1.2' });
    expect(after.statusCode).toBe(409);
    expect(await mailsTo(t, member.email, 'activation')).toHaveLength(1);
  });

  it('needs a session and the client header', async () => {
    const res = await call(t, 'POST', '/api/activation.php', undefined, { ip: '10.4.1.3' });
    expect(res.statusCode).toBe(403);
    expect(res.json()).toMatchObject({ authentication_required: true });

    const member = await signup(t, {}, { ip: '10.4.1.3' });
    const noHeader = await call(t, 'POST', '/api/activation.php', undefined, { cookie: member.cookie, ip: '10.4.1.3', client: false });
    expect(noHeader.statusCode).toBe(403);
    expect(noHeader.json().error).toBe('client_header_required');
    expect(await mailsTo(t, member.email, 'activation')).toHaveLength(1);
  });
});

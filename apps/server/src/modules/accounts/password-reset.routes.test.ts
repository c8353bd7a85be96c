import { sessions } from '@amora/db';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call, currentUser, HERZ, latestToken, login, mailsTo, sessionCookie, signup, uniqueEmail, userRow } from '../../test/accounts';
import { createTestApp, type TestApp } from '../../test/harness';

const ROUTE = '/api/password-reset.php';
const NEW_PASSWORD = 'a-brand-new-passphrase';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(async () => {
  await t.close();
});

function ask(email: string, ip: string, host?: string) {
  return call(t, 'POST', ROUTE, { email }, { ip, host });
}

function reset(token: string, password: string, confirm: string, options: { ip: string; cookie?: string; host?: string }) {
  return call(t, 'PUT', ROUTE, { token, password, password_confirm: confirm }, options);
}

describe('POST /api/password-reset.php', () => {
  it('answers the same for an existing and an unknown address, and mails only the existing one', async () => {
    const member = await signup(t, {}, { ip: '10.5.0.1' });
    const unknown = uniqueEmail('unknown');

    const known = await ask(member.email, '10.5.0.1');
    const missing = await ask(unknown, '10.5.0.1');
    expect(known.statusCode).toBe(200);
    expect(missing.statusCode).toBe(200);
    expect(known.json()).toEqual({ ok: true });
    expect(missing.body).toBe(known.body);

    const mails = await mailsTo(t, member.email, 'reset');
    expect(mails).toHaveLength(1);
    expect(mails[0].userId).toBe(member.user.id);
    expect(mails[0].text).toMatch(/http:\/\/localhost:3000\/reset-password\/do\?token=[A-Za-z0-9_-]{43}/);
    expect(await mailsTo(t, unknown)).toHaveLength(0);
  });

  it('does not mail an account of another site', async () => {
    const member = await signup(t, {}, { ip: '10.5.0.2' });
    const res = await ask(member.email, '10.5.0.2', HERZ);
    expect(res.statusCode).toBe(200);
    expect(await mailsTo(t, member.email, 'reset')).toHaveLength(0);
  });

  it('rejects an invalid address with a 400', async () => {
    const res = await ask('not-an-email', '10.5.0.3');
    expect(res.statusCode).toBe(400);
    expect(res.json()).toMatchObject({ field: 'email', message: 'Invalid email' });
  });

  it('allows three requests for one address a day and refuses the fourth, in any case of the address', async () => {
    const member = await signup(t, {}, { ip: '10.5.0.4' });
    for (let i = 1; i <= 3; i++) {
      const res = await ask(member.email, '10.5.0.4');
      expect(res.statusCode, `request ${i}`).toBe(200);
    }
    const fourth = await ask(member.email.toUpperCase(), '10.5.0.5');
    expect(fourth.statusCode).toBe(429);
    expect(fourth.json()).toMatchObject({
      error: 'rate_limited',
      message: 'Too many password reset attempts, try again tomorrow',
      message_key: 'auth.errors.resetTooMany',
    });
    expect(await mailsTo(t, member.email, 'reset')).toHaveLength(3);

    // The same holds for an address without an account: the answer does not tell them apart.
    const unknown = uniqueEmail('unknown-limit');
    for (let i = 1; i <= 3; i++) expect((await ask(unknown, '10.5.0.6')).statusCode).toBe(200);
    expect((await ask(unknown, '10.5.0.6')).statusCode).toBe(429);
  });
});

describe('PUT /api/password-reset.php', () => {
  it('sets the new password, ends every older session, logs in here and mails a notice', async () => {
    const member = await signup(t, {}, { ip: '10.5.1.1' });
    const other = sessionCookie(await login(t, member.email, member.password, { ip: '10.5.1.1' }));
    expect(await currentUser(t, other)).not.toBeNull();

    expect((await ask(member.email, '10.5.1.1')).statusCode).toBe(200);
    const token = await latestToken(t, member.email, 'reset');

    const res = await reset(token, NEW_PASSWORD, NEW_PASSWORD, { ip: '10.5.1.1' });
    expect(res.statusCode).toBe(200);
    expect(res.json().user).toMatchObject({ id: member.user.id, email: member.email });
    expect(res.body).not.toMatch(/password_hash|argon2/);
    const fresh = sessionCookie(res);
    expect(fresh).not.toBe(member.cookie);
    expect(fresh).not.toBe(other);

    expect(await currentUser(t, member.cookie)).toBeNull();
    expect(await currentUser(t, other)).toBeNull();
    expect((await currentUser(t, fresh))?.id).toBe(member.user.id);
    const left = await t.ctx.db.select().from(sessions).where(eq(sessions.userId, member.user.id));
    expect(left).toHaveLength(1);

    const oldLogin = await login(t, member.email, member.password, { ip: '10.5.1.2' });
    expect(oldLogin.statusCode).toBe(401);
    const newLogin = await login(t, member.email, NEW_PASSWORD, { ip: '10.5.1.2' });
    expect(newLogin.statusCode).toBe(200);

    const notices = await mailsTo(t, member.email, 'password_changed');
    expect(notices).toHaveLength(1);
    expect(notices[0].userId).toBe(member.user.id);

    // The link is single-use.
    const again = await reset(token, 'yet-another-password', 'yet-another-password', { ip: '10.5.1.1' });
    expect(again.statusCode).toBe(400);
    expect(again.json()).toMatchObject({
      error: 'link_invalid',
      field: 'token',
      message: 'Link expired or invalid, request a new email',
      message_key: 'auth.errors.linkInvalid',
    });
    expect((await login(t, member.email, NEW_PASSWORD, { ip: '10.5.1.2' })).statusCode).toBe(200);
  });

  it('refuses an unknown token with the same 400', async () => {
    const res = await reset('x'.repeat(43), NEW_PASSWORD, NEW_PASSWORD, { ip: '10.5.1.3' });
    expect(res.statusCode).toBe(400);
    expect(res.json()).toMatchObject({ error: 'link_invalid', message: 'Link expired or invalid, request a new email' });
  });

  it('refuses a link older than two hours', async () => {
    const member = await signup(t, {}, { ip: '10.5.1.4' });
    expect((await ask(member.email, '10.5.1.4')).statusCode).toBe(200);
    const token = await latestToken(t, member.email, 'reset');
    t.clock.advance(3 * 3_600_000);
    const res = await reset(token, NEW_PASSWORD, NEW_PASSWORD, { ip: '10.5.1.4' });
    expect(res.statusCode).toBe(400);
    expect(res.json()).toMatchObject({ error: 'link_invalid', message: 'Link expired or invalid, request a new email' });
    expect((await login(t, member.email, member.password, { ip: '10.5.1.4' })).statusCode).toBe(200);
    expect(await mailsTo(t, member.email, 'password_changed')).toHaveLength(0);
  });

  it('rejects passwords that do not match and keeps the old password and the link', async () => {
    const member = await signup(t, {}, { ip: '10.5.1.5' });
    expect((await ask(member.email, '10.5.1.5')).statusCode).toBe(200);
    const token = await latestToken(t, member.email, 'reset');
    const hashBefore = (await userRow(t, member.user.id)).passwordHash;

    const res = await reset(token, NEW_PASSWORD, `${NEW_PASSWORD}x`, { ip: '10.5.1.5' });
    expect(res.statusCode).toBe(400);
    expect(res.json()).toMatchObject({
      error: 'validation_failed',
      field: 'password_confirm',
      message: 'Passwords do not match',
      message_key: 'auth.errors.passwordsDoNotMatch',
    });
    expect((await userRow(t, member.user.id)).passwordHash).toBe(hashBefore);
    expect(await currentUser(t, member.cookie)).not.toBeNull();

    const short = await reset(token, 'short', 'short', { ip: '10.5.1.5' });
    expect(short.statusCode).toBe(400);
    expect(short.json()).toMatchObject({ field: 'password', message_key: 'auth.errors.passwordLength' });
    expect((await userRow(t, member.user.id)).passwordHash).toBe(hashBefore);

    // The link was not used up by the failed attempts.
    const ok = await reset(token, NEW_PASSWORD, NEW_PASSWORD, { ip: '10.5.1.5' });
    expect(ok.statusCode).toBe(200);
  });

  it('needs the client header', async () => {
    const res = await call(
      t,
      'PUT',
      ROUTE,
      { token: 'x'.repeat(43), password: NEW_PASSWORD, password_confirm: NEW_PASSWORD },
      {
        ip: '10.5.1.6',
        client: false,
      },
    );
    expect(res.statusCode).toBe(403);
    expect(res.json().error).toBe('client_header_required');
  });
});

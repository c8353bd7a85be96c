import { accountTokens, sessions } from '@amora/db';
import { eq } from 'drizzle-orm';
import type { LightMyRequestResponse } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { hashToken } from '../../lib/tokens';
import {
  call,
  currentUser,
  HERZ,
  latestToken,
  login,
  mailsTo,
  sessionCookie,
  signup,
  tokenOf,
  uniqueEmail,
  userRow,
} from '../../test/accounts';
import { createTestApp, type TestApp } from '../../test/harness';

const ROUTE = '/api/password-reset.php';
const NEW_PASSWORD = 'a-brand-new-passphrase';

let t: TestApp;
/** Which database calls the request in progress makes before its answer is sent. */
let recording: string[] | null = null;
beforeAll(async () => {
  t = await createTestApp(
    {},
    {
      beforeReady(app) {
        app.addHook('onSend', async () => {
          recording = null;
        });
      },
    },
  );
});
afterAll(async () => {
  await t.close();
});

/** Waits for the work done after the answers (the reset mails). */
const settled = () => t.ctx.mailer.idle();

/** Runs one request with the database watched: every call on it until the answer leaves, by method name. */
async function databaseCallsBeforeAnswer(run: () => Promise<LightMyRequestResponse>) {
  const db = t.ctx.db;
  const calls: string[] = [];
  t.ctx.db = new Proxy(db, {
    get(target, property, receiver) {
      const value = Reflect.get(target, property, receiver);
      if (typeof value !== 'function') return value;
      return (...args: unknown[]) => {
        recording?.push(String(property));
        return value.apply(target, args);
      };
    },
  });
  recording = calls;
  try {
    const res = await run();
    return { res, calls };
  } finally {
    recording = null;
    t.ctx.db = db;
  }
}

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
    await settled();

    const mails = await mailsTo(t, member.email, 'reset');
    expect(mails).toHaveLength(1);
    expect(mails[0].userId).toBe(member.user.id);
    expect(mails[0].text).toMatch(/http:\/\/amora\.localhost:3000\/reset-password\/do\?token=[A-Za-z0-9_-]{43}/);
    expect(await mailsTo(t, unknown)).toHaveLength(0);
  });

  it('does not mail an account of another site', async () => {
    const member = await signup(t, {}, { ip: '10.5.0.2' });
    const res = await ask(member.email, '10.5.0.2', HERZ);
    expect(res.statusCode).toBe(200);
    await settled();
    expect(await mailsTo(t, member.email, 'reset')).toHaveLength(0);
  });

  it('rejects an invalid address with a 400', async () => {
    const res = await ask('not-an-email', '10.5.0.3');
    expect(res.statusCode).toBe(400);
    expect(res.json()).toMatchObject({ field: 'email', message: 'Invalid email' });
  });

  it('allows three requests for one address from one network address a day and refuses the fourth, in any case of the address', async () => {
    const member = await signup(t, {}, { ip: '10.5.0.4' });
    for (let i = 1; i <= 3; i++) {
      const res = await ask(member.email, '10.5.0.4');
      expect(res.statusCode, `request ${i}`).toBe(200);
    }
    const fourth = await ask(member.email.toUpperCase(), '10.5.0.4');
    expect(fourth.statusCode).toBe(429);
    expect(fourth.json()).toMatchObject({
      error: 'rate_limited',
      message: 'Too many password reset attempts, try again tomorrow',
      message_key: 'auth.errors.resetTooMany',
    });
    // The day's window began with the first request: come back in (nearly) a day, in seconds.
    const seconds = Number(fourth.headers['retry-after']);
    expect(seconds).toBeGreaterThan(23 * 3600);
    expect(seconds).toBeLessThanOrEqual(24 * 3600);
    expect(fourth.json().retry_after_seconds).toBe(seconds);
    await settled();
    expect(await mailsTo(t, member.email, 'reset')).toHaveLength(3);

    // The same holds for an address without an account: the answer does not tell them apart.
    const unknown = uniqueEmail('unknown-limit');
    for (let i = 1; i <= 3; i++) expect((await ask(unknown, '10.5.0.6')).statusCode).toBe(200);
    expect((await ask(unknown, '10.5.0.6')).statusCode).toBe(429);
  });

  it('refuses an eleventh request from one network address a day, whatever the addresses asked for', async () => {
    for (let i = 1; i <= 10; i++) expect((await ask(uniqueEmail('spray'), '10.5.0.7')).statusCode, `request ${i}`).toBe(200);
    const eleventh = await ask(uniqueEmail('spray'), '10.5.0.7');
    expect(eleventh.statusCode).toBe(429);
    expect(eleventh.json()).toMatchObject({ message_key: 'auth.errors.resetTooMany' });
    expect(Number(eleventh.headers['retry-after'])).toBe(eleventh.json().retry_after_seconds);
    expect(Number(eleventh.headers['retry-after'])).toBeGreaterThan(23 * 3600);
  });

  it("does not let a stranger use up the owner's requests: the owner still gets a mail from their own address", async () => {
    const member = await signup(t, {}, { ip: '10.5.0.8' });
    const stranger = '10.5.0.66';
    for (let i = 1; i <= 3; i++) expect((await ask(member.email, stranger)).statusCode).toBe(200);
    expect((await ask(member.email, stranger)).statusCode).toBe(429);

    const own = await ask(member.email, '10.5.0.9');
    expect(own.statusCode).toBe(200);
    await settled();
    expect(await mailsTo(t, member.email, 'reset')).toHaveLength(4);
    const token = await latestToken(t, member.email, 'reset');
    expect((await reset(token, NEW_PASSWORD, NEW_PASSWORD, { ip: '10.5.0.9' })).statusCode).toBe(200);
  });

  it('mails one account at most ten times a day, answering the same; the last link sent keeps working', async () => {
    const member = await signup(t, {}, { ip: '10.5.0.10' });
    for (let i = 1; i <= 14; i++) {
      const res = await ask(member.email, `10.5.10.${i}`);
      expect(res.statusCode, `request ${i}`).toBe(200);
      expect(res.json()).toEqual({ ok: true });
    }
    await settled();
    const mails = await mailsTo(t, member.email, 'reset');
    expect(mails).toHaveLength(10);
    // Requests past the cap issue no new link, so they cannot end the one the owner already has: of the ten mailed
    // links exactly one (the last issued; the mails' own order may differ, as each is made after its answer) works.
    const answers: number[] = [];
    for (const mail of mails) answers.push((await reset(tokenOf(mail), NEW_PASSWORD, NEW_PASSWORD, { ip: '10.5.0.10' })).statusCode);
    expect(answers.filter((code) => code === 200)).toHaveLength(1);
  });

  it('does the same work before answering for a known and an unknown address; the mail is made after the answer', async () => {
    const member = await signup(t, {}, { ip: '10.5.0.11' });
    const known = await databaseCallsBeforeAnswer(() => ask(member.email, '10.5.0.12'));
    await settled();
    const unknown = await databaseCallsBeforeAnswer(() => ask(uniqueEmail('nobody'), '10.5.0.13'));
    expect(known.res.statusCode).toBe(200);
    expect(unknown.res.body).toBe(known.res.body);
    expect(known.calls).toEqual(unknown.calls);
    // Nothing about the account is looked up or written before the answer.
    expect(known.calls).toEqual([]);
    await settled();
    expect(await mailsTo(t, member.email, 'reset')).toHaveLength(1);
  });
});

describe('one reset link at a time', () => {
  it('ends the older link when a newer one is sent', async () => {
    const member = await signup(t, {}, { ip: '10.5.2.1' });
    await ask(member.email, '10.5.2.1');
    await settled();
    const first = await latestToken(t, member.email, 'reset');
    await ask(member.email, '10.5.2.1');
    await settled();
    const second = await latestToken(t, member.email, 'reset');
    expect(second).not.toBe(first);

    const old = await reset(first, NEW_PASSWORD, NEW_PASSWORD, { ip: '10.5.2.1' });
    expect(old.statusCode).toBe(400);
    expect(old.json()).toMatchObject({ error: 'link_invalid', message: 'Link expired or invalid, request a new email' });
    expect((await reset(second, NEW_PASSWORD, NEW_PASSWORD, { ip: '10.5.2.1' })).statusCode).toBe(200);
  });

  it('ends every other link of the account when one is used (links sent before this rule included)', async () => {
    const member = await signup(t, {}, { ip: '10.5.2.2' });
    // Two links both still valid, as older versions issued them.
    const tokens = ['a', 'b'].map((c) => c.repeat(43));
    for (const token of tokens) {
      await t.ctx.db.insert(accountTokens).values({
        userId: member.user.id,
        kind: 'reset',
        tokenHash: hashToken(token),
        expiresAt: new Date(Date.now() + 3_600_000),
      });
    }
    expect((await reset(tokens[1], NEW_PASSWORD, NEW_PASSWORD, { ip: '10.5.2.2' })).statusCode).toBe(200);
    const other = await reset(tokens[0], 'the-attackers-choice', 'the-attackers-choice', { ip: '10.5.2.2' });
    expect(other.statusCode).toBe(400);
    expect((await login(t, member.email, NEW_PASSWORD, { ip: '10.5.2.3' })).statusCode).toBe(200);
  });

  it('lets only one of two links used at the same moment change the password', async () => {
    const member = await signup(t, {}, { ip: '10.5.2.4' });
    const tokens = ['c', 'd'].map((c) => c.repeat(43));
    for (const token of tokens) {
      await t.ctx.db.insert(accountTokens).values({
        userId: member.user.id,
        kind: 'reset',
        tokenHash: hashToken(token),
        expiresAt: new Date(Date.now() + 3_600_000),
      });
    }
    const answers = await Promise.all(
      tokens.map((token, i) => reset(token, `password-number-${i}`, `password-number-${i}`, { ip: '10.5.2.4' })),
    );
    expect(answers.map((r) => r.statusCode).sort()).toEqual([200, 400]);
  });
});

describe('PUT /api/password-reset.php', () => {
  it('sets the new password, ends every older session, logs in here and mails a notice', async () => {
    const member = await signup(t, {}, { ip: '10.5.1.1' });
    const other = sessionCookie(await login(t, member.email, member.password, { ip: '10.5.1.1' }));
    expect(await currentUser(t, other)).not.toBeNull();

    expect((await ask(member.email, '10.5.1.1')).statusCode).toBe(200);

    await settled();
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
    await settled();
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
    await settled();
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

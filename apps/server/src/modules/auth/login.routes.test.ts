import { sessions, users } from '@amora/db';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call, currentUser, DEMO, DEMO_HERZ, HERZ, login, sessionCookie, signup, userRow } from '../../test/accounts';
import { createTestApp, type TestApp } from '../../test/harness';

const ON_REDIS = process.env.AMORA_TEST_DB === 'postgres' && Boolean(process.env.TEST_REDIS_URL);

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(async () => {
  await t.close();
});

async function demoUserId(): Promise<number> {
  const [row] = await t.ctx.db.select({ id: users.id }).from(users).where(eq(users.email, DEMO.email));
  return row.id;
}

describe('GET /api/user.php', () => {
  it('answers user null without a session cookie, and for an unknown token', async () => {
    const res = await call(t, 'GET', '/api/user.php');
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ user: null });
    expect(res.headers['cache-control']).toContain('no-store');

    expect(await currentUser(t, 'auth.session=not-a-real-session-token-at-all')).toBeNull();
  });
});

describe('POST /api/user.php (login)', () => {
  it('logs the demo member in and answers the spec §3 user object, never the password hash', async () => {
    const res = await login(t, DEMO.email, DEMO.password, { ip: '10.3.0.1' });
    expect(res.statusCode).toBe(200);
    const { user } = res.json();
    expect(Object.keys(user)).toEqual(
      expect.arrayContaining([
        'id',
        'email',
        'language',
        'status',
        'credits',
        'notifications_disabled',
        'paid_user',
        'trafficsource',
        'signup_date',
        'fictional_icon',
        'profile',
      ]),
    );
    for (const key of ['password_hash', 'passwordHash', 'password', 'tracking', 'deleted_at', 'site_id'])
      expect(user).not.toHaveProperty(key);
    expect(user).toMatchObject({
      email: DEMO.email,
      status: 'confirmed',
      credits: 20,
      notifications_disabled: [],
      paid_user: false,
      trafficsource: null,
      fictional_icon: '/fictional-icon.svg',
      profile: { name: DEMO.name, country: 'NL', status: 'active', like_new: 0, main_image: null },
    });
    expect(Object.keys(user.profile)).toEqual(expect.arrayContaining(['country', 'id', 'like_new', 'main_image', 'name', 'status']));
    expect(new Date(user.signup_date).toISOString()).toBe(user.signup_date);
    expect(res.body).not.toMatch(/password|argon2|hash/i);

    const cookie = res.cookies.find((c) => c.name === 'auth.session');
    expect(cookie).toMatchObject({ httpOnly: true, sameSite: 'Lax', maxAge: 30 * 86_400, path: '/' });
    const me = await currentUser(t, sessionCookie(res));
    expect(me).toMatchObject({ id: user.id, email: DEMO.email });
  });

  it('accepts the address in another case and with spaces', async () => {
    const res = await login(t, '  Demo@Amora.EXAMPLE ', DEMO.password, { ip: '10.3.0.2' });
    expect(res.statusCode).toBe(200);
    expect(res.json().user.email).toBe(DEMO.email);
  });

  it('starts a new session on every login; both stay valid', async () => {
    const first = await login(t, DEMO.email, DEMO.password, { ip: '10.3.0.3' });
    const second = await login(t, DEMO.email, DEMO.password, { ip: '10.3.0.3' });
    expect(first.statusCode).toBe(200);
    expect(second.statusCode).toBe(200);
    const a = sessionCookie(first);
    const b = sessionCookie(second);
    expect(a).not.toBe(b);
    expect((await currentUser(t, a))?.email).toBe(DEMO.email);
    expect((await currentUser(t, b))?.email).toBe(DEMO.email);

    // Only a hash of the token is stored.
    const rows = await t.ctx.db
      .select()
      .from(sessions)
      .where(eq(sessions.userId, await demoUserId()));
    const token = a.split('=')[1];
    expect(rows.some((r) => r.tokenHash === token)).toBe(false);
    expect(rows.every((r) => /^[0-9a-f]{64}$/.test(r.tokenHash))).toBe(true);
  });

  it('refuses a wrong password and an unknown address with the same 401', async () => {
    const wrong = await login(t, DEMO.email, 'not-the-password', { ip: '10.3.0.4' });
    const unknown = await login(t, 'nobody-here@example.com', DEMO.password, { ip: '10.3.0.4' });
    for (const res of [wrong, unknown]) {
      expect(res.statusCode).toBe(401);
      expect(res.json()).toEqual({ error: 'login_failed', message: 'Login failed, try again', message_key: 'auth.errors.loginFailed' });
      expect(res.cookies.find((c) => c.name === 'auth.session')).toBeUndefined();
    }
  });

  it('rejects a login without email or password with a 400', async () => {
    const noPassword = await call(t, 'POST', '/api/user.php', { email: DEMO.email }, { ip: '10.3.0.5' });
    expect(noPassword.statusCode).toBe(400);
    expect(noPassword.json()).toMatchObject({ error: 'validation_failed', field: 'password' });
    const badEmail = await call(t, 'POST', '/api/user.php', { email: 'nope', password: 'x' }, { ip: '10.3.0.5' });
    expect(badEmail.statusCode).toBe(400);
    expect(badEmail.json()).toMatchObject({ field: 'email', message: 'Invalid email' });
  });

  it('refuses a login call without the client header', async () => {
    const res = await login(t, DEMO.email, DEMO.password, { ip: '10.3.0.6', client: false });
    expect(res.statusCode).toBe(403);
    expect(res.json().error).toBe('client_header_required');
    expect(res.cookies.find((c) => c.name === 'auth.session')).toBeUndefined();
  });

  it('keeps the accounts of each site to that site', async () => {
    const res = await login(t, DEMO.email, DEMO.password, { ip: '10.3.0.7', host: HERZ });
    expect(res.statusCode).toBe(401);
    expect(res.json().error).toBe('login_failed');

    const own = await login(t, DEMO_HERZ.email, DEMO_HERZ.password, { ip: '10.3.0.7', host: HERZ });
    expect(own.statusCode).toBe(200);
    expect(own.json().user.profile.name).toBe(DEMO_HERZ.name);

    // A session of one site counts only there.
    const amora = await login(t, DEMO.email, DEMO.password, { ip: '10.3.0.7' });
    const amoraCookie = sessionCookie(amora);
    expect(await currentUser(t, amoraCookie, HERZ)).toBeNull();
    expect((await currentUser(t, amoraCookie))?.email).toBe(DEMO.email);
    expect(await currentUser(t, sessionCookie(own))).toBeNull();
  });

  it('blocks the address that made five wrong guesses, even for the right password, until the time has passed', async () => {
    const ip = '10.3.0.8';
    for (let i = 1; i <= 4; i++) {
      const res = await login(t, DEMO_HERZ.email, `wrong-${i}`, { ip, host: HERZ });
      expect(res.statusCode, `attempt ${i}`).toBe(401);
    }
    const fifth = await login(t, DEMO_HERZ.email, 'wrong-5', { ip, host: HERZ });
    expect(fifth.statusCode).toBe(429);
    expect(fifth.json()).toMatchObject({
      error: 'login_blocked',
      message: 'Too many wrong attempts, the account stays blocked for 15 minutes',
      message_key: 'auth.errors.loginBlocked',
      minutes: 15,
    });

    // The right password from that address is refused too.
    const right = await login(t, DEMO_HERZ.email, DEMO_HERZ.password, { ip, host: HERZ });
    expect(right.statusCode).toBe(429);
    expect(right.json()).toMatchObject({ error: 'login_blocked', minutes: expect.any(Number) });
    expect(right.json().minutes).toBeGreaterThanOrEqual(1);
    expect(right.json().minutes).toBeLessThanOrEqual(15);
    expect(right.cookies.find((c) => c.name === 'auth.session')).toBeUndefined();

    // The owner elsewhere is not locked out by someone else's guesses (login-throttle.routes.test.ts has more).
    const owner = await login(t, DEMO_HERZ.email, DEMO_HERZ.password, { ip: '10.3.0.9', host: HERZ });
    expect(owner.statusCode).toBe(200);
    // Another account is not affected either.
    const other = await login(t, DEMO.email, DEMO.password, { ip });
    expect(other.statusCode).toBe(200);

    // Redis counts in real time; the harness clock only drives the database limiter.
    if (ON_REDIS) return;
    t.clock.advance(16 * 60_000);
    const later = await login(t, DEMO_HERZ.email, DEMO_HERZ.password, { ip, host: HERZ });
    expect(later.statusCode).toBe(200);
    // A new window: one more wrong password is a plain 401 again.
    const again = await login(t, DEMO_HERZ.email, 'wrong-again', { ip, host: HERZ });
    expect(again.statusCode).toBe(401);
  });

  it('lets a freshly signed-up member log in with the password of the signup', async () => {
    const member = await signup(t, {}, { ip: '10.3.0.10' });
    const res = await login(t, member.email, member.password, { ip: '10.3.0.10' });
    expect(res.statusCode).toBe(200);
    expect(res.json().user).toMatchObject({ id: member.user.id, status: 'not_confirmed', profile: { status: 'disabled' } });
  });
});

describe('GET /api/logout.php', () => {
  it('ends the session: the old cookie counts no more, other sessions stay', async () => {
    const keep = sessionCookie(await login(t, DEMO.email, DEMO.password, { ip: '10.3.1.1' }));
    const end = sessionCookie(await login(t, DEMO.email, DEMO.password, { ip: '10.3.1.1' }));
    const res = await call(t, 'GET', '/api/logout.php', undefined, { cookie: end });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ ok: true });
    const cleared = res.cookies.find((c) => c.name === 'auth.session');
    expect(cleared?.value ?? '').toBe('');
    expect(await currentUser(t, end)).toBeNull();
    expect((await currentUser(t, keep))?.email).toBe(DEMO.email);
  });

  it('answers ok without a session', async () => {
    const res = await call(t, 'GET', '/api/logout.php');
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ ok: true });
  });
});

describe('PUT /api/user.php (language)', () => {
  it('saves the language of the logged-in member', async () => {
    const member = await signup(t, {}, { ip: '10.3.2.1' });
    const res = await call(t, 'PUT', '/api/user.php', { language: 'de' }, { cookie: member.cookie, ip: '10.3.2.1' });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ ok: true });
    expect((await userRow(t, member.user.id)).language).toBe('de');
    expect((await currentUser(t, member.cookie))?.language).toBe('de');
  });

  it('rejects a language that is not one of ours with a 400 naming the field', async () => {
    const cookie = sessionCookie(await login(t, DEMO.email, DEMO.password, { ip: '10.3.2.2' }));
    for (const language of ['xx', 'english', '', 'DE']) {
      const res = await call(t, 'PUT', '/api/user.php', { language }, { cookie, ip: '10.3.2.2' });
      expect(res.statusCode, language).toBe(400);
      expect(res.json()).toMatchObject({ error: 'validation_failed', field: 'language' });
    }
    expect((await userRow(t, await demoUserId())).language).toBe('en');
  });

  it('needs a session: 403 with authentication_required', async () => {
    const res = await call(t, 'PUT', '/api/user.php', { language: 'de' }, { ip: '10.3.2.3' });
    expect(res.statusCode).toBe(403);
    expect(res.json()).toMatchObject({ error: 'authentication_required', authentication_required: true });
  });

  it('needs the client header', async () => {
    const cookie = sessionCookie(await login(t, DEMO.email, DEMO.password, { ip: '10.3.2.4' }));
    const res = await call(t, 'PUT', '/api/user.php', { language: 'fr' }, { cookie, ip: '10.3.2.4', client: false });
    expect(res.statusCode).toBe(403);
    expect(res.json().error).toBe('client_header_required');
    expect((await userRow(t, await demoUserId())).language).toBe('en');
  });
});

describe('session lifetime', () => {
  it('keeps a session for 30 days, then it counts no more', async () => {
    const cookie = sessionCookie(await login(t, DEMO.email, DEMO.password, { ip: '10.3.3.1' }));
    t.clock.advance(29 * 86_400_000);
    expect((await currentUser(t, cookie))?.email).toBe(DEMO.email);
    t.clock.advance(2 * 86_400_000);
    expect(await currentUser(t, cookie)).toBeNull();
    const res = await call(t, 'PUT', '/api/user.php', { language: 'de' }, { cookie, ip: '10.3.3.1' });
    expect(res.statusCode).toBe(403);
    expect(res.json().authentication_required).toBe(true);
  });
});

import { creditLedger, outboxEmails, profiles, signupMessages, sites, users } from '@amora/db';
import { count, eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  birthDate,
  call,
  DEMO,
  DEMO_HERZ,
  HERZ,
  mailsTo,
  PASSWORD,
  profileOf,
  signupBody,
  uniqueEmail,
  userRow,
} from '../../test/accounts';
import { createTestApp, type TestApp } from '../../test/harness';

const ROUTE = '/api/signup.php';
const THIRTY_DAYS = 30 * 86_400;

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(async () => {
  await t.close();
});

async function tableCounts() {
  const [u] = await t.ctx.db.select({ value: count() }).from(users);
  const [p] = await t.ctx.db.select({ value: count() }).from(profiles);
  const [l] = await t.ctx.db.select({ value: count() }).from(creditLedger);
  const [o] = await t.ctx.db.select({ value: count() }).from(outboxEmails);
  const [m] = await t.ctx.db.select({ value: count() }).from(signupMessages);
  return { users: u.value, profiles: p.value, ledger: l.value, outbox: o.value, messages: m.value };
}

async function usersWithEmail(email: string) {
  return t.ctx.db
    .select()
    .from(users)
    .where(eq(sql`lower(${users.email})`, email.toLowerCase()));
}

async function profileIdOf(email: string): Promise<number> {
  const [row] = await t.ctx.db
    .select({ id: profiles.id })
    .from(profiles)
    .innerJoin(users, eq(users.id, profiles.userId))
    .where(eq(users.email, email));
  return row.id;
}

function trackingCookie(value: Record<string, string>): string {
  return `tracking=${encodeURIComponent(JSON.stringify(value))}`;
}

describe('POST /api/signup.php', () => {
  it('creates a not-confirmed user with a disabled profile, the signup credits, a session and an activation email', async () => {
    const email = uniqueEmail('new');
    const res = await call(t, 'POST', ROUTE, signupBody({ email, name: 'Robin' }), { ip: '10.2.0.1' });
    expect(res.statusCode).toBe(200);

    const { user } = res.json();
    expect(user).toMatchObject({
      email,
      status: 'not_confirmed',
      credits: 20,
      paid_user: false,
      trafficsource: null,
      profile: { name: 'Robin', status: 'disabled' },
    });
    expect(res.body).not.toMatch(/password/i);

    const row = await userRow(t, user.id);
    expect(row).toMatchObject({ email, status: 'not_confirmed', credits: 20, dateOfBirth: '1992-03-04', language: 'en' });
    expect(row.passwordHash).toMatch(/^\$argon2id\$/);
    expect(row.passwordHash).not.toContain(PASSWORD);
    const profile = await profileOf(t, user.id);
    expect(profile).toMatchObject({ name: 'Robin', status: 'disabled', siteId: row.siteId });
    expect(profile.id).toBe(user.profile.id);

    const ledger = await t.ctx.db.select().from(creditLedger).where(eq(creditLedger.userId, user.id));
    expect(ledger).toHaveLength(1);
    expect(ledger[0]).toMatchObject({ delta: 20, balanceAfter: 20, reason: 'signup', siteId: row.siteId });

    const cookie = res.cookies.find((c) => c.name === 'auth.session');
    expect(cookie).toBeDefined();
    expect(cookie?.value).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(cookie).toMatchObject({ httpOnly: true, sameSite: 'Lax', maxAge: THIRTY_DAYS, path: '/' });
    const setCookie = String(res.headers['set-cookie']);
    expect(setCookie).toMatch(/HttpOnly/);
    expect(setCookie).toMatch(/SameSite=Lax/);
    expect(setCookie).toContain(`Max-Age=${THIRTY_DAYS}`);

    const me = await call(t, 'GET', '/api/user.php', undefined, { cookie: `auth.session=${cookie?.value}` });
    expect(me.json().user).toMatchObject({ id: user.id, email });

    const mails = await mailsTo(t, email);
    expect(mails).toHaveLength(1);
    expect(mails[0]).toMatchObject({ kind: 'activation', status: 'dev', userId: user.id, toAddress: email });
    expect(mails[0].text).toMatch(/http:\/\/amora\.localhost:3000\/api\/activate\.php\?token=[A-Za-z0-9_-]{43}/);
  });

  it("gives the site's own signup credits and ties the account to that site", async () => {
    const email = uniqueEmail('herz');
    const res = await call(t, 'POST', ROUTE, signupBody({ email }), { ip: '10.2.0.2', host: HERZ });
    expect(res.statusCode).toBe(200);
    const { user } = res.json();
    expect(user.credits).toBe(15);
    const row = await userRow(t, user.id);
    const herz = await t.ctx.db.select().from(sites).where(eq(sites.domain, 'herzklopfen.localhost'));
    expect(row.siteId).toBe(herz[0].id);
    expect(row.credits).toBe(15);
    // The German site's domain language is the default language of the account.
    expect(row.language).toBe('de');
    const ledger = await t.ctx.db.select().from(creditLedger).where(eq(creditLedger.userId, user.id));
    expect(ledger.map((l) => l.delta)).toEqual([15]);

    // The same address is still free on the other site.
    const other = await call(t, 'POST', ROUTE, signupBody({ email }), { ip: '10.2.0.2' });
    expect(other.statusCode).toBe(200);
    expect(other.json().user.credits).toBe(20);
  });

  it('lowercases and trims the email address', async () => {
    const email = uniqueEmail('Mixed').replace('mixed', 'MiXeD');
    const res = await call(t, 'POST', ROUTE, signupBody({ email: `  ${email}  ` }), { ip: '10.2.0.3' });
    expect(res.statusCode).toBe(200);
    expect(res.json().user.email).toBe(email.toLowerCase());
  });

  const tooLong = 'x'.repeat(1001);
  it.each([
    ['email', 'auth.errors.invalidEmail', 'Invalid email', { email: 'not-an-email' }],
    ['email', 'auth.errors.invalidEmail', 'Invalid email', { email: 'a@b' }],
    ['email', 'auth.errors.invalidEmail', 'Invalid email', { email: '' }],
    ['name', 'auth.errors.nameIsEmail', undefined, { email: 'Same.Name@Example.com', name: 'same.name@example.COM' }],
    ['name', 'auth.errors.nameAt', undefined, { name: '@robin' }],
    ['name', 'auth.errors.nameLength', undefined, { name: 'R' }],
    ['date_of_birth', 'auth.errors.dateOfBirth', 'Date of birth not valid', { date_of_birth: birthDate(17) }],
    ['date_of_birth', 'auth.errors.dateOfBirth', 'Date of birth not valid', { date_of_birth: birthDate(18, 1) }],
    ['date_of_birth', 'auth.errors.dateOfBirth', 'Date of birth not valid', { date_of_birth: '04-03-1992' }],
    ['date_of_birth', 'auth.errors.dateOfBirth', 'Date of birth not valid', { date_of_birth: 'yesterday' }],
    ['date_of_birth', 'auth.errors.dateOfBirth', 'Date of birth not valid', { date_of_birth: '2023-02-30' }],
    ['date_of_birth', 'auth.errors.dateOfBirth', 'Date of birth not valid', { date_of_birth: '1990-02-30' }],
    ['terms', 'auth.errors.terms', undefined, { terms: undefined }],
    ['terms', 'auth.errors.terms', undefined, { terms: false }],
    ['terms', 'auth.errors.terms', undefined, { terms: 'yes' }],
    ['password', 'auth.errors.passwordLength', undefined, { password: 'short' }],
    ['password', 'auth.errors.passwordLength', undefined, { password: 'x'.repeat(129) }],
    ['signup_message', 'auth.errors.messageLength', undefined, { signup_message: tooLong }],
  ])('rejects a bad %s (%s) with a 400 and stores nothing: %o', async (field, key, message, change) => {
    const before = await tableCounts();
    const body = signupBody(change);
    const res = await call(t, 'POST', ROUTE, body, { ip: '10.2.0.4' });
    expect(res.statusCode).toBe(400);
    expect(res.json()).toMatchObject({ error: 'validation_failed', field, message_key: key });
    if (message) expect(res.json().message).toBe(message);
    expect(res.cookies.find((c) => c.name === 'auth.session')).toBeUndefined();
    expect(await tableCounts()).toEqual(before);
  });

  it.each([
    ['email', { email: undefined }],
    ['name', { name: undefined }],
    ['password', { password: undefined }],
    ['date_of_birth', { date_of_birth: undefined }],
    ['profile_id', { profile_id: 'abc', signup_message: 'Hi' }],
    ['language', { language: 'xx' }],
  ])('rejects a missing or mistyped %s with a 400 naming it', async (field, change) => {
    const before = await tableCounts();
    const res = await call(t, 'POST', ROUTE, signupBody(change), { ip: '10.2.0.4' });
    expect(res.statusCode).toBe(400);
    expect(res.json()).toMatchObject({ error: 'validation_failed', field });
    expect(await tableCounts()).toEqual(before);
  });

  it('accepts a member who turns 18 today', async () => {
    const res = await call(t, 'POST', ROUTE, signupBody({ date_of_birth: birthDate(18, 0) }), { ip: '10.2.0.5' });
    expect(res.statusCode).toBe(200);
  });

  it('refuses an address that already has an account on the site with 409 email_taken, in any case', async () => {
    for (const email of [DEMO.email, 'DEMO@Amora.Example']) {
      const before = await tableCounts();
      const res = await call(t, 'POST', ROUTE, signupBody({ email }), { ip: '10.2.0.6' });
      expect(res.statusCode, email).toBe(409);
      expect(res.json()).toMatchObject({ error: 'email_taken', field: 'email', message_key: 'auth.errors.emailTaken' });
      expect(res.cookies.find((c) => c.name === 'auth.session')).toBeUndefined();
      expect(await tableCounts()).toEqual(before);
    }
    expect(await usersWithEmail(DEMO.email)).toHaveLength(1);
  });

  it('stores the tracking cookie and its network as the traffic source', async () => {
    const email = uniqueEmail('tracked');
    const res = await call(t, 'POST', ROUTE, signupBody({ email }), {
      ip: '10.2.0.7',
      cookie: trackingCookie({ network: 'adnet', sub1: 'x' }),
    });
    expect(res.statusCode).toBe(200);
    expect(res.json().user.trafficsource).toBe('adnet');
    const row = await userRow(t, res.json().user.id);
    expect(row.tracking).toEqual({ network: 'adnet', sub1: 'x' });
    expect(row.trafficsource).toBe('adnet');
  });

  it('ignores a tracking cookie that is not JSON', async () => {
    const res = await call(t, 'POST', ROUTE, signupBody(), { ip: '10.2.0.7', cookie: 'tracking=%7Bnot-json' });
    expect(res.statusCode).toBe(200);
    const row = await userRow(t, res.json().user.id);
    expect(row.tracking).toEqual({});
    expect(row.trafficsource).toBeNull();
  });

  it('on a site open only to traffic-source visitors, refuses a visitor without tracking and accepts one with it', async () => {
    await t.ctx.db.update(sites).set({ signups: 'with_trafficsource' }).where(eq(sites.domain, 'herzklopfen.localhost'));
    t.ctx.sites.invalidate();
    try {
      const before = await tableCounts();
      const refused = await call(t, 'POST', ROUTE, signupBody(), { ip: '10.2.0.8', host: HERZ });
      expect(refused.statusCode).toBe(403);
      expect(refused.json()).toMatchObject({ error: 'signups_closed', message_key: 'auth.errors.signupsClosed' });
      // A tracking cookie without any value is no traffic source.
      const empty = await call(t, 'POST', ROUTE, signupBody(), { ip: '10.2.0.8', host: HERZ, cookie: trackingCookie({}) });
      expect(empty.statusCode).toBe(403);
      expect(await tableCounts()).toEqual(before);

      const accepted = await call(t, 'POST', ROUTE, signupBody(), {
        ip: '10.2.0.8',
        host: HERZ,
        cookie: trackingCookie({ network: 'partner', sub2: 'y' }),
      });
      expect(accepted.statusCode).toBe(200);
      expect(accepted.json().user.trafficsource).toBe('partner');

      // The other site is not affected.
      const other = await call(t, 'POST', ROUTE, signupBody(), { ip: '10.2.0.8' });
      expect(other.statusCode).toBe(200);
    } finally {
      await t.ctx.db.update(sites).set({ signups: 'all' }).where(eq(sites.domain, 'herzklopfen.localhost'));
      t.ctx.sites.invalidate();
    }
  });

  it('refuses every signup on a site whose signups are closed', async () => {
    await t.ctx.db.update(sites).set({ signups: 'none' }).where(eq(sites.domain, 'herzklopfen.localhost'));
    t.ctx.sites.invalidate();
    try {
      const res = await call(t, 'POST', ROUTE, signupBody(), {
        ip: '10.2.0.9',
        host: HERZ,
        cookie: trackingCookie({ network: 'adnet' }),
      });
      expect(res.statusCode).toBe(403);
      expect(res.json().error).toBe('signups_closed');
    } finally {
      await t.ctx.db.update(sites).set({ signups: 'all' }).where(eq(sites.domain, 'herzklopfen.localhost'));
      t.ctx.sites.invalidate();
    }
  });

  it("stores the first message of a signup from a profile of the site, never to another site's profile", async () => {
    const samProfile = await profileIdOf(DEMO.email);
    const alexProfile = await profileIdOf(DEMO_HERZ.email);

    const res = await call(t, 'POST', ROUTE, signupBody({ profile_id: samProfile, signup_message: '  Hi Sam, nice profile!  ' }), {
      ip: '10.2.0.10',
    });
    expect(res.statusCode).toBe(200);
    const userId = res.json().user.id;
    const stored = await t.ctx.db.select().from(signupMessages).where(eq(signupMessages.userId, userId));
    expect(stored).toHaveLength(1);
    expect(stored[0]).toMatchObject({ toProfileId: samProfile, text: 'Hi Sam, nice profile!', deliveredAt: null });

    const before = await tableCounts();
    const cross = await call(t, 'POST', ROUTE, signupBody({ profile_id: alexProfile, signup_message: 'Hallo Alex' }), {
      ip: '10.2.0.10',
    });
    expect(cross.statusCode).toBe(200);
    const crossMessages = await t.ctx.db.select().from(signupMessages).where(eq(signupMessages.userId, cross.json().user.id));
    expect(crossMessages).toHaveLength(0);
    expect((await tableCounts()).messages).toBe(before.messages);

    // An unknown profile stores nothing either, and the signup still succeeds.
    const unknown = await call(t, 'POST', ROUTE, signupBody({ profile_id: 999_999_999, signup_message: 'Hello?' }), {
      ip: '10.2.0.10',
    });
    expect(unknown.statusCode).toBe(200);
    const unknownMessages = await t.ctx.db.select().from(signupMessages).where(eq(signupMessages.userId, unknown.json().user.id));
    expect(unknownMessages).toHaveLength(0);
  });

  it('refuses a call without the client header and stores nothing', async () => {
    const before = await tableCounts();
    const res = await call(t, 'POST', ROUTE, signupBody(), { ip: '10.2.0.11', client: false });
    expect(res.statusCode).toBe(403);
    expect(res.json().error).toBe('client_header_required');
    expect(await tableCounts()).toEqual(before);
  });

  it('allows ten signups an hour from one address and refuses the eleventh with a 429', async () => {
    const ip = '10.2.0.12';
    for (let i = 0; i < 10; i++) {
      const res = await call(t, 'POST', ROUTE, signupBody({ email: uniqueEmail(`burst${i}`) }), { ip });
      expect(res.statusCode, `signup ${i + 1}`).toBe(200);
    }
    const before = await tableCounts();
    const email = uniqueEmail('burst-eleven');
    const eleventh = await call(t, 'POST', ROUTE, signupBody({ email }), { ip });
    expect(eleventh.statusCode).toBe(429);
    expect(eleventh.json()).toMatchObject({ error: 'rate_limited' });
    expect(eleventh.json().retry_after_seconds).toBeGreaterThan(0);
    expect(await tableCounts()).toEqual(before);
    expect(await usersWithEmail(email)).toHaveLength(0);

    // Another address may still sign up.
    const other = await call(t, 'POST', ROUTE, signupBody({ email }), { ip: '10.2.0.13' });
    expect(other.statusCode).toBe(200);
  });

  it('keeps accounts of the two sites apart in the ledger', async () => {
    const rows = await t.ctx.db
      .select({ site: sites.domain, delta: creditLedger.delta })
      .from(creditLedger)
      .innerJoin(sites, eq(sites.id, creditLedger.siteId))
      .where(eq(creditLedger.reason, 'signup'));
    for (const row of rows) expect(row.delta).toBe(row.site === 'herzklopfen.localhost' ? 15 : 20);
    expect(rows.length).toBeGreaterThan(0);
  });
});

describe('signup races', () => {
  it('creates one account when the same address signs up twice at once; the other gets 409, never a 500', async () => {
    const email = uniqueEmail('race');
    const results = await Promise.all([
      call(t, 'POST', ROUTE, signupBody({ email }), { ip: '10.2.1.1' }),
      call(t, 'POST', ROUTE, signupBody({ email: email.toUpperCase() }), { ip: '10.2.1.2' }),
    ]);
    expect(results.map((r) => r.statusCode).sort()).toEqual([200, 409]);
    expect(results.find((r) => r.statusCode === 409)?.json()).toMatchObject({ error: 'email_taken', field: 'email' });
    expect(await usersWithEmail(email)).toHaveLength(1);
    // Only the winner got credits, a profile and a mail.
    const [user] = await usersWithEmail(email);
    expect(await t.ctx.db.select().from(creditLedger).where(eq(creditLedger.userId, user.id))).toHaveLength(1);
    expect(await mailsTo(t, email)).toHaveLength(1);
  });
});

import { ageOn } from '@amora/contracts';
import { profiles, users } from '@amora/db';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call, DEMO, DEMO_HERZ, HERZ, latestToken, login, sessionCookie, signup } from '../../test/accounts';
import { createTestApp, type TestApp } from '../../test/harness';

const ROUTE = '/api/members.php';
const TRACKING = `tracking=${encodeURIComponent(JSON.stringify({ network: 'adnet', sub1: 'x' }))}`;

interface Card {
  id: number;
  name: string;
  age: number;
  country: string;
  is_fictional: boolean;
  [key: string]: unknown;
}

let t: TestApp;
let samProfile: number;
let alexProfile: number;
/** Activated, listed. */
let active: Awaited<ReturnType<typeof signup>>;
/** Never opened the activation link. */
let pending: Awaited<ReturnType<typeof signup>>;
/** Activated, then deleted its account. */
let deleted: Awaited<ReturnType<typeof signup>>;

async function profileIdOf(email: string): Promise<number> {
  const [row] = await t.ctx.db
    .select({ id: profiles.id })
    .from(profiles)
    .innerJoin(users, eq(users.id, profiles.userId))
    .where(eq(users.email, email));
  return row.id;
}

async function activate(email: string) {
  const res = await call(t, 'GET', `/api/activate.php?token=${await latestToken(t, email, 'activation')}`);
  expect(res.headers.location).toBe('/activate/done');
}

beforeAll(async () => {
  t = await createTestApp();
  samProfile = await profileIdOf(DEMO.email);
  alexProfile = await profileIdOf(DEMO_HERZ.email);
  active = await signup(t, { name: 'Active Andy', date_of_birth: '1995-01-02' }, { ip: '10.8.0.1' });
  await activate(active.email);
  pending = await signup(t, { name: 'Pending Pia' }, { ip: '10.8.0.1' });
  deleted = await signup(t, { name: 'Deleted Dora' }, { ip: '10.8.0.1' });
  await activate(deleted.email);
  const res = await call(
    t,
    'DELETE',
    '/api/user.php',
    { password: deleted.password, reason: 'other' },
    { cookie: deleted.cookie, ip: '10.8.0.1' },
  );
  expect(res.statusCode).toBe(200);
});
afterAll(async () => {
  await t?.close();
});

function list(options: { host?: string; cookie?: string; query?: string; ip?: string } = {}) {
  return call(t, 'GET', `${ROUTE}${options.query ? `?${options.query}` : ''}`, undefined, {
    host: options.host,
    cookie: options.cookie,
    ip: options.ip ?? '10.8.1.1',
  });
}

function ids(res: { json(): { results: Card[] } }): number[] {
  return res.json().results.map((c) => c.id);
}

describe('GET /api/members.php', () => {
  it('shows a visitor the members of a site with logged_out_search, newest first', async () => {
    const res = await list();
    expect(res.statusCode).toBe(200);
    const body = res.json();
    expect(body).toMatchObject({ page: 1, has_more: false });
    const sam = body.results.find((c: Card) => c.id === samProfile);
    expect(sam).toMatchObject({ id: samProfile, name: 'Sam', age: ageOn('1990-05-17', new Date()), country: 'NL', is_fictional: false });
    expect(ids(res)).toEqual([active.user.profile.id, samProfile]);
    // Card fields only, nothing of the account behind it.
    for (const card of body.results) {
      expect(Object.keys(card)).toEqual(expect.arrayContaining(['age', 'country', 'id', 'is_fictional', 'name']));
      for (const key of ['email', 'user_id', 'password_hash', 'date_of_birth', 'birth_date', 'lat', 'lon', 'status', 'tracking']) {
        expect(card).not.toHaveProperty(key);
      }
    }
    expect(res.body).not.toMatch(/@example\.|argon2|1990-05-17/);
  });

  it('shows only the members of the site the host picks', async () => {
    const res = await list({ host: HERZ, cookie: TRACKING });
    expect(res.statusCode).toBe(200);
    expect(ids(res)).toEqual([alexProfile]);
  });

  it('asks a visitor of a site without logged_out_search to log in, unless they came with a traffic source', async () => {
    const res = await list({ host: HERZ });
    expect(res.statusCode).toBe(403);
    expect(res.json()).toMatchObject({ error: 'authentication_required', authentication_required: true });

    const tracked = await list({ host: HERZ, cookie: TRACKING });
    expect(tracked.statusCode).toBe(200);
    expect(tracked.json().results.map((c: Card) => c.name)).toEqual(['Alex']);

    const member = sessionCookie(await login(t, DEMO_HERZ.email, DEMO_HERZ.password, { host: HERZ, ip: '10.8.1.2' }));
    const loggedIn = await list({ host: HERZ, cookie: member });
    expect(loggedIn.statusCode).toBe(200);
    expect(ids(loggedIn)).toEqual([]);
  });

  it('never shows a member themself', async () => {
    const sam = sessionCookie(await login(t, DEMO.email, DEMO.password, { ip: '10.8.1.3' }));
    const asSam = await list({ cookie: sam });
    expect(asSam.statusCode).toBe(200);
    expect(ids(asSam)).toEqual([active.user.profile.id]);

    const asActive = await list({ cookie: active.cookie });
    expect(ids(asActive)).toEqual([samProfile]);
  });

  it('never shows a deleted account or a profile that was not activated', async () => {
    for (const res of [await list(), await list({ cookie: active.cookie }), await list({ cookie: pending.cookie })]) {
      expect(res.statusCode).toBe(200);
      expect(ids(res)).not.toContain(pending.user.profile.id);
      expect(ids(res)).not.toContain(deleted.user.profile.id);
      expect(res.body).not.toMatch(/Pending Pia|Deleted Dora/);
    }
  });

  it('lists a member once their profile is activated, and no more after they delete the account', async () => {
    const member = await signup(t, { name: 'Late Lou' }, { ip: '10.8.1.4' });
    expect(ids(await list())).not.toContain(member.user.profile.id);
    await activate(member.email);
    expect(ids(await list())[0]).toBe(member.user.profile.id);
    const res = await call(
      t,
      'DELETE',
      '/api/user.php',
      { password: member.password, reason: 'other' },
      { cookie: member.cookie, ip: '10.8.1.4' },
    );
    expect(res.statusCode).toBe(200);
    expect(ids(await list())).not.toContain(member.user.profile.id);
  });

  it.each(['page=0', 'page=abc', 'page=-1', 'page=1.5', 'page=501'])('rejects %s with a 400', async (query) => {
    const res = await list({ query });
    expect(res.statusCode).toBe(400);
    expect(res.json()).toMatchObject({ error: 'validation_failed', field: 'page' });
  });

  it('answers an empty page past the end', async () => {
    const res = await list({ query: 'page=2' });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ page: 2, has_more: false, results: [] });
  });

  it('pages 24 cards at a time and says when there are more', async () => {
    const site = (await t.ctx.sites.forHost('localhost'))!;
    const before = (await list()).json().results.length;
    // Profiles run by the team: no account behind them.
    const team = Array.from({ length: 24 }, (_, i) => ({
      siteId: site.id,
      name: `Team ${i + 1}`,
      country: 'NL',
      status: 'active',
      isFictional: true,
      birthDate: '1988-06-15',
    }));
    await t.ctx.db.insert(profiles).values(team as (typeof profiles.$inferInsert)[]);
    const first = await list();
    expect(first.json().results).toHaveLength(24);
    expect(first.json().has_more).toBe(true);
    expect(first.json().results[0]).toMatchObject({ name: 'Team 24', is_fictional: true });
    const second = await list({ query: 'page=2' });
    expect(second.json()).toMatchObject({ page: 2, has_more: false });
    expect(second.json().results).toHaveLength(before);
    const seen = [...ids(first), ...ids(second)];
    expect(new Set(seen).size).toBe(24 + before);
  });
});

import { complaints, pageBounces, users } from '@amora/db';
import { count, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call, profileOf, signup, signupBody, userRow } from './accounts';
import { createTestApp, type TestApp } from './harness';

/**
 * Text PostgreSQL cannot store (NUL, in text or jsonb) and numbers past a column's range are refused at the
 * door with a 400 that names the field, on every call that stores or queries them; nothing is written.
 */

const NUL = 'before\u0000after';

let t: TestApp;
let member: string;
beforeAll(async () => {
  t = await createTestApp();
  member = (await signup(t, {}, { ip: '10.31.0.1' })).cookie;
});
afterAll(async () => {
  await t?.close();
});

function expectRefused(res: { statusCode: number; json(): unknown; body: string }, field: string) {
  expect(res.statusCode, res.body).toBe(400);
  expect(res.json()).toMatchObject({ error: 'validation_failed', field });
}

const COMPLAINT = {
  name: 'Jo Tester',
  email: 'jo@example.com',
  category: 'billing',
  subject: 'Double charge',
  message: 'I was charged twice for the same credit package last week.',
  url: '/credits',
};

describe('NUL and other control characters', () => {
  it.each(['name', 'subject', 'message', 'url'])('complaints: %s', async (field) => {
    const before = await t.ctx.db.select({ n: count() }).from(complaints);
    const res = await call(t, 'POST', '/api/complaints.php', {
      ...COMPLAINT,
      [field]: `${COMPLAINT[field as keyof typeof COMPLAINT]}\u0000`,
    });
    expectRefused(res, field);
    expect(res.json()).toMatchObject({
      message: 'This text contains characters that are not allowed.',
      message_key: 'errors.invalidCharacters',
    });
    expect(await t.ctx.db.select({ n: count() }).from(complaints)).toEqual(before);
  });

  it('page-hidden: path', async () => {
    const before = await t.ctx.db.select({ n: count() }).from(pageBounces);
    const res = await call(t, 'POST', '/api/page-hidden.php', { lb: '1', path: `/landers/video${NUL}`, visible_ms: 10 });
    expectRefused(res, 'path');
    expect(await t.ctx.db.select({ n: count() }).from(pageBounces)).toEqual(before);
  });

  it.each([
    ['about', { about: `Hello${NUL}` }],
    ['city', { city: NUL }],
    ['region', { country: 'NL', region: `NL-NH${'\u0000'}` }],
    ['about', { about: 'Escape \u001b[31m red' }],
  ])('profile: %s', async (field, body) => {
    const res = await call(t, 'PUT', '/api/profile.php', body, { cookie: member });
    expectRefused(res, field);
  });

  it('profile: line breaks and tabs stay allowed in the about text, not in one-line fields', async () => {
    const ok = await call(t, 'PUT', '/api/profile.php', { about: 'Line one\nLine two\r\n\tindented' }, { cookie: member });
    expect(ok.statusCode, ok.body).toBe(200);
    expect(ok.json().profile.about).toBe('Line one\nLine two\r\n\tindented');
    expectRefused(await call(t, 'PUT', '/api/profile.php', { city: 'Amster\ndam' }, { cookie: member }), 'city');
  });

  it.each([
    ['name', { name: `Ro${NUL}` }],
    ['signup_message', { signup_message: NUL, profile_id: 1 }],
    ['password', { password: 'correct\u0000horse-battery' }],
  ])('signup: %s', async (field, body) => {
    const payload = signupBody(body);
    const res = await call(t, 'POST', '/api/signup.php', payload, { ip: '10.31.1.1' });
    expectRefused(res, field);
    expect(
      await t.ctx.db
        .select()
        .from(users)
        .where(eq(users.email, String(payload.email))),
    ).toEqual([]);
  });

  it('signup: a lone surrogate in the name', async () => {
    expectRefused(await call(t, 'POST', '/api/signup.php', signupBody({ name: 'Ro\ud800bin' }), { ip: '10.31.1.3' }), 'name');
  });

  it('settings: a traffic-source value in the query is left out, and the settings still come (a pasted link)', async () => {
    const res = await call(t, 'GET', '/api/settings.php?network=ad%00net', undefined);
    expect(res.statusCode, res.body).toBe(200);
    expect(res.cookies.find((c) => c.name === 'tracking')).toBeUndefined();
  });

  it('direction overrides and isolates are removed from what members write: a name, an about text', async () => {
    const res = await call(t, 'POST', '/api/signup.php', signupBody({ name: 'Ro\u202ebin\u2066' }), { ip: '10.31.1.4' });
    expect(res.statusCode, res.body).toBe(200);
    expect((await profileOf(t, res.json().user.id)).name).toBe('Robin');
    const about = await call(t, 'PUT', '/api/profile.php', { about: 'Hi \u202dthere\u202c\nyou' }, { cookie: member });
    expect(about.statusCode, about.body).toBe(200);
    expect(about.json().profile.about).toBe('Hi there\nyou');
  });

  it('dev mailbox: the recipient filter', async () => {
    expectRefused(await call(t, 'GET', '/api/dev/mailbox.php?to=a%00b', undefined), 'to');
    expectRefused(await call(t, 'GET', '/dev/mailbox?to=a%00b', undefined), 'to');
  });

  it('signup: a tracking cookie keeps only the tracking keys whose text can be stored', async () => {
    const tracking = { network: 'ad\u0000net', ref: 'partner', sub1: '\ud800', '\u0000': 'x', other: 'y' };
    const res = await call(t, 'POST', '/api/signup.php', signupBody(), {
      ip: '10.31.2.1',
      cookie: `tracking=${encodeURIComponent(JSON.stringify(tracking))}`,
    });
    expect(res.statusCode, res.body).toBe(200);
    const row = await userRow(t, res.json().user.id);
    expect(row.tracking).toEqual({ ref: 'partner' });
    expect(row.trafficsource).toBeNull();
    expect((await profileOf(t, row.id)).name).toBe('Robin');
  });
});

describe('numbers past the columns', () => {
  it.each([
    ['9223372036854775808', '2^63'],
    ['9223372036854775807', '2^63 − 1 (bigint max, past the ids a JavaScript number holds)'],
    ['9007199254740992', '2^53'],
  ])('search: cursor %s (%s)', async (cursor) => {
    expectRefused(await call(t, 'GET', `/api/search.php?cursor=${cursor}`, undefined), 'cursor');
    expectRefused(await call(t, 'GET', `/api/search.php?cursor=${cursor}`, undefined, { cookie: member }), 'cursor');
  });

  it('search: the largest cursor that fits still answers an empty page past the end', async () => {
    const res = await call(t, 'GET', '/api/search.php?cursor=1', undefined, { cookie: member });
    expect(res.statusCode, res.body).toBe(200);
    const top = await call(t, 'GET', `/api/search.php?cursor=${Number.MAX_SAFE_INTEGER}`, undefined, { cookie: member });
    expect(top.statusCode, top.body).toBe(200);
  });

  it.each([
    ['/api/block.php', ''],
    ['/api/like.php', ',"source":"search"'],
    ['/api/match-finder.php', ',"action":"like"'],
    [
      '/api/signup.php',
      ',"email":"big@example.com","name":"Robin","password":"correct-horse-battery","date_of_birth":"1990-01-01","terms":true',
    ],
  ])('%s: a profile id of 2^63', async (url, rest) => {
    const res = await t.app.inject({
      method: 'POST',
      url,
      headers: { host: 'localhost:3000', 'x-request-type': 'client', 'content-type': 'application/json', cookie: member },
      // Written out: JSON.stringify cannot write 2^63 exactly.
      payload: `{"profile_id":9223372036854775808${rest}}`,
      remoteAddress: '10.31.3.1',
    });
    expect(res.statusCode, res.body).toBe(400);
    expect(res.json().field).toBe('profile_id');
  });
});

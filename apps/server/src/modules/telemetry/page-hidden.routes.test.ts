import { randomInt } from 'node:crypto';
import { pageBounces, sites } from '@amora/db';
import { and, eq } from 'drizzle-orm';
import type { InjectOptions } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../test/harness';

const ROUTE = '/api/page-hidden.php';
const DAY = '2026-03-10';

/**
 * On the Redis run the per-route beacon limit (30 a minute per address) is kept under a namespace that
 * outlives one test app, so every run beacons from its own addresses.
 */
const subnet = `10.2.${randomInt(0, 256)}`;
let hostCounter = 0;
const freshAddress = () => `${subnet}.${++hostCounter}`;

let t: TestApp;
let amoraId: number;
let herzId: number;
beforeAll(async () => {
  t = await createTestApp();
  t.clock.set(new Date(`${DAY}T12:00:00Z`));
  const rows = await t.ctx.db.select({ id: sites.id, domain: sites.domain }).from(sites);
  amoraId = rows.find((r) => r.domain === 'amora.localhost')?.id as number;
  herzId = rows.find((r) => r.domain === 'herzklopfen.localhost')?.id as number;
});
afterAll(async () => {
  await t.close();
});

function beacon(options: Omit<InjectOptions, 'method' | 'url'> = {}) {
  return t.app.inject({
    method: 'POST',
    url: ROUTE,
    remoteAddress: freshAddress(),
    ...options,
    headers: { host: 'localhost:3000', ...(options.headers ?? {}) },
  });
}

const allBounces = () => t.ctx.db.select().from(pageBounces);
const bouncesOf = (siteId: number, path: string, day = DAY) =>
  t.ctx.db
    .select()
    .from(pageBounces)
    .where(and(eq(pageBounces.siteId, siteId), eq(pageBounces.day, day), eq(pageBounces.path, path)));

describe('POST /api/page-hidden.php', () => {
  it('accepts the empty beacon without the client header and records nothing', async () => {
    const res = await beacon({ payload: {} });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ ok: true });

    const bodiless = await beacon();
    expect(bodiless.statusCode).toBe(200);
    expect(await allBounces()).toEqual([]);
  });

  it('records nothing when lb is off', async () => {
    for (const lb of ['0', false]) {
      const res = await beacon({ payload: { lb, path: '/landers/video', visible_ms: 500 } });
      expect(res.statusCode).toBe(200);
    }
    expect(await allBounces()).toEqual([]);
  });

  it('counts a bounce per site, day and path (without the query) and adds up the visible time', async () => {
    const first = await beacon({ payload: { lb: '1', path: '/landers/video?x=1', visible_ms: 1200 } });
    expect(first.statusCode).toBe(200);
    expect(await bouncesOf(amoraId, '/landers/video')).toEqual([
      { siteId: amoraId, day: DAY, path: '/landers/video', bounces: 1, totalVisibleMs: 1200 },
    ]);

    const second = await beacon({ payload: { lb: '1', path: '/landers/video?x=2&sub1=abc', visible_ms: 800 } });
    expect(second.statusCode).toBe(200);
    const [row] = await bouncesOf(amoraId, '/landers/video');
    expect(row.bounces).toBe(2);
    expect(row.totalVisibleMs).toBe(2000);
    expect((await allBounces()).filter((r) => r.path.includes('?'))).toEqual([]);
  });

  it('keeps sites, paths and days apart', async () => {
    await beacon({ payload: { lb: '1', path: '/landers/gallery', visible_ms: 100 }, headers: { host: 'herzklopfen.localhost' } });
    await beacon({ payload: { lb: '1', path: '/landers/gallery', visible_ms: 300 } });
    const [herz] = await bouncesOf(herzId, '/landers/gallery');
    const [amora] = await bouncesOf(amoraId, '/landers/gallery');
    expect(herz).toMatchObject({ bounces: 1, totalVisibleMs: 100 });
    expect(amora).toMatchObject({ bounces: 1, totalVisibleMs: 300 });

    t.clock.set(new Date('2026-03-11T08:00:00Z'));
    try {
      await beacon({ payload: { lb: true, path: '/landers/gallery' } });
    } finally {
      t.clock.set(new Date(`${DAY}T12:00:00Z`));
    }
    const [nextDay] = await bouncesOf(amoraId, '/landers/gallery', '2026-03-11');
    expect(nextDay).toMatchObject({ bounces: 1, totalVisibleMs: 0 });
    expect((await bouncesOf(amoraId, '/landers/gallery'))[0].bounces).toBe(1);
  });

  it('counts a missing path as the home page', async () => {
    await beacon({ payload: { lb: 1 } });
    const [row] = await bouncesOf(amoraId, '/');
    expect(row).toMatchObject({ bounces: 1, totalVisibleMs: 0 });
  });

  it('reads a text/plain body, as navigator.sendBeacon sends it', async () => {
    const res = await beacon({
      payload: JSON.stringify({ lb: '1', path: '/landers/maplanding?lb=1', visible_ms: 4000 }),
      headers: { 'content-type': 'text/plain;charset=UTF-8' },
    });
    expect(res.statusCode).toBe(200);
    expect((await bouncesOf(amoraId, '/landers/maplanding'))[0]).toMatchObject({ bounces: 1, totalVisibleMs: 4000 });

    const empty = await beacon({ payload: '', headers: { 'content-type': 'text/plain;charset=UTF-8' } });
    expect(empty.statusCode).toBe(200);
  });

  it('refuses a cross-site beacon with a 403 and records nothing', async () => {
    const before = await allBounces();
    for (const site of ['cross-site', 'same-site']) {
      const res = await beacon({
        payload: { lb: '1', path: '/landers/socialnetwork', visible_ms: 10 },
        headers: { 'sec-fetch-site': site },
      });
      expect(res.statusCode).toBe(403);
      expect(res.json()).toMatchObject({ error: 'forbidden' });
    }
    expect(await allBounces()).toEqual(before);

    const sameOrigin = await beacon({ payload: {}, headers: { 'sec-fetch-site': 'same-origin' } });
    expect(sameOrigin.statusCode).toBe(200);
  });

  it('rejects unknown keys and bad values with a 400 and records nothing', async () => {
    const before = await allBounces();
    const unknown = await beacon({ payload: { lb: '1', path: '/x', user_id: 7 } });
    expect(unknown.statusCode).toBe(400);
    expect(unknown.json()).toMatchObject({ error: 'validation_failed' });

    for (const visible_ms of [-1, 1.5, '1200', 86_400_001]) {
      const res = await beacon({ payload: { lb: '1', path: '/x', visible_ms } });
      expect(res.statusCode, String(visible_ms)).toBe(400);
      expect(res.json()).toMatchObject({ error: 'validation_failed', field: 'visible_ms' });
    }
    const longPath = await beacon({ payload: { lb: '1', path: `/${'a'.repeat(400)}` } });
    expect(longPath.statusCode).toBe(400);
    expect(await allBounces()).toEqual(before);
  });

  it.each([
    ['application/json', '{"lb": '],
    ['text/plain', '{"lb": '],
    ['text/plain', 'lb=1'],
    ['text/plain', 'null'],
    ['text/plain', '[]'],
    ['text/plain', '42'],
    ['application/json', 'null'],
    ['application/json', '"lb"'],
  ])('answers a %s body %j with a 400, never a 500', async (type, payload) => {
    const res = await beacon({ payload, headers: { 'content-type': type } });
    expect(res.statusCode).toBe(400);
    expect(res.json().error).toEqual(expect.any(String));
  });
});

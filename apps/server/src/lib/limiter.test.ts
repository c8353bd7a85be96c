import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../test/harness';

// The limiter of the run: the database one on PGlite and PostgreSQL, Redis when TEST_REDIS_URL is set.
let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(async () => {
  await t.close();
});

const key = () => `test:${randomBytes(6).toString('hex')}`;

describe('limiter take', () => {
  it('gives out exactly the free places to 100 calls at once, and counts no further', async () => {
    const k = key();
    const results = await Promise.all(Array.from({ length: 100 }, () => t.ctx.limiter.take(k, 60_000, 7)));
    expect(results.filter((r) => r.allowed)).toHaveLength(7);
    expect(
      results
        .filter((r) => r.allowed)
        .map((r) => r.count)
        .sort((a, b) => a - b),
    ).toEqual([1, 2, 3, 4, 5, 6, 7]);
    for (const r of results.filter((x) => !x.allowed)) {
      expect(r.count).toBe(7);
      expect(r.retryAfterSeconds).toBeGreaterThanOrEqual(1);
      expect(r.retryAfterSeconds).toBeLessThanOrEqual(60);
    }
  });

  it('lets a released place be taken again, once', async () => {
    const k = key();
    for (let i = 0; i < 3; i++) expect((await t.ctx.limiter.take(k, 60_000, 3)).allowed).toBe(true);
    expect((await t.ctx.limiter.take(k, 60_000, 3)).allowed).toBe(false);
    await t.ctx.limiter.release(k);
    const again = await Promise.all(Array.from({ length: 20 }, () => t.ctx.limiter.take(k, 60_000, 3)));
    expect(again.filter((r) => r.allowed)).toHaveLength(1);
  });

  it('never counts below zero on release', async () => {
    const k = key();
    await t.ctx.limiter.release(k);
    await t.ctx.limiter.take(k, 60_000, 2);
    await t.ctx.limiter.release(k);
    await t.ctx.limiter.release(k);
    const results = await Promise.all(Array.from({ length: 5 }, () => t.ctx.limiter.take(k, 60_000, 2)));
    expect(results.filter((r) => r.allowed)).toHaveLength(2);
  });

  it('starts a new window when the old one has passed', async () => {
    if (t.ctx.redis) return; // Redis keeps real time; the harness clock drives the database limiter.
    const k = key();
    expect((await t.ctx.limiter.take(k, 60_000, 1)).allowed).toBe(true);
    expect((await t.ctx.limiter.take(k, 60_000, 1)).allowed).toBe(false);
    t.clock.advance(61_000);
    const fresh = await t.ctx.limiter.take(k, 60_000, 1);
    expect(fresh).toMatchObject({ allowed: true, count: 1 });
  });
});

describe('limiter hit', () => {
  it('counts every one of 100 calls at once and allows the first max', async () => {
    const k = key();
    const results = await Promise.all(Array.from({ length: 100 }, () => t.ctx.limiter.hit(k, 60_000, 10)));
    expect(results.filter((r) => r.allowed)).toHaveLength(10);
    expect(Math.max(...results.map((r) => r.count))).toBe(100);
  });
});

import Fastify from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../test/harness';
import { createFloodGuard } from './flood-guard';

describe('flood guard on a Fastify app', () => {
  let clock = 1_000_000;
  const app = Fastify();
  beforeAll(async () => {
    const guard = createFloodGuard({ max: 3, windowMs: 60_000, now: () => clock });
    app.addHook('onRequest', (request, reply, done) => {
      if (!guard(request, reply)) done();
    });
    app.get('/api/a.php', async () => ({ ok: true }));
    app.get('/api/b.php', async () => ({ ok: true }));
    app.get('/api/own.php', { config: { floodGuard: { max: 1 } } }, async () => ({ ok: true }));
    app.get('/api/free.php', { config: { floodGuard: false } }, async () => ({ ok: true }));
    app.get('/page', async () => 'page');
    await app.ready();
  });
  afterAll(() => app.close());
  const get = (url: string, remoteAddress: string) => app.inject({ url, remoteAddress });

  it('counts all API calls of one address together and answers the one past the limit with a 429', async () => {
    const ip = '198.51.100.1';
    expect((await get('/api/a.php', ip)).statusCode).toBe(200);
    expect((await get('/api/b.php', ip)).statusCode).toBe(200);
    expect((await get('/api/nope.php', ip)).statusCode).toBe(404);
    const over = await get('/api/a.php', ip);
    expect(over.statusCode).toBe(429);
    expect(over.json()).toEqual({ error: 'rate_limited', message: 'Too many requests, please slow down' });
    // The whole minute's window is still ahead: come back in 60 seconds.
    expect(over.headers['retry-after']).toBe('60');
    expect(over.headers['x-ratelimit-limit']).toBe('3');
    expect(over.headers['x-ratelimit-remaining']).toBe('0');
    // Another address is not affected.
    expect((await get('/api/a.php', '198.51.100.2')).statusCode).toBe(200);
  });

  it('leaves pages and exempt routes alone, and starts over in the next window', async () => {
    const ip = '198.51.100.3';
    for (let i = 0; i < 3; i++) await get('/api/a.php', ip);
    expect((await get('/api/a.php', ip)).statusCode).toBe(429);
    expect((await get('/page', ip)).statusCode).toBe(200);
    expect((await get('/api/free.php', ip)).statusCode).toBe(200);
    clock += 60_000;
    expect((await get('/api/a.php', ip)).statusCode).toBe(200);
  });

  it("applies a route's own limit on top of the address limit", async () => {
    const ip = '198.51.100.4';
    expect((await get('/api/own.php', ip)).statusCode).toBe(200);
    const over = await get('/api/own.php', ip);
    expect(over.statusCode).toBe(429);
    expect(over.headers['x-ratelimit-limit']).toBe('1');
    expect(Number(over.headers['retry-after'])).toBe(Number(over.headers['x-ratelimit-reset']));
    expect((await get('/api/a.php', ip)).statusCode).toBe(200);
  });
});

describe('flood guard in the app', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp({ apiRateLimit: 5 });
  });
  afterAll(() => t.close());

  it('refuses the sixth API call of a minute from one address and changes nothing', async () => {
    const remoteAddress = '192.0.2.50';
    for (let i = 0; i < 5; i++) {
      expect((await t.app.inject({ url: '/api/settings.php', remoteAddress })).statusCode).toBe(200);
    }
    const over = await t.app.inject({ url: '/api/settings.php', remoteAddress });
    expect(over.statusCode).toBe(429);
    expect(over.json().error).toBe('rate_limited');
    const seconds = Number(over.headers['retry-after']);
    expect(Number.isInteger(seconds) && seconds >= 1 && seconds <= 60, `Retry-After ${over.headers['retry-after']}`).toBe(true);
    expect(over.headers['set-cookie']).toBeUndefined();
    // The health check stays reachable for load balancers.
    expect((await t.app.inject({ url: '/api/health.php', remoteAddress })).statusCode).toBe(200);
  });
});

import { healthResponseSchema } from '@amora/contracts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../test/harness';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(async () => {
  await t.close();
});

describe('GET /api/health.php', () => {
  it('answers 200 with status ok once the database answers', async () => {
    const res = await t.app.inject({ url: '/api/health.php' });
    expect(res.statusCode).toBe(200);
    const body = healthResponseSchema.parse(res.json());
    expect(body.status).toBe('ok');
    expect(body.database).toBe('ok');
    expect(body.uptime_seconds).toBeGreaterThanOrEqual(0);
    expect(res.headers['cache-control']).toBe('no-store');
  });

  it('answers on any site host', async () => {
    const res = await t.app.inject({ url: '/api/health.php', headers: { host: 'herzklopfen.localhost' } });
    expect(res.statusCode).toBe(200);
    expect(res.json().status).toBe('ok');
  });
});

import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { call, HERZ, siteByDomain } from '../../test/accounts';
import { recordEvents } from '../../test/events';
import { createTestApp, type TestApp } from '../../test/harness';
import { changeSiteSettings } from './sites.service';

const supportPhoneAt = async (app: TestApp) => {
  const res = await call(app, 'GET', '/api/settings.php', undefined, { host: HERZ });
  expect(res.statusCode, res.body).toBe(200);
  return res.json().support_phone as string;
};

let t: TestApp;
let herzId: number;
let originalPhone: string;
beforeAll(async () => {
  t = await createTestApp();
  const herz = await siteByDomain(t, 'herzklopfen.localhost');
  herzId = herz.id;
  originalPhone = herz.supportPhone;
});
afterEach(async () => {
  await changeSiteSettings(t.ctx, herzId, { supportPhone: originalPhone });
});
afterAll(async () => {
  await t?.close();
});

describe('changing site settings', () => {
  it('is answered at the next request of the same process, and raised as site.settings-changed', async () => {
    const changes = recordEvents(t.ctx.events, 'site.settings-changed');
    expect(await supportPhoneAt(t)).toBe(originalPhone);
    expect(await changeSiteSettings(t.ctx, herzId, { supportPhone: '+49 30 1234' })).toBe(true);
    expect(await supportPhoneAt(t)).toBe('+49 30 1234');
    await t.ctx.events.idle();
    expect(changes.seen).toEqual([{ type: 'site.settings-changed', siteId: herzId }]);
    changes.stop();
  });

  it('changes nothing and raises nothing for a site that does not exist', async () => {
    const changes = recordEvents(t.ctx.events, 'site.settings-changed');
    expect(await changeSiteSettings(t.ctx, 999_999, { supportPhone: '+1' })).toBe(false);
    await t.ctx.events.idle();
    expect(changes.seen).toEqual([]);
    changes.stop();
  });
});

// A second server process: its own connections to the same PostgreSQL database and to Redis.
const withRedis = process.env.AMORA_TEST_DB === 'postgres' && Boolean(process.env.TEST_REDIS_URL);

describe.skipIf(!withRedis)('two processes on one database and Redis', () => {
  let other: TestApp;
  beforeAll(async () => {
    other = await createTestApp({}, { joining: t });
  });
  afterAll(async () => {
    await other?.close();
  });

  it("a change made through one process is answered by the other's next request, not 30 s later", async () => {
    // The other process has the sites in memory, fresh for 30 seconds.
    expect(await supportPhoneAt(other)).toBe(originalPhone);
    const arrived = recordEvents(other.ctx.events, 'site.settings-changed');
    await changeSiteSettings(t.ctx, herzId, { supportPhone: '+49 40 5678' });
    expect(await arrived.next()).toEqual({ type: 'site.settings-changed', siteId: herzId });
    await other.ctx.events.idle();
    expect(await supportPhoneAt(other)).toBe('+49 40 5678');
    arrived.stop();
  });
});

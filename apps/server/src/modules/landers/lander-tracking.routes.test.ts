import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { siteVisits } from '@amora/db';
import { and, eq } from 'drizzle-orm';
import type { LightMyRequestResponse } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AMORA, call, signupBody, userRow } from '../../test/accounts';
import { withSite } from '../../test/factories';
import { createTestApp, type TestApp } from '../../test/harness';

/**
 * From a lander to the stored member: the landing query's tracking data (network, ref, sub1–3) and the lander's
 * name and slug are kept in cookies when the page is served, and the signup stores them with the member
 * (users.trafficsource, users.tracking); a site open to traffic-source visitors only (`signups` with_trafficsource)
 * takes a visitor who came with tracking data, not one who came through a lander without it.
 */

const INDEX_HTML = readFileSync(join(import.meta.dirname, '..', '..', '..', '..', 'web', 'index.html'), 'utf8');
let t: TestApp;
let webDist: string;
beforeAll(async () => {
  webDist = mkdtempSync(join(tmpdir(), 'amora-web-'));
  writeFileSync(join(webDist, 'index.html'), INDEX_HTML);
  t = await createTestApp({ webDist });
});
afterAll(async () => {
  await t?.close();
  rmSync(webDist, { recursive: true, force: true });
});

/** The cookies a page set, as the browser sends them back. */
const cookiesOf = (res: LightMyRequestResponse) => res.cookies.map((c) => `${c.name}=${c.value}`).join('; ');
const land = (url: string) => t.app.inject({ url, headers: { host: AMORA, 'user-agent': 'Mozilla/5.0 (test)' } });

describe('tracking from a lander to the stored member', () => {
  it("keeps the landing query's tracking data and the lander's name and slug through signup", async () => {
    const page = await land('/de/landers/video/de?network=adnet&ref=r7&sub1=a&sub3=c&other=x');
    expect(page.statusCode).toBe(200);
    const res = await call(t, 'POST', '/api/signup.php', signupBody(), { ip: '10.3.0.1', cookie: cookiesOf(page) });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().user.trafficsource).toBe('adnet');
    const row = await userRow(t, res.json().user.id);
    expect(row.trafficsource).toBe('adnet');
    expect(row.tracking).toEqual({ network: 'adnet', ref: 'r7', sub1: 'a', sub3: 'c', lander: 'video', slug: 'de' });
    // The visit is counted under the same lander, slug and network (modules/telemetry), for the funnel.
    const [visit] = await t.ctx.db
      .select()
      .from(siteVisits)
      .where(and(eq(siteVisits.lander, 'video'), eq(siteVisits.slug, 'de'), eq(siteVisits.network, 'adnet')));
    expect(visit?.visits).toBe(1);
  });

  it('keeps the lander without a slug, and the last lander landed on', async () => {
    const first = await land('/landers/gallery/eng?network=one');
    const second = await t.app.inject({ url: '/landers/tinderswipe', headers: { host: AMORA, cookie: cookiesOf(first) } });
    const cookie = [cookiesOf(first).replace(/lander=[^;]*;? ?/, ''), cookiesOf(second)].filter(Boolean).join('; ');
    const res = await call(t, 'POST', '/api/signup.php', signupBody(), { ip: '10.3.0.2', cookie });
    expect(res.statusCode, res.body).toBe(200);
    expect((await userRow(t, res.json().user.id)).tracking).toEqual({ network: 'one', lander: 'tinderswipe', slug: '' });
  });

  it('stores no lander for a visitor who never landed on one, and ignores a lander cookie it cannot read', async () => {
    const plain = await call(t, 'POST', '/api/signup.php', signupBody(), { ip: '10.3.0.3' });
    expect((await userRow(t, plain.json().user.id)).tracking).toEqual({});
    const odd = await call(t, 'POST', '/api/signup.php', signupBody(), { ip: '10.3.0.3', cookie: 'lander=%7Bnope' });
    expect((await userRow(t, odd.json().user.id)).tracking).toEqual({});
  });

  it('on a site open to traffic-source visitors only, refuses a visitor who came through a lander without tracking data', async () => {
    await withSite(t, 'amora.localhost', { signups: 'with_trafficsource' }, async () => {
      const bare = await land('/landers/video/eng');
      const refused = await call(t, 'POST', '/api/signup.php', signupBody(), { ip: '10.3.0.4', cookie: cookiesOf(bare) });
      expect(refused.statusCode).toBe(403);
      expect(refused.json()).toMatchObject({ error: 'signups_closed' });
      const tracked = await land('/landers/video/eng?sub2=campaign');
      const accepted = await call(t, 'POST', '/api/signup.php', signupBody(), { ip: '10.3.0.4', cookie: cookiesOf(tracked) });
      expect(accepted.statusCode, accepted.body).toBe(200);
      expect((await userRow(t, accepted.json().user.id)).tracking).toEqual({ sub2: 'campaign', lander: 'video', slug: 'eng' });
      // The page told the visitor so: the settings it carries say traffic source, and signing up is open to them.
      expect(tracked.body).toContain('"is_trafficsource":true');
      expect(bare.body).toContain('"is_trafficsource":false');
    });
  });
});

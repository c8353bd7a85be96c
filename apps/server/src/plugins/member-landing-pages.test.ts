import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { profiles } from '@amora/db';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AMORA, HERZ } from '../test/accounts';
import { createMember, createProfile, withSite } from '../test/factories';
import { createTestApp, type TestApp } from '../test/harness';
import { memberLandingIdOf, memberLandingLayoutOfPath } from './member-landing-pages';

/**
 * The pages of a profile's landings (spec §2 members-id-landing, -landing2-slug, -landing3-slug): a 404 for a
 * profile no landing may show (docs/decisions.md, "Member landings": the site's fictional profiles only) and for a
 * slug that does not exist; a slug of another language or niche goes to the right one, the query kept.
 */

const INDEX_HTML = readFileSync(join(import.meta.dirname, '..', '..', '..', 'web', 'index.html'), 'utf8');

let t: TestApp;
let webDist: string;
let dataDir: string;
let fictional: number;
let herzFictional: number;
let member: number;
beforeAll(async () => {
  webDist = mkdtempSync(join(tmpdir(), 'amora-web-'));
  dataDir = mkdtempSync(join(tmpdir(), 'amora-member-landing-pages-'));
  writeFileSync(join(webDist, 'index.html'), INDEX_HTML);
  t = await createTestApp({ webDist, dataDir });
  fictional = (await createProfile(t, { isFictional: true, name: 'Fiona' }, { photo: true })).id;
  herzFictional = (await createProfile(t, { isFictional: true, siteId: 2, name: 'Hedda' }, { photo: true })).id;
  member = (await createMember(t, { name: 'Mara' })).profileId;
});
afterAll(async () => {
  await t?.close();
  rmSync(webDist, { recursive: true, force: true });
  rmSync(dataDir, { recursive: true, force: true });
});

const get = (url: string, host = AMORA) => t.app.inject({ url, headers: { host } });
async function expectStatus(url: string, status: number, host = AMORA) {
  const res = await get(url, host);
  expect(res.statusCode, url).toBe(status);
}
async function expectRedirect(url: string, to: string) {
  const res = await get(url);
  expect(res.statusCode, url).toBe(302);
  expect(res.headers.location, url).toBe(to);
}

describe('member landing paths', () => {
  it('name their layout and profile, with or without a slug and a language', () => {
    expect(memberLandingLayoutOfPath('/members/5/landing')).toBe('landing');
    expect(memberLandingLayoutOfPath('/de/members/5/landing2/de')).toBe('landing2');
    expect(memberLandingLayoutOfPath('/members/5/landing3')).toBe('landing3');
    expect(memberLandingLayoutOfPath('/members/5/landing/eng')).toBeNull();
    expect(memberLandingLayoutOfPath('/members/5/signup')).toBeNull();
    expect(memberLandingIdOf('/nl/members/42/landing3/milf-nl')).toBe(42);
    expect(memberLandingIdOf('/members/abc/landing')).toBe(0);
    expect(memberLandingIdOf('/members/42')).toBeNull();
  });
});

describe('the page of a member landing', () => {
  it("is there for one of the site's fictional profiles, in each layout and language, with or without a slug", async () => {
    for (const url of [
      `/members/${fictional}/landing`,
      `/de/members/${fictional}/landing`,
      `/members/${fictional}/landing2`,
      `/members/${fictional}/landing2/eng`,
      `/nl/members/${fictional}/landing2/nl`,
      `/members/${fictional}/landing3/eng?network=test&sub1=x`,
      `/pl/members/${fictional}/landing3/pl`,
    ]) {
      await expectStatus(url, 200);
    }
  });

  it("is a 404 for a member's profile, another site's, one that is hidden or retired, an unknown id or one that is no number", async () => {
    const invisible = (await createProfile(t, { isFictional: true, isInvisible: true }, { photo: true })).id;
    const retired = (await createProfile(t, { isFictional: true }, { photo: true })).id;
    await t.ctx.db.update(profiles).set({ status: 'disabled' }).where(eq(profiles.id, retired));
    for (const id of [member, herzFictional, invisible, retired, 2_000_000_000, 'abc']) {
      for (const layout of ['landing', 'landing2', 'landing3/eng']) await expectStatus(`/members/${id}/${layout}`, 404);
    }
    // A member even where visitors may search members; the other site's fictional profile on its own site.
    await withSite(t, 'amora.localhost', { loggedOutSearch: true, loggedOutSearchTrafficsource: true }, async () => {
      await expectStatus(`/members/${member}/landing?network=test`, 404);
    });
    await expectStatus(`/members/${herzFictional}/landing`, 200, HERZ);
    await expectStatus(`/members/${fictional}/landing`, 404, HERZ);
  });

  it('is a 404 for a slug that does not exist, and for a slug on the teaser, which takes none', async () => {
    for (const url of [
      `/members/${fictional}/landing2/en`,
      `/members/${fictional}/landing3/xx-de`,
      `/de/members/${fictional}/landing2/nope`,
      `/members/${fictional}/landing/eng`,
    ]) {
      await expectStatus(url, 404);
    }
  });

  it("takes a slug of another language to that language's path and one of another niche to the site's, the query kept", async () => {
    await expectRedirect(
      `/de/members/${fictional}/landing2/eng?network=test&sub1=x`,
      `/members/${fictional}/landing2/eng?network=test&sub1=x`,
    );
    await expectRedirect(`/members/${fictional}/landing3/de?ref=7`, `/de/members/${fictional}/landing3/de?ref=7`);
    await expectRedirect(`/nl/members/${fictional}/landing2/milf-nl?sub2=a%20b`, `/nl/members/${fictional}/landing2/nl?sub2=a%20b`);
    await withSite(t, 'amora.localhost', { niche: 6 }, async () => {
      await expectRedirect(`/members/${fictional}/landing3/eng?network=test`, `/members/${fictional}/landing3/milf-eng?network=test`);
      await expectStatus(`/members/${fictional}/landing3/milf-eng`, 200);
    });
  });
});

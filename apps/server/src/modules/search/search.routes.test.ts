import { blocks, plannedDatabase, profiles, sites } from '@amora/db';
import { eq, inArray, type SQL, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../test/harness';

let t: TestApp;
const HOST = { host: 'localhost' };
let ids: number[] = [];
let viewerCookie = '';
let viewerProfile = 0;

/** 60 active members on site 1, newest last: 30 women in NL, 20 men in DE, 10 women in DE. */
beforeAll(async () => {
  t = await createTestApp();
  const rows = [];
  for (let i = 0; i < 60; i++) {
    const isWomanNl = i < 30;
    rows.push({
      siteId: 1,
      name: `M${i}`,
      country: isWomanNl ? 'NL' : 'DE',
      region: isWomanNl ? (i % 2 ? 'NL-NH' : 'NL-UT') : 'DE-BY',
      gender: i < 30 || i >= 50 ? 'woman' : 'man',
      birthDate: `${1960 + (i % 40)}-06-15`,
      status: 'active',
    });
  }
  ids = (await t.ctx.db.insert(profiles).values(rows).returning({ id: profiles.id })).map((r) => r.id);
  const signup = await t.app.inject({
    method: 'POST',
    url: '/api/signup.php',
    headers: { ...HOST, 'x-request-type': 'client' },
    remoteAddress: '10.88.0.1',
    payload: { email: 'searcher@example.com', name: 'Searcher', password: 'long enough secret', date_of_birth: '1991-01-01', terms: true },
  });
  viewerCookie = signup.cookies.map((c) => `${c.name}=${c.value}`).join('; ');
  viewerProfile = signup.json().user.profile.id;
});
afterAll(async () => {
  await t.close();
});

const get = (query: string, cookie = viewerCookie, host = HOST) =>
  t.app.inject({ url: `/api/search.php${query}`, headers: { ...host, ...(cookie ? { cookie } : {}) } });

describe('GET /api/search.php', () => {
  it('filters by gender, country, region and age, newest first', async () => {
    const res = await get('?gender=woman&country=NL&countryregion=NL-NH');
    expect(res.statusCode).toBe(200);
    const body = res.json();
    expect(body.results.length).toBe(15);
    expect(body.numResults).toBe(15);
    expect(body.results.map((r: { id: number }) => r.id)).toEqual([...body.results.map((r: { id: number }) => r.id)].sort((a, b) => b - a));
    const aged = (await get('?min_age=40&max_age=45')).json();
    for (const card of aged.results) expect(card.age).toBeGreaterThanOrEqual(40);
    for (const card of aged.results) expect(card.age).toBeLessThanOrEqual(45);
  });

  it('pages by keyset: page 2 continues exactly where page 1 stopped', async () => {
    const first = (await get('?country=DE')).json();
    expect(first.results).toHaveLength(24);
    expect(first.next_cursor).toBe(`n${first.results[23].id}`); // none of them has a photo
    const second = (await get(`?country=DE&cursor=${first.next_cursor}`)).json();
    expect(second.results[0].id).toBeLessThan(first.results[23].id);
    expect(second.numResults).toBe(-1);
    const seen = new Set([...first.results, ...second.results].map((r: { id: number }) => r.id));
    expect(seen.size).toBe(first.results.length + second.results.length);
  });

  it('past a full page, counts the matches for everyone alike, less the viewer', async () => {
    // The viewer is an active woman in NL; she blocked one NL woman and another blocked her.
    await t.ctx.db
      .update(profiles)
      .set({ status: 'active', gender: 'woman', country: 'NL', birthDate: '1991-01-01' })
      .where(eq(profiles.id, viewerProfile));
    await t.ctx.db.insert(blocks).values([
      { blockerProfileId: viewerProfile, blockedProfileId: ids[0] },
      { blockerProfileId: ids[1], blockedProfileId: viewerProfile },
    ]);
    const other = await t.app.inject({
      method: 'POST',
      url: '/api/signup.php',
      headers: { ...HOST, 'x-request-type': 'client' },
      remoteAddress: '10.88.0.2',
      payload: { email: 'counter@example.com', name: 'Counter', password: 'long enough secret', date_of_birth: '1980-01-01', terms: true },
    });
    const otherCookie = other.cookies.map((c) => `${c.name}=${c.value}`).join('; ');
    try {
      // 30 NL women and the viewer. The viewer is not counted for herself; the two in a block with her are left
      // out of her results but not out of the number, which is the same for everyone (it tells nobody of a block).
      const mine = (await get('?gender=woman&country=NL')).json();
      expect(mine.results).toHaveLength(24);
      expect(mine.numResults).toBe(30);
      expect(mine.numResults_capped).toBe(false);
      const seen = [...mine.results, ...(await get(`?gender=woman&country=NL&cursor=${mine.next_cursor}`)).json().results];
      const seenIds = seen.map((r: { id: number }) => r.id);
      for (const hidden of [viewerProfile, ids[0], ids[1]]) expect(seenIds).not.toContain(hidden);
      expect(seen).toHaveLength(28);
      const theirs = (await get('?gender=woman&country=NL', otherCookie)).json();
      expect(theirs.numResults).toBe(31);
      // Many first pages at once, with a count not kept yet (other ages): one count answers them all, the same.
      const many = await Promise.all(Array.from({ length: 20 }, () => get('?gender=woman&country=NL&min_age=19', otherCookie)));
      expect(new Set(many.map((res) => res.json().numResults)).size).toBe(1);
      expect(many.every((res) => res.statusCode === 200)).toBe(true);
      expect(theirs.results.map((r: { id: number }) => r.id)).toContain(viewerProfile);
    } finally {
      await t.ctx.db.delete(blocks).where(inArray(blocks.blockedProfileId, [ids[0], viewerProfile]));
      await t.ctx.db.update(profiles).set({ status: 'disabled', gender: null }).where(eq(profiles.id, viewerProfile));
    }
  });

  it('fills in similar profiles when the search finds few', async () => {
    const body = (await get('?gender=man&country=DE&min_age=30&max_age=31')).json();
    expect(body.results.length).toBeLessThan(24);
    expect(body.similar_numResults).toBeGreaterThan(0);
    const main = new Set(body.results.map((r: { id: number }) => r.id));
    for (const card of body.similar_results) expect(main.has(card.id)).toBe(false);
  });

  it.runIf(process.env.AMORA_TEST_DB === 'postgres')('runs a page as a named statement that PostgreSQL planned once', async () => {
    for (let i = 0; i < 7; i++) expect((await get('?gender=woman&min_age=25&max_age=45')).statusCode).toBe(200);
    const planned = plannedDatabase(t.ctx.db);
    expect(planned).not.toBe(t.ctx.db);
    const rows = async (query: SQL) => ((await planned.execute(query)) as unknown as { rows: unknown[] }).rows;
    expect((await rows(sql`show plan_cache_mode`))[0]).toEqual({ plan_cache_mode: 'force_generic_plan' });
    // One search at a time: the pool hands out the same connection each time, the one that holds the statement.
    const statements = await rows(
      sql`select name, generic_plans::int as generic, custom_plans::int as custom from pg_prepared_statements where name = 'search_page_gsoav_25'`,
    );
    // The shape of gender, the viewer's mutual interest (s), age and the viewer: prepared once, planned once.
    expect(statements).toEqual([{ name: 'search_page_gsoav_25', generic: 7, custom: 0 }]);
  });

  it.each([
    ['?min_age=50&max_age=30', 'max_age'],
    ['?min_age=17', 'min_age'],
    ['?max_age=120', 'max_age'],
    ['?country=XX', 'country'],
    ['?country=NL&countryregion=DE-BY', 'countryregion'],
    ['?countryregion=NL-NH', 'countryregion'],
    ['?gender=robot', 'gender'],
    ['?cursor=abc', 'cursor'],
    ['?colour=red', 'colour'],
  ])('%s → 400 naming %s', async (query, field) => {
    const res = await get(query);
    expect(res.statusCode).toBe(400);
    expect(res.json().field).toBe(field);
  });

  it('refuses a country the site does not serve', async () => {
    const res = await get('?country=US', '', { host: 'herzklopfen.localhost' });
    expect([400, 403]).toContain(res.statusCode);
  });

  it('never shows the viewer, invisible, blocked, deleted or unconfirmed members', async () => {
    await t.ctx.db.update(profiles).set({ isInvisible: true }).where(eq(profiles.id, ids[59]));
    await t.ctx.db.update(profiles).set({ status: 'deleted' }).where(eq(profiles.id, ids[58]));
    await t.ctx.db.update(profiles).set({ status: 'disabled' }).where(eq(profiles.id, ids[57]));
    await t.ctx.db.insert(blocks).values({ blockerProfileId: ids[56], blockedProfileId: viewerProfile });
    await t.ctx.db.insert(blocks).values({ blockerProfileId: viewerProfile, blockedProfileId: ids[55] });
    const body = (await get('?country=DE')).json();
    const shown = new Set(body.results.map((r: { id: number }) => r.id));
    for (const hidden of [viewerProfile, ids[59], ids[58], ids[57], ids[56], ids[55]]) expect(shown.has(hidden)).toBe(false);
    await t.ctx.db
      .update(profiles)
      .set({ isInvisible: false, status: 'active' })
      .where(inArray(profiles.id, [ids[59], ids[58], ids[57]]));
  });

  it('an invisible member cannot browse others, from their next search on', async () => {
    const setInvisible = (isInvisible: boolean) =>
      t.app.inject({
        method: 'PUT',
        url: '/api/profile.php',
        headers: { ...HOST, 'x-request-type': 'client', cookie: viewerCookie },
        payload: { is_invisible: isInvisible },
      });
    expect((await get('')).statusCode).toBe(200);
    expect((await setInvisible(true)).statusCode).toBe(200);
    const res = await get('');
    expect(res.statusCode).toBe(403);
    expect(res.json().error).toBe('invisible');
    expect((await setInvisible(false)).statusCode).toBe(200);
    expect((await get('')).statusCode).toBe(200);
  });

  it('lets visitors search only as the site allows', async () => {
    expect((await get('', '')).statusCode).toBe(200);
    await t.ctx.db.update(sites).set({ loggedOutSearch: false }).where(eq(sites.id, 1));
    t.ctx.sites.invalidate();
    const refused = await get('', '');
    expect(refused.statusCode).toBe(403);
    expect(refused.json().authentication_required).toBe(true);
    const tracked = await get('', 'tracking={"network":"adnet"}');
    expect(tracked.statusCode).toBe(200);
    await t.ctx.db.update(sites).set({ loggedOutSearch: true }).where(eq(sites.id, 1));
    t.ctx.sites.invalidate();
  });
});

describe("a member's default search widens when their area finds few", () => {
  /** Profiles in Belgium (1 in Antwerp, 9 in Hainaut) and Austria (1 in Vienna, 1 in Tyrol); 30 in Germany above. */
  let antwerp = 0;
  beforeAll(async () => {
    const at = (country: string, region: string, n: number) =>
      Array.from({ length: n }, (_, i) => ({
        siteId: 1,
        name: `${region} ${i}`,
        country,
        region,
        birthDate: '1985-06-15',
        status: 'active',
      }));
    const rows = await t.ctx.db
      .insert(profiles)
      .values([...at('BE', 'BE-VAN', 1), ...at('BE', 'BE-WHT', 9), ...at('AT', 'AT-9', 1), ...at('AT', 'AT-7', 1)])
      .returning({ id: profiles.id });
    antwerp = rows[0].id;
  });

  const idsOf = (body: { results: { id: number }[] }) => body.results.map((r) => r.id);

  it('to the whole country when the region has fewer than a screenful, and says so', async () => {
    const res = await get('?country=BE&countryregion=BE-VAN&widen=auto');
    expect(res.statusCode, res.body).toBe(200);
    const body = res.json();
    expect(body.widened).toBe('country');
    expect(body.results).toHaveLength(10);
    expect(body.numResults).toBe(10);
    expect(idsOf(body)).toContain(antwerp);
  });

  it('then to nearby countries, and its next pages go on there', async () => {
    const res = await get('?country=AT&countryregion=AT-9&widen=auto');
    expect(res.statusCode, res.body).toBe(200);
    const first = res.json();
    expect(first.widened).toBe('nearby');
    // Austria's 2 and Germany's 30 (Switzerland and Italy are served too, with nobody in them here).
    expect(first.numResults).toBe(32);
    expect(first.results).toHaveLength(24);
    expect(first.next_cursor).not.toBeNull();
    const second = (await get(`?country=AT&countryregion=AT-9&widen=nearby&cursor=${first.next_cursor}`)).json();
    expect(second.widened).toBe('nearby');
    // The rest of the 32, less the two in a block with the viewer (left out of the pages, not of the count).
    expect(second.results).toHaveLength(6);
    expect(second.next_cursor).toBeNull();
    const all = [...first.results, ...second.results];
    expect(new Set(all.map((r: { id: number }) => r.id)).size).toBe(30);
    expect(new Set(all.map((r: { country: string }) => r.country))).toEqual(new Set(['AT', 'DE']));
  });

  it('a search the member set themselves answers as asked', async () => {
    const body = (await get('?country=BE&countryregion=BE-VAN')).json();
    expect(body.widened).toBeNull();
    expect(idsOf(body)).toEqual([antwerp]);
    expect(body.numResults).toBe(1);
  });

  it('a default search that finds a screenful stays where it is', async () => {
    const body = (await get('?country=BE&countryregion=BE-WHT&widen=auto')).json();
    expect(body.widened).toBeNull();
    expect(body.results).toHaveLength(9);
  });

  it.each([
    ['?widen=country', 'widen'],
    ['?country=BE&widen=country', 'widen'],
    ['?widen=nearby', 'widen'],
    ['?country=BE&widen=everywhere', 'widen'],
  ])('%s → 400 naming %s', async (query, field) => {
    const res = await get(query);
    expect(res.statusCode).toBe(400);
    expect(res.json().field).toBe(field);
  });
});

describe('mutual interest in search', () => {
  it('a gender the member is not looking for finds nobody, and a visitor searches as asked', async () => {
    const man = await t.app.inject({
      method: 'POST',
      url: '/api/signup.php',
      headers: { ...HOST, 'x-request-type': 'client' },
      remoteAddress: '10.88.0.9',
      payload: {
        email: 'straight@example.com',
        name: 'Straight',
        password: 'long enough secret',
        date_of_birth: '1980-01-01',
        terms: true,
      },
    });
    const cookie = man.cookies.map((c) => `${c.name}=${c.value}`).join('; ');
    const updated = await t.app.inject({
      method: 'PUT',
      url: '/api/profile.php',
      headers: { ...HOST, 'x-request-type': 'client', cookie },
      payload: { gender: 'man', looking_for: ['woman'] },
    });
    expect(updated.statusCode, updated.body).toBe(200);
    const men = (await get('?gender=man&country=DE', cookie)).json();
    expect(men).toMatchObject({ results: [], numResults: 0, similar_results: [] });
    expect((await get('?gender=man&country=DE', '')).json().results.length).toBeGreaterThan(0);
  });
});

import { profiles } from '@amora/db';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { callAs, createMember, createProfile, type Member, uploadPhoto } from '../../test/factories';
import { createTestApp, type TestApp } from '../../test/harness';

let t: TestApp;
let viewer: Member;
/** Non-binary members in Ireland (no one else in the template is): every third has a photo, oldest first. */
const withPhoto: number[] = [];
const withoutPhoto: number[] = [];
const QUERY = 'gender=nonbinary&country=IE';

beforeAll(async () => {
  t = await createTestApp();
  viewer = await createMember(t);
  for (let i = 0; i < 45; i++) {
    const row = await createProfile(t, { gender: 'nonbinary', country: 'IE', name: `P${i}` }, { photo: i % 3 === 0 });
    (i % 3 === 0 ? withPhoto : withoutPhoto).push(row.id);
  }
});
afterAll(async () => {
  await t.close();
});

type Page = { results: { id: number; thumb_url: string | null }[]; next_cursor: string | null };

/** Every page of the search, following next_cursor to the end. */
async function allPages(query: string): Promise<{ ids: number[]; cursors: string[] }> {
  const ids: number[] = [];
  const cursors: string[] = [];
  let cursor: string | null = null;
  do {
    const res = await callAs(t, viewer, 'GET', `/api/search.php?${query}${cursor ? `&cursor=${cursor}` : ''}`);
    expect(res.statusCode, res.body).toBe(200);
    const page: Page = res.json();
    ids.push(...page.results.map((r) => r.id));
    cursor = page.next_cursor;
    if (cursor) cursors.push(cursor);
  } while (cursor);
  return { ids, cursors };
}

const newestFirst = (ids: number[]) => [...ids].sort((a, b) => b - a);

describe('search order: members with a photo first', () => {
  it('lists members with a photo before those without, each newest first, across pages without duplicates or gaps', async () => {
    const { ids, cursors } = await allPages(QUERY);
    expect(ids).toEqual([...newestFirst(withPhoto), ...newestFirst(withoutPhoto)]);
    // 15 with a photo, then 30 without: page 1 ends among those without, so its cursor says so.
    expect(cursors).toEqual([`n${newestFirst(withoutPhoto)[8]}`]);
    const first: Page = (await callAs(t, viewer, 'GET', `/api/search.php?${QUERY}`)).json();
    expect(first.results[0].thumb_url).not.toBeNull();
    expect(first.results[23].thumb_url).toBeNull();
  });

  it('puts a member who signs up without a photo after those with one, and before them once they add one', async () => {
    const newcomer = await createMember(t, { profile: { gender: 'nonbinary', country: 'IE' } });
    let { ids } = await allPages(QUERY);
    expect(ids.indexOf(newcomer.profileId)).toBe(withPhoto.length);
    await uploadPhoto(t, newcomer);
    ({ ids } = await allPages(QUERY));
    expect(ids[0]).toBe(newcomer.profileId);
    expect(ids).toHaveLength(46);
    expect(new Set(ids).size).toBe(46);
    await t.ctx.db.update(profiles).set({ status: 'disabled' }).where(eq(profiles.id, newcomer.profileId));
  });

  it('keeps pages complete while a member on a later page gains a photo between two pages', async () => {
    const first: Page = (await callAs(t, viewer, 'GET', `/api/search.php?${QUERY}`)).json();
    // A member not yet shown (without a photo, on page 2) gets one: they move up, behind the cursor.
    const moving = newestFirst(withoutPhoto)[20];
    expect(first.results.map((r) => r.id)).not.toContain(moving);
    const [photoRow] = await t.ctx.db.select({ id: profiles.mainPhotoId }).from(profiles).where(eq(profiles.id, withPhoto[0]));
    await t.ctx.db.update(profiles).set({ mainPhotoId: photoRow.id }).where(eq(profiles.id, moving));
    const second: Page = (await callAs(t, viewer, 'GET', `/api/search.php?${QUERY}&cursor=${first.next_cursor}`)).json();
    const shown = [...first.results, ...second.results].map((r) => r.id);
    // Everyone else is shown exactly once; the member who moved is simply not shown again further down.
    expect(new Set(shown).size).toBe(shown.length);
    expect(shown).toEqual([...newestFirst(withPhoto), ...newestFirst(withoutPhoto).filter((id) => id !== moving)]);
    await t.ctx.db.update(profiles).set({ mainPhotoId: null }).where(eq(profiles.id, moving));
  });

  it('refuses a malformed cursor', async () => {
    for (const bad of ['n', 'nn1', 'x1', 'N1', '1n', '-1', 'n9007199254740992', 'n12345678901234567']) {
      const res = await callAs(t, viewer, 'GET', `/api/search.php?${QUERY}&cursor=${bad}`);
      expect(res.statusCode, bad).toBe(400);
      expect(res.json().field, bad).toBe('cursor');
    }
    // A cursor of the old form (a bare id) still reads as a member with a photo.
    const res = await callAs(t, viewer, 'GET', `/api/search.php?${QUERY}&cursor=${newestFirst(withPhoto)[4]}`);
    expect(res.json().results.map((r: { id: number }) => r.id)).toEqual(
      [...newestFirst(withPhoto).slice(5), ...newestFirst(withoutPhoto)].slice(0, 24),
    );
  });
});

import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { memberLandingResponseSchema } from '@amora/contracts';
import { photos, profiles } from '@amora/db';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type CallOptions, HERZ } from '../../test/accounts';
import { callAs, createMember, createProfile, type Member, uploadPhoto, withSite } from '../../test/factories';
import { createTestApp, type TestApp } from '../../test/harness';

/**
 * GET /api/member-landing.php: which profiles a member landing (/members/{id}/landing, landing2, landing3) shows a
 * visitor. The site's own fictional profiles, active and visible; never a member (a landing is advertising), even
 * where visitors may search members. Everything else is the same 404.
 */
let t: TestApp;
let dataDir: string;
let fictional: Awaited<ReturnType<typeof createProfile>>;
let anna: Member;
let annaPhoto: number;

beforeAll(async () => {
  dataDir = mkdtempSync(join(tmpdir(), 'amora-member-landing-'));
  t = await createTestApp({ dataDir });
  fictional = await createProfile(
    t,
    { name: 'Fiona Fiction', isFictional: true, city: 'Utrecht', gender: 'woman', bodyType: 'curvy', birthDate: '1990-05-05' },
    { photo: true },
  );
  anna = await createMember(t, { name: 'Anna Landing', profile: { city: 'Leiden', gender: 'woman' } });
  annaPhoto = (await uploadPhoto(t, anna, { seed: 3, width: 900, height: 1200 })).id;
});
afterAll(async () => {
  await t?.close();
  rmSync(dataDir, { recursive: true, force: true });
});

const landing = (id: number | string, options: CallOptions = {}) =>
  callAs(t, null, 'GET', `/api/member-landing.php?id=${id}`, undefined, options);

async function landingOk(id: number, options: CallOptions = {}) {
  const res = await landing(id, options);
  expect(res.statusCode, res.body).toBe(200);
  return memberLandingResponseSchema.parse(res.json()).profile;
}

async function expectNotFound(id: number | string, options: CallOptions = {}) {
  const res = await landing(id, options);
  expect(res.statusCode, res.body).toBe(404);
  // The same answer whatever the reason, so a landing tells nobody which ids exist.
  expect(res.json()).toEqual({ error: 'not_found', message: 'This profile could not be found' });
}

const setProfile = (id: number, values: Partial<typeof profiles.$inferInsert>) =>
  t.ctx.db.update(profiles).set(values).where(eq(profiles.id, id));

describe('GET /api/member-landing.php', () => {
  it("shows a fictional profile's teaser: name, age, city, main photo sizes, the site's facts and the fictional flag", async () => {
    const profile = await landingOk(fictional.id);
    expect(profile).toMatchObject({ id: fictional.id, name: 'Fiona Fiction', city: 'Utrecht', country: 'NL', is_fictional: true });
    expect(profile.age).toBeGreaterThanOrEqual(18);
    expect(profile.facts).toMatchObject({ gender: 'woman', body_type: 'curvy' });
    // The landers' public 4:5 crop of the main photo, at their widths.
    const photo = (w: number) => `/api/lander-photo.php?id=${fictional.mainPhotoId}&w=${w}`;
    expect(profile.photo).toEqual({
      src: photo(540),
      srcSet: `${photo(360)} 360w, ${photo(540)} 540w, ${photo(720)} 720w`,
      width: 540,
      height: 675,
    });
    expect(Object.keys(profile).sort()).toEqual(['age', 'city', 'country', 'facts', 'id', 'is_fictional', 'name', 'photo']);
  });

  it("shows only the facts the site's visible_profile_fields lists", async () => {
    await withSite(t, 'amora.localhost', { visibleProfileFields: ['gender'] }, async () => {
      expect((await landingOk(fictional.id)).facts).toEqual({ gender: 'woman' });
    });
  });

  it("never shows a member's profile, even where visitors may search members, with or without a traffic source", async () => {
    const cookie = `tracking=${encodeURIComponent(JSON.stringify({ network: 'test' }))}`;
    await withSite(t, 'amora.localhost', { loggedOutSearch: true, loggedOutSearchTrafficsource: true }, async () => {
      await expectNotFound(anna.profileId);
      await expectNotFound(anna.profileId, { cookie });
      // Their main photo stays where it was: on their profile, not on a landing's public photo address.
      expect((await callAs(t, null, 'GET', `/api/lander-photo.php?id=${annaPhoto}&w=540`)).statusCode).toBe(404);
    });
    // Whatever the search rule, a fictional profile is the operator's own and is shown.
    await withSite(t, 'amora.localhost', { loggedOutSearch: false, loggedOutSearchTrafficsource: false }, async () => {
      expect((await landingOk(fictional.id)).name).toBe('Fiona Fiction');
    });
    // A member asking sees the same.
    expect((await callAs(t, anna, 'GET', `/api/member-landing.php?id=${anna.profileId}`)).statusCode).toBe(404);
  });

  it("is a 404 for another site's profile, fictional or member", async () => {
    const herzFictional = await createProfile(t, { siteId: 2, name: 'Herz Fiction', isFictional: true });
    const herzMember = await createMember(t, { host: HERZ, name: 'Herz Hanna' });
    await expectNotFound(herzFictional.id);
    await expectNotFound(herzMember.profileId);
    // On its own site the fictional one is shown.
    expect((await landingOk(herzFictional.id, { host: HERZ })).name).toBe('Herz Fiction');
    await expectNotFound(fictional.id, { host: HERZ });
  });

  it('is a 404 for a retired, suspended or invisible fictional profile, and for an unknown id', async () => {
    const retired = await createProfile(t, { isFictional: true, status: 'disabled' }, { photo: true });
    const suspended = await createProfile(t, { isFictional: true }, { photo: true });
    await setProfile(suspended.id, { status: 'suspended' });
    const invisible = await createProfile(t, { isFictional: true, isInvisible: true }, { photo: true });
    for (const id of [retired.id, suspended.id, invisible.id]) await expectNotFound(id);
    await expectNotFound(2_000_000_000);
  });

  it('refuses an id that is not a number (400) and shows a profile without a photo with none', async () => {
    expect((await landing('abc')).statusCode).toBe(400);
    const bare = await createProfile(t, { isFictional: true, name: 'No Photo' });
    expect((await landingOk(bare.id)).photo).toBeNull();
  });

  it('leaves out a main photo that is not active (waiting for moderation)', async () => {
    const pendingPhoto = await createProfile(t, { isFictional: true, name: 'Pending Photo' }, { photo: true });
    await t.ctx.db
      .update(photos)
      .set({ status: 'pending' })
      .where(eq(photos.id, pendingPhoto.mainPhotoId as number));
    expect((await landingOk(pendingPhoto.id)).photo).toBeNull();
  });
});

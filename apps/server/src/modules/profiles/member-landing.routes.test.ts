import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { memberLandingResponseSchema } from '@amora/contracts';
import { photos, profiles, users } from '@amora/db';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type CallOptions, HERZ } from '../../test/accounts';
import { callAs, createMember, createProfile, type Member, uploadPhoto, withSite } from '../../test/factories';
import { createTestApp, type TestApp } from '../../test/harness';

/**
 * GET /api/member-landing.php: which profiles a member landing (/members/{id}/landing, landing2, landing3) shows a
 * visitor. Fictional profiles of the site always; a member only while a visitor may search members (the site's
 * logged_out_search, or logged_out_search_trafficsource for a traffic-source visitor), and only an active,
 * visible profile of this site. Everything else is the same 404.
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

const landing = (id: number | string, query = '', options: CallOptions = {}) =>
  callAs(t, null, 'GET', `/api/member-landing.php?id=${id}${query}`, undefined, options);

async function landingOk(id: number, query = '', options: CallOptions = {}) {
  const res = await landing(id, query, options);
  expect(res.statusCode, res.body).toBe(200);
  return memberLandingResponseSchema.parse(res.json()).profile;
}

async function expectNotFound(id: number | string, query = '', options: CallOptions = {}) {
  const res = await landing(id, query, options);
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
    // The 4:5 crop, and the whole photo for a sharper screen (600 × 750 fills the frame at 600 px).
    expect(profile.photo).toEqual({
      src: `/api/photo.php?id=${fictional.mainPhotoId}&v=thumb`,
      srcSet: `/api/photo.php?id=${fictional.mainPhotoId}&v=thumb 320w, /api/photo.php?id=${fictional.mainPhotoId}&v=large 600w`,
      width: 320,
      height: 400,
    });
    expect(Object.keys(profile).sort()).toEqual(['age', 'city', 'country', 'facts', 'id', 'is_fictional', 'name', 'photo']);
  });

  it("shows only the facts the site's visible_profile_fields lists", async () => {
    await withSite(t, 'amora.localhost', { visibleProfileFields: ['gender'] }, async () => {
      expect((await landingOk(fictional.id)).facts).toEqual({ gender: 'woman' });
    });
  });

  it('shows a member while visitors may search members, and their main photo a visitor may fetch', async () => {
    const profile = await landingOk(anna.profileId);
    expect(profile).toMatchObject({ name: 'Anna Landing', city: 'Leiden', is_fictional: false });
    expect(profile.photo?.src).toBe(`/api/photo.php?id=${annaPhoto}&v=thumb`);
    const photo = await callAs(t, null, 'GET', profile.photo?.src as string);
    expect(photo.statusCode).toBe(200);
  });

  it('hides members when the site keeps them from visitors, unless a traffic-source visitor may search', async () => {
    await withSite(t, 'amora.localhost', { loggedOutSearch: false, loggedOutSearchTrafficsource: false }, async () => {
      await expectNotFound(anna.profileId);
      await expectNotFound(anna.profileId, '&network=test&sub1=x');
      // A fictional profile is the operator's own: shown whatever the search rule.
      expect((await landingOk(fictional.id)).name).toBe('Fiona Fiction');
    });
    await withSite(t, 'amora.localhost', { loggedOutSearch: false, loggedOutSearchTrafficsource: true }, async () => {
      await expectNotFound(anna.profileId);
      // The landing's own tracking query (first visit) or the tracking cookie (later pages) makes a traffic-source visitor.
      expect((await landingOk(anna.profileId, '&network=test&sub1=x')).name).toBe('Anna Landing');
      const cookie = `tracking=${encodeURIComponent(JSON.stringify({ network: 'test' }))}`;
      expect((await landingOk(anna.profileId, '', { cookie })).name).toBe('Anna Landing');
      // An empty tracking value is no traffic source.
      await expectNotFound(anna.profileId, '&network=');
    });
  });

  it("is a 404 for another site's profile, fictional or member", async () => {
    const herzFictional = await createProfile(t, { siteId: 2, name: 'Herz Fiction', isFictional: true });
    const herzMember = await createMember(t, { host: HERZ, name: 'Herz Hanna' });
    await expectNotFound(herzFictional.id);
    await expectNotFound(herzMember.profileId);
    // On its own site the fictional one is shown.
    expect((await landingOk(herzFictional.id, '', { host: HERZ })).name).toBe('Herz Fiction');
    await expectNotFound(fictional.id, '', { host: HERZ });
  });

  it('is a 404 for an invisible, not activated, suspended, retired or deleted profile, and for an unknown id', async () => {
    const hidden = await createMember(t, { profile: { is_invisible: true } });
    const pending = await createMember(t, { activate: false });
    const suspended = await createMember(t);
    await setProfile(suspended.profileId, { status: 'suspended' });
    const retired = await createProfile(t, { isFictional: true, status: 'disabled' });
    const deleted = await createMember(t);
    await t.ctx.db.update(users).set({ status: 'deleted' }).where(eq(users.id, deleted.userId));
    const invisibleFictional = await createProfile(t, { isFictional: true, isInvisible: true });
    for (const id of [hidden.profileId, pending.profileId, suspended.profileId, retired.id, deleted.profileId, invisibleFictional.id]) {
      await expectNotFound(id);
    }
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

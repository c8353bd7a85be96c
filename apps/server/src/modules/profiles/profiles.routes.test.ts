import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { blockedProfilesResponseSchema, INTERESTS, memberResponseSchema, ownProfileResponseSchema } from '@amora/contracts';
import { blocks, likes, profiles, users } from '@amora/db';
import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type CallOptions, HERZ } from '../../test/accounts';
import {
  type CallArgs,
  callAs,
  createMember,
  createProfile,
  type Member,
  type MemberOptions,
  uploadPhoto,
  withSite,
} from '../../test/factories';
import { createTestApp, type TestApp } from '../../test/harness';

const PROFILE = '/api/profile.php';
const BLOCK = '/api/block.php';

let t: TestApp;
let dataDir: string;

beforeAll(async () => {
  dataDir = mkdtempSync(join(tmpdir(), 'amora-profiles-'));
  t = await createTestApp({ dataDir });
});
afterAll(async () => {
  await t?.close();
  rmSync(dataDir, { recursive: true, force: true });
});

const member = (options?: MemberOptions) => createMember(t, options);
const as = (...args: CallArgs) => callAs(t, ...args);
const upload = (who: Member, seed: number) => uploadPhoto(t, who, { seed });

const view = (who: Member | null, id: number | string, options: CallOptions = {}) =>
  as(who, 'GET', `/api/member.php?id=${id}`, undefined, options);

async function viewOk(who: Member | null, id: number) {
  const res = await view(who, id);
  expect(res.statusCode, res.body).toBe(200);
  return memberResponseSchema.parse(res.json());
}

async function ownProfile(who: Member) {
  const res = await as(who, 'GET', PROFILE);
  expect(res.statusCode, res.body).toBe(200);
  return ownProfileResponseSchema.parse(res.json()).profile;
}

async function profileRow(profileId: number) {
  const [row] = await t.ctx.db.select().from(profiles).where(eq(profiles.id, profileId));
  return row;
}

async function setPremium(who: Member) {
  const res = await as(who, 'POST', '/api/dev/premium.php', { paid: true });
  expect(res.statusCode, res.body).toBe(200);
}

async function listIds(who: Member | null): Promise<number[]> {
  const res = await as(who, 'GET', '/api/search.php');
  expect(res.statusCode, res.body).toBe(200);
  return res.json().results.map((c: { id: number }) => c.id);
}

async function relatedIds(who: Member | null, id: number): Promise<number[]> {
  return (await viewOk(who, id)).related.map((r) => r.id);
}

describe('GET/PUT /api/profile.php', () => {
  it('needs a session (403 authentication_required) and, to change anything, the client header', async () => {
    const visitorGet = await as(null, 'GET', PROFILE);
    expect(visitorGet.statusCode).toBe(403);
    expect(visitorGet.json()).toMatchObject({ error: 'authentication_required', authentication_required: true });

    const visitorPut = await as(null, 'PUT', PROFILE, { about: 'hi' });
    expect(visitorPut.statusCode).toBe(403);
    expect(visitorPut.json()).toMatchObject({ error: 'authentication_required', authentication_required: true });

    const me = await member();
    const before = await profileRow(me.profileId);
    const noHeader = await as(me, 'PUT', PROFILE, { about: 'sneaky' }, { client: false });
    expect(noHeader.statusCode).toBe(403);
    expect(noHeader.json().error).toBe('client_header_required');
    expect(await profileRow(me.profileId)).toEqual(before);
  });

  it('returns my own profile with my photos', async () => {
    const me = await member({ name: 'Owner Olga' });
    const photo = await upload(me, 1);
    const profile = await ownProfile(me);
    expect(profile).toMatchObject({
      id: me.profileId,
      name: 'Owner Olga',
      country: 'NL',
      about: '',
      interests: [],
      is_invisible: false,
      main_photo_id: photo.id,
    });
    expect(profile.photos).toEqual([expect.objectContaining({ id: photo.id, is_main: true })]);
  });

  it('saves about, every attribute, interests, country, region, city and invisible mode', async () => {
    const me = await member();
    const update = {
      about: '  Hello, I like long walks.  ',
      gender: 'woman',
      sexuality: 'bisexual',
      hair_colour: 'red',
      eye_colour: 'green',
      body_type: 'athletic',
      relationship_status: 'single',
      interests: ['music', 'travel', 'music'],
      country: 'DE',
      region: 'DE-BY',
      city: 'Munich',
      is_invisible: true,
    };
    const res = await as(me, 'PUT', PROFILE, update);
    expect(res.statusCode, res.body).toBe(200);
    const expected = {
      about: 'Hello, I like long walks.',
      gender: 'woman',
      sexuality: 'bisexual',
      hair_colour: 'red',
      eye_colour: 'green',
      body_type: 'athletic',
      relationship_status: 'single',
      interests: ['music', 'travel'],
      country: 'DE',
      region: 'DE-BY',
      city: 'Munich',
      is_invisible: true,
    };
    expect(ownProfileResponseSchema.parse(res.json()).profile).toMatchObject(expected);
    expect(await ownProfile(me)).toMatchObject(expected);
    const row = await profileRow(me.profileId);
    expect(row).toMatchObject({ hairColour: 'red', bodyType: 'athletic', country: 'DE', region: 'DE-BY', isInvisible: true });
    // A typed city has no position.
    expect(row.lat).toBeNull();
    expect(row.lon).toBeNull();

    // Attributes can be cleared, and what is not sent stays as it is.
    const cleared = await as(me, 'PUT', PROFILE, { hair_colour: null, is_invisible: false, interests: [] });
    expect(cleared.statusCode, cleared.body).toBe(200);
    expect(await ownProfile(me)).toMatchObject({ ...expected, hair_colour: null, is_invisible: false, interests: [] });
  });

  describe('refuses bad input with 400 naming the field, and changes nothing', () => {
    let me: Member;
    let herz: Member;
    beforeAll(async () => {
      me = await member();
      herz = await member({ host: HERZ });
      for (const who of [me, herz]) {
        const res = await as(who, 'PUT', PROFILE, { about: 'Original', hair_colour: 'brown', interests: ['music'] });
        expect(res.statusCode, res.body).toBe(200);
      }
    });

    async function refused(who: Member, payload: Record<string, unknown>, field: unknown) {
      const before = await profileRow(who.profileId);
      const res = await as(who, 'PUT', PROFILE, { about: 'Changed', ...payload });
      expect(res.statusCode, res.body).toBe(400);
      expect(res.json()).toMatchObject({ error: 'validation_failed', field });
      expect(await profileRow(who.profileId)).toEqual(before);
      expect(await ownProfile(who)).toMatchObject({ about: 'Original', hair_colour: 'brown', interests: ['music'] });
      return res;
    }

    it('an unknown attribute value', async () => {
      await refused(me, { hair_colour: 'purple' }, 'hair_colour');
      await refused(me, { gender: 'robot' }, 'gender');
      await refused(me, { relationship_status: 42 }, 'relationship_status');
    });

    it('an unknown key (the schema is strict)', async () => {
      // The field is the unknown key, or the body as a whole.
      const res = await refused(me, { lat: 52.1 }, expect.stringMatching(/^(lat|body)$/));
      expect(res.json().message).toMatch(/lat/);
      await refused(me, { status: 'active' }, expect.stringMatching(/^(status|body)$/));
    });

    it('an about text over 2000 characters', async () => {
      const res = await refused(me, { about: 'x'.repeat(2001) }, 'about');
      expect(res.json().message_key).toBe('profile.errors.aboutLength');
      // 2000 is fine.
      const ok = await as(me, 'PUT', PROFILE, { about: 'y'.repeat(2000) });
      expect(ok.statusCode, ok.body).toBe(200);
      await as(me, 'PUT', PROFILE, { about: 'Original' });
    });

    it('an interest the site does not offer', async () => {
      await refused(me, { interests: ['music', 'knitting-with-cats'] }, 'interests.1');
      await withSite(t, 'herzklopfen.localhost', { interests: ['music', 'sports'] }, async () => {
        const offered = INTERESTS.find((i) => i !== 'music' && i !== 'sports') as string;
        const res = await refused(herz, { interests: ['sports', offered] }, 'interests');
        expect(res.json().message).toContain(offered);
      });
    });

    it('a country the site does not serve', async () => {
      // Herzklopfen serves DE, AT, CH, NL and BE only.
      await refused(herz, { country: 'FR' }, 'country');
      await refused(herz, { country: 'US' }, 'country');
      await refused(herz, { country: 'XX' }, 'country');
      const ok = await as(herz, 'PUT', PROFILE, { country: 'AT' });
      expect(ok.statusCode, ok.body).toBe(200);
      expect((await ownProfile(herz)).country).toBe('AT');
    });

    it('a region of another country', async () => {
      await refused(me, { country: 'NL', region: 'DE-BY' }, 'region');
      await refused(herz, { country: 'NL', region: 'DE-BY' }, 'region');
      await refused(me, { region: 'BE-VAN' }, 'region');
    });

    it('a city_id that is not a city, or not one the site serves', async () => {
      await refused(me, { city_id: 1 }, 'city_id');
      await refused(me, { city_id: 'Amsterdam' }, 'city_id');
      // Dublin is a real city, but Herzklopfen does not serve Ireland.
      const dublin = await as(herz, 'GET', '/api/geocode.php?lat=53.3498&lon=-6.2603');
      expect(dublin.statusCode, dublin.body).toBe(200);
      expect(dublin.json()).toMatchObject({ city: 'Dublin', country: 'IE' });
      await refused(herz, { city_id: dublin.json().city_id }, 'city_id');
    });
  });

  it('a city from the geocoder sets city, country, region and a coarse position that no one is shown', async () => {
    const me = await member({ host: HERZ });
    const other = await member({ host: HERZ });
    expect((await ownProfile(me)).country).toBe('DE');
    const geo = await as(me, 'GET', '/api/geocode.php?lat=52.3731&lon=4.8922');
    expect(geo.statusCode, geo.body).toBe(200);
    expect(geo.json()).toMatchObject({ city: 'Amsterdam', country: 'NL' });

    const res = await as(me, 'PUT', PROFILE, { city_id: geo.json().city_id });
    expect(res.statusCode, res.body).toBe(200);
    expect(await ownProfile(me)).toMatchObject({ city: 'Amsterdam', country: 'NL', region: 'NL-NH' });

    const row = await profileRow(me.profileId);
    expect(row).toMatchObject({ city: 'Amsterdam', country: 'NL', region: 'NL-NH' });
    for (const value of [row.lat, row.lon]) {
      expect(typeof value).toBe('number');
      expect(Math.round((value as number) * 100) / 100).toBe(value);
    }
    expect(row.lat).toBeCloseTo(52.37, 1);
    expect(row.lon).toBeCloseTo(4.89, 1);

    // Neither the owner's nor anyone else's view of the profile carries coordinates.
    for (const viewer of [me, other]) {
      const seen = await view(viewer, me.profileId);
      expect(seen.statusCode, seen.body).toBe(200);
      const profile = seen.json().profile;
      for (const key of ['lat', 'lon', 'latitude', 'longitude', 'position', 'location']) expect(profile).not.toHaveProperty(key);
      expect(seen.body).not.toContain(String(row.lat));
      expect(seen.body).not.toContain(String(row.lon));
      expect(profile).toMatchObject({ city: 'Amsterdam', country: 'NL' });
    }
    const own = await as(me, 'GET', PROFILE);
    expect(own.body).not.toContain(String(row.lat));
    expect(own.json().profile).not.toHaveProperty('lat');

    // Moving to another country forgets the city and its position.
    const moved = await as(me, 'PUT', PROFILE, { country: 'DE' });
    expect(moved.statusCode, moved.body).toBe(200);
    expect(await profileRow(me.profileId)).toMatchObject({ country: 'DE', city: null, region: null, lat: null, lon: null });
  });

  it('a city in another country never keeps the region of the old one', async () => {
    const me = await member();
    const set = await as(me, 'PUT', PROFILE, { country: 'NL', region: 'NL-NH', city: 'Haarlem' });
    expect(set.statusCode, set.body).toBe(200);
    // Dublin has no region we can map, and Ireland is not the Netherlands.
    const dublin = await as(me, 'GET', '/api/geocode.php?lat=53.3498&lon=-6.2603');
    expect(dublin.json()).toMatchObject({ city: 'Dublin', country: 'IE', region: null });
    const res = await as(me, 'PUT', PROFILE, { city_id: dublin.json().city_id });
    expect(res.statusCode, res.body).toBe(200);
    expect(await ownProfile(me)).toMatchObject({ city: 'Dublin', country: 'IE', region: null });

    // A region the city's own country has stays when the city's region is not known.
    const region = await as(me, 'PUT', PROFILE, { region: 'IE-D' });
    expect(region.statusCode, region.body).toBe(200);
    const again = await as(me, 'PUT', PROFILE, { city_id: dublin.json().city_id });
    expect(again.statusCode, again.body).toBe(200);
    expect(await ownProfile(me)).toMatchObject({ city: 'Dublin', country: 'IE', region: 'IE-D' });
  });
});

describe('GET /api/member.php', () => {
  let owner: Member;
  let free: Member;
  let premium: Member;
  let photoIds: number[];

  beforeAll(async () => {
    owner = await member({ name: 'Photo Phil' });
    free = await member();
    premium = await member();
    const main = await upload(owner, 11);
    const second = await upload(owner, 12);
    const third = await upload(owner, 13);
    expect(main.is_main).toBe(true);
    photoIds = [main.id, second.id, third.id];
    await setPremium(premium);
    const res = await as(owner, 'PUT', PROFILE, {
      about: 'About Phil',
      gender: 'man',
      hair_colour: 'black',
      eye_colour: 'blue',
      interests: ['sports'],
    });
    expect(res.statusCode, res.body).toBe(200);
  });

  it('shows a visitor an active profile with only its main photo', async () => {
    const { profile } = await viewOk(null, owner.profileId);
    expect(profile).toMatchObject({
      id: owner.profileId,
      name: 'Photo Phil',
      country: 'NL',
      about: 'About Phil',
      is_own: false,
      is_blocked_by_me: false,
      is_fictional: false,
      is_premium: false,
      hidden_photo_count: 2,
    });
    expect(profile.photos).toEqual([
      {
        id: photoIds[0],
        is_locked: false,
        url: `/api/photo.php?id=${photoIds[0]}&v=large`,
        thumb_url: `/api/photo.php?id=${photoIds[0]}&v=thumb`,
      },
    ]);
    const body = JSON.stringify(profile);
    for (const id of photoIds.slice(1)) expect(body).not.toContain(`id=${id}&`);
  });

  it('shows a free member every photo, the ones besides the main photo locked and blurred', async () => {
    const { profile } = await viewOk(free, owner.profileId);
    expect(profile.hidden_photo_count).toBe(0);
    expect(profile.photos).toHaveLength(3);
    expect(profile.photos[0]).toMatchObject({ id: photoIds[0], is_locked: false, url: `/api/photo.php?id=${photoIds[0]}&v=large` });
    expect(profile.photos.map((p) => p.id).sort()).toEqual([...photoIds].sort());
    for (const photo of profile.photos.slice(1)) {
      expect(photo.is_locked).toBe(true);
      expect(photo.url).toMatch(/v=blur$/);
      expect(photo.thumb_url).toMatch(/v=blur$/);
    }
    // What the list says matches what the photo route gives a free member.
    const locked = profile.photos[1];
    expect((await as(free, 'GET', locked.url)).statusCode).toBe(200);
    expect((await as(free, 'GET', `/api/photo.php?id=${locked.id}&v=large`)).statusCode).toBe(404);
  });

  it('shows a premium member every photo unlocked', async () => {
    const { profile } = await viewOk(premium, owner.profileId);
    expect(profile.hidden_photo_count).toBe(0);
    expect(profile.photos).toHaveLength(3);
    expect(profile.photos[0].id).toBe(photoIds[0]);
    for (const photo of profile.photos) {
      expect(photo.is_locked).toBe(false);
      expect(photo.url).toBe(`/api/photo.php?id=${photo.id}&v=large`);
      expect(photo.thumb_url).toBe(`/api/photo.php?id=${photo.id}&v=thumb`);
    }
  });

  it('shows the owner their own profile, unlocked, also while it is not activated; others get 404', async () => {
    const own = await viewOk(owner, owner.profileId);
    expect(own.profile.is_own).toBe(true);
    expect(own.profile.photos.every((p) => !p.is_locked)).toBe(true);
    expect(own.related.map((r) => r.id)).not.toContain(owner.profileId);

    const pending = await member({ activate: false, name: 'Pending Pete' });
    expect((await profileRow(pending.profileId)).status).toBe('disabled');
    await upload(pending, 21);
    await upload(pending, 22);
    const mine = await viewOk(pending, pending.profileId);
    expect(mine.profile).toMatchObject({ id: pending.profileId, name: 'Pending Pete', is_own: true, hidden_photo_count: 0 });
    expect(mine.profile.photos).toHaveLength(2);
    expect(mine.profile.photos.every((p) => !p.is_locked)).toBe(true);

    for (const viewer of [null, free, premium]) {
      const res = await view(viewer, pending.profileId);
      expect(res.statusCode).toBe(404);
      expect(res.json().error).toBe('not_found');
      expect(res.body).not.toContain('Pending Pete');
    }
  });

  it('answers 404 for a deleted account, a profile of another site and an unknown id', async () => {
    const gone = await member({ name: 'Gone Gwen' });
    expect((await view(free, gone.profileId)).statusCode).toBe(200);
    const deleted = await as(gone, 'DELETE', '/api/user.php', { password: gone.password, reason: 'other' });
    expect(deleted.statusCode, deleted.body).toBe(200);

    const elsewhere = await member({ host: HERZ, name: 'Herz Hanna' });
    expect((await view(elsewhere, elsewhere.profileId)).statusCode).toBe(200);

    for (const viewer of [null, free, premium]) {
      for (const id of [gone.profileId, elsewhere.profileId, 987_654_321]) {
        const res = await view(viewer, id);
        expect(res.statusCode, `${id}`).toBe(404);
        expect(res.json()).toEqual({ error: 'not_found', message: 'This profile could not be found' });
      }
    }
    // Nor the other way round: an Amora profile on Herzklopfen.
    expect((await view(elsewhere, owner.profileId)).statusCode).toBe(404);
    expect((await view(null, owner.profileId, { host: HERZ })).statusCode).toBe(404);
  });

  it.each(['abc', '0', '-3', '1.5', ''])('refuses id=%s with 400', async (id) => {
    const res = await view(free, id);
    expect(res.statusCode).toBe(400);
    expect(res.json()).toMatchObject({ error: 'validation_failed', field: 'id' });
  });

  it('says when a profile is fictional', async () => {
    const fictional = await createProfile(t, { name: 'Team Tess', isFictional: true, birthDate: '1991-02-03' });
    for (const viewer of [null, free]) {
      const { profile } = await viewOk(viewer, fictional.id);
      expect(profile).toMatchObject({ id: fictional.id, name: 'Team Tess', is_fictional: true, is_premium: false, photos: [] });
    }
    expect((await viewOk(free, owner.profileId)).profile.is_fictional).toBe(false);
  });

  it("shows only the attributes in the site's visible_profile_fields", async () => {
    const full = await viewOk(free, owner.profileId);
    expect(full.profile.attributes).toEqual({ gender: 'man', hair_colour: 'black', eye_colour: 'blue' });
    expect(full.profile.interests).toEqual(['sports']);

    await withSite(t, 'amora.localhost', { visibleProfileFields: ['gender'] }, async () => {
      for (const viewer of [null, free, premium]) {
        const { profile } = await viewOk(viewer, owner.profileId);
        expect(profile.attributes).toEqual({ gender: 'man' });
        expect(profile.interests).toEqual([]);
      }
    });
    expect((await viewOk(free, owner.profileId)).profile.attributes).toEqual(full.profile.attributes);
  });

  it('carries nothing of the account behind the profile', async () => {
    const res = await view(free, owner.profileId);
    expect(res.body).not.toContain(owner.email);
    expect(res.body).not.toContain('1992-03-04');
    const profile = res.json().profile;
    for (const key of ['email', 'user_id', 'birth_date', 'status', 'is_invisible']) expect(profile).not.toHaveProperty(key);
  });
});

describe('blocking', () => {
  let blocker: Member;
  let blocked: Member;
  let bystander: Member;

  beforeAll(async () => {
    bystander = await member({ name: 'Bystander Bo' });
    blocker = await member({ name: 'Blocker Bea' });
    blocked = await member({ name: 'Blocked Ben' });
    await upload(blocker, 31);
    await upload(blocked, 32);
  });

  const block = (who: Member | null, profileId: unknown, options: CallOptions = {}) =>
    as(who, 'POST', BLOCK, { profile_id: profileId }, options);
  const unblock = (who: Member | null, profileId: unknown, options: CallOptions = {}) =>
    as(who, 'DELETE', BLOCK, { profile_id: profileId }, options);

  async function blockRows(a: number, b: number) {
    return t.ctx.db
      .select()
      .from(blocks)
      .where(and(eq(blocks.blockerProfileId, a), eq(blocks.blockedProfileId, b)));
  }

  it('hides the blocker from the blocked member, who learns only who blocked them; unblocking undoes it', async () => {
    // Before: both see each other everywhere.
    expect((await viewOk(blocked, blocker.profileId)).profile.is_blocked_by_me).toBe(false);
    expect(await relatedIds(blocker, bystander.profileId)).toContain(blocked.profileId);
    expect(await relatedIds(blocked, bystander.profileId)).toContain(blocker.profileId);
    expect(await listIds(blocker)).toContain(blocked.profileId);
    expect(await listIds(blocked)).toContain(blocker.profileId);

    const res = await block(blocker, blocked.profileId);
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toEqual({ ok: true });
    expect(await blockRows(blocker.profileId, blocked.profileId)).toHaveLength(1);

    const refused = await view(blocked, blocker.profileId);
    expect(refused.statusCode).toBe(403);
    expect(refused.json()).toEqual({ error: 'blocked', message: 'You are blocked by Blocker Bea', name: 'Blocker Bea' });
    for (const leak of ['photo.php', 'related', 'profile', 'about', String(blocker.profileId)]) expect(refused.body).not.toContain(leak);

    // The blocker still sees the blocked profile, marked as blocked by them.
    const seen = await viewOk(blocker, blocked.profileId);
    expect(seen.profile).toMatchObject({ id: blocked.profileId, is_blocked_by_me: true });
    // Others are not affected.
    expect((await viewOk(bystander, blocker.profileId)).profile.is_blocked_by_me).toBe(false);
    expect((await viewOk(null, blocker.profileId)).profile.id).toBe(blocker.profileId);

    // Neither appears in the other's member list or related profiles.
    expect(await listIds(blocker)).not.toContain(blocked.profileId);
    expect(await listIds(blocked)).not.toContain(blocker.profileId);
    expect(await relatedIds(blocker, bystander.profileId)).not.toContain(blocked.profileId);
    expect(await relatedIds(blocked, bystander.profileId)).not.toContain(blocker.profileId);
    expect(seen.related.map((r) => r.id)).not.toContain(blocked.profileId);
    // Still listed for everyone else.
    expect(await listIds(bystander)).toEqual(expect.arrayContaining([blocker.profileId, blocked.profileId]));

    // Blocking twice is fine.
    const again = await block(blocker, blocked.profileId);
    expect(again.statusCode, again.body).toBe(200);
    expect(await blockRows(blocker.profileId, blocked.profileId)).toHaveLength(1);

    const undone = await unblock(blocker, blocked.profileId);
    expect(undone.statusCode, undone.body).toBe(200);
    expect(undone.json()).toEqual({ ok: true });
    expect(await blockRows(blocker.profileId, blocked.profileId)).toHaveLength(0);
    expect((await viewOk(blocked, blocker.profileId)).profile.id).toBe(blocker.profileId);
    expect((await viewOk(blocker, blocked.profileId)).profile.is_blocked_by_me).toBe(false);
    expect(await listIds(blocker)).toContain(blocked.profileId);
    expect(await listIds(blocked)).toContain(blocker.profileId);
    expect(await relatedIds(blocked, bystander.profileId)).toContain(blocker.profileId);

    // Unblocking someone not blocked is fine too.
    expect((await unblock(blocker, blocked.profileId)).statusCode).toBe(200);
  });

  it('refuses blocking yourself (400), a profile of another site or an unknown one (404)', async () => {
    const self = await block(blocker, blocker.profileId);
    expect(self.statusCode).toBe(400);
    expect(self.json()).toMatchObject({ error: 'validation_failed', field: 'profile_id' });

    const elsewhere = await member({ host: HERZ });
    for (const id of [elsewhere.profileId, 987_654_321]) {
      const res = await block(blocker, id);
      expect(res.statusCode).toBe(404);
      expect(res.json().error).toBe('not_found');
    }
    expect((await block(elsewhere, blocker.profileId)).statusCode).toBe(404);

    for (const bad of ['abc', 0, -1, null]) {
      const res = await block(blocker, bad);
      expect(res.statusCode).toBe(400);
      expect(res.json()).toMatchObject({ error: 'validation_failed', field: 'profile_id' });
    }
    expect(await t.ctx.db.select().from(blocks).where(eq(blocks.blockerProfileId, blocker.profileId))).toEqual([]);
  });

  it('answers a profile the member may not see (invisible to them, unconfirmed, deleted) exactly like an unknown id', async () => {
    const me = await member({ name: 'Curious Cleo' });
    const unknownId = 987_654_322;
    const unknown = await block(me, unknownId);
    expect(unknown.statusCode).toBe(404);
    const invisible = await member({ name: 'Invisible Ivo', profile: { is_invisible: true } });
    const unconfirmed = await member({ name: 'Unconfirmed Una', activate: false });
    const deleted = await member({ name: 'Deleted Dora' });
    const gone = await as(deleted, 'DELETE', '/api/user.php', { password: deleted.password, reason: 'other' });
    expect(gone.statusCode, gone.body).toBe(200);
    for (const hidden of [invisible, unconfirmed, deleted]) {
      for (const send of [block, unblock]) {
        const res = await send(me, hidden.profileId);
        expect(res.statusCode, hidden.name).toBe(404);
        expect(res.body, hidden.name).toBe(unknown.body);
        expect(res.headers['content-length'], hidden.name).toBe(unknown.headers['content-length']);
      }
      expect(await blockRows(me.profileId, hidden.profileId)).toHaveLength(0);
    }
    expect((await unblock(me, unknownId)).body).toBe(unknown.body);

    // An invisible member is seen by those it contacted (spec §4), who may block it.
    await t.ctx.db.insert(likes).values({ likerProfileId: invisible.profileId, likedProfileId: me.profileId, source: 'profile' });
    expect((await block(me, invisible.profileId)).statusCode).toBe(200);
    expect(await blockRows(me.profileId, invisible.profileId)).toHaveLength(1);
  });

  it('lets a member take back a block they gave, whatever became of the profile since', async () => {
    const me = await member();
    const other = await member({ name: 'Later Hidden Lou' });
    expect((await block(me, other.profileId)).statusCode).toBe(200);
    expect((await as(other, 'PUT', PROFILE, { is_invisible: true })).statusCode).toBe(200);
    // No longer visible to me: blocking again is the unknown-id 404, but my block can still be undone.
    expect((await block(me, other.profileId)).statusCode).toBe(404);
    const undone = await unblock(me, other.profileId);
    expect(undone.statusCode, undone.body).toBe(200);
    expect(await blockRows(me.profileId, other.profileId)).toHaveLength(0);
    expect((await unblock(me, other.profileId)).statusCode).toBe(404);
  });

  it('needs a session and the client header', async () => {
    for (const send of [block, unblock]) {
      const visitor = await send(null, blocked.profileId);
      expect(visitor.statusCode).toBe(403);
      expect(visitor.json()).toMatchObject({ error: 'authentication_required', authentication_required: true });
      const noHeader = await send(blocker, blocked.profileId, { client: false });
      expect(noHeader.statusCode).toBe(403);
      expect(noHeader.json().error).toBe('client_header_required');
    }
    expect(await blockRows(blocker.profileId, blocked.profileId)).toHaveLength(0);
  });
});

describe('invisible mode', () => {
  it('keeps a member out of the member list and related profiles until they turn it off', async () => {
    const anchor = await member({ name: 'Anchor Ann' });
    const viewer = await member();
    const hidden = await member({ name: 'Hidden Hugo' });

    expect(await listIds(viewer)).toContain(hidden.profileId);
    expect(await listIds(null)).toContain(hidden.profileId);
    expect(await relatedIds(viewer, anchor.profileId)).toContain(hidden.profileId);

    const on = await as(hidden, 'PUT', PROFILE, { is_invisible: true });
    expect(on.statusCode, on.body).toBe(200);
    for (const who of [null, viewer, anchor]) {
      expect(await listIds(who)).not.toContain(hidden.profileId);
      expect(await relatedIds(who, viewer.profileId)).not.toContain(hidden.profileId);
    }
    expect(await relatedIds(viewer, anchor.profileId)).not.toContain(hidden.profileId);
    // The invisible member still has their own profile.
    expect((await viewOk(hidden, hidden.profileId)).profile.is_own).toBe(true);

    const off = await as(hidden, 'PUT', PROFILE, { is_invisible: false });
    expect(off.statusCode, off.body).toBe(200);
    expect(await listIds(viewer)).toContain(hidden.profileId);
    expect(await relatedIds(viewer, anchor.profileId)).toContain(hidden.profileId);
  });
});

describe('GET /api/blocks.php', () => {
  const list = async (who: Member) => {
    const res = await as(who, 'GET', '/api/blocks.php');
    expect(res.statusCode, res.body).toBe(200);
    return blockedProfilesResponseSchema.parse(res.json()).profiles;
  };

  it('lists the members I blocked, the latest first, as cards; unblocking takes one off', async () => {
    const [me, first, second, bystander] = [await member(), await member({ name: 'First Fay' }), await member(), await member()];
    expect(await list(me)).toEqual([]);
    expect((await as(me, 'POST', BLOCK, { profile_id: first.profileId })).statusCode).toBe(200);
    t.clock.advance(1_000);
    expect((await as(me, 'POST', BLOCK, { profile_id: second.profileId })).statusCode).toBe(200);
    // Blocks others gave, and blocks of me, are not mine.
    expect((await as(bystander, 'POST', BLOCK, { profile_id: first.profileId })).statusCode).toBe(200);
    expect((await as(second, 'POST', BLOCK, { profile_id: me.profileId })).statusCode).toBe(200);
    const blocked = await list(me);
    expect(blocked.map((p) => p.id)).toEqual([second.profileId, first.profileId]);
    expect(blocked[1]).toMatchObject({ name: 'First Fay', is_fictional: false });
    expect(await list(bystander)).toEqual([expect.objectContaining({ id: first.profileId })]);

    expect((await as(me, 'DELETE', BLOCK, { profile_id: second.profileId })).statusCode).toBe(200);
    expect((await list(me)).map((p) => p.id)).toEqual([first.profileId]);
  });

  it('keeps a blocked profile that went invisible on the list, without its name, so it can still be unblocked', async () => {
    const [me, other] = [await member(), await member()];
    expect((await as(me, 'POST', BLOCK, { profile_id: other.profileId })).statusCode).toBe(200);
    expect((await as(other, 'PUT', PROFILE, { is_invisible: true })).statusCode).toBe(200);
    expect(await list(me)).toEqual([{ id: other.profileId, hidden: true, is_fictional: false }]);
    expect((await as(me, 'DELETE', BLOCK, { profile_id: other.profileId })).statusCode).toBe(200);
    expect(await list(me)).toEqual([]);
  });

  it('withholds name, age, city and photo of blocked profiles since disabled or deleted, keeping the fictional label', async () => {
    const [me, disabled, deleted, visible] = [await member(), await member(), await member(), await member({ name: 'Still Sam' })];
    const fictional = await createProfile(t, { name: 'Fiona Fiction', isFictional: true, city: 'Utrecht' });
    for (const id of [fictional.id, disabled.profileId, deleted.profileId, visible.profileId]) {
      expect((await as(me, 'POST', BLOCK, { profile_id: id })).statusCode).toBe(200);
      t.clock.advance(1_000);
    }
    await t.ctx.db.update(profiles).set({ status: 'disabled' }).where(eq(profiles.id, disabled.profileId));
    await t.ctx.db.update(profiles).set({ status: 'disabled' }).where(eq(profiles.id, fictional.id));
    await t.ctx.db.update(users).set({ status: 'deleted' }).where(eq(users.id, deleted.userId));
    const res = await as(me, 'GET', '/api/blocks.php');
    expect(res.body).not.toMatch(/Fiona Fiction|Utrecht/);
    expect(blockedProfilesResponseSchema.parse(res.json()).profiles).toEqual([
      expect.objectContaining({ id: visible.profileId, name: 'Still Sam', age: expect.any(Number) }),
      { id: deleted.profileId, hidden: true, is_fictional: false },
      { id: disabled.profileId, hidden: true, is_fictional: false },
      { id: fictional.id, hidden: true, is_fictional: true },
    ]);
    // Another member's list holds none of mine, and unblocking a hidden one works as any other.
    expect(await list(visible)).toEqual([]);
    expect((await as(me, 'DELETE', BLOCK, { profile_id: disabled.profileId })).statusCode).toBe(200);
    expect((await list(me)).map((p) => p.id)).toEqual([visible.profileId, deleted.profileId, fictional.id]);
  });

  it('answers 403 to a visitor', async () => {
    const res = await as(null, 'GET', '/api/blocks.php');
    expect(res.statusCode).toBe(403);
    expect(res.json()).toMatchObject({ error: 'authentication_required' });
  });
});

import {
  memberResponseSchema,
  ownProfileResponseSchema,
  searchResponseSchema,
  signupMatchesResponseSchema,
  userSchema,
} from '@amora/contracts';
import { profiles } from '@amora/db';
import { eq, inArray } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { birthDate, HERZ, signup } from '../../test/accounts';
import { type CallArgs, callAs, createMember, createProfile, type Member, nextIp } from '../../test/factories';
import { createTestApp, type TestApp } from '../../test/harness';
import { suggestProfiles } from '../discovery/discovery.service';

const COMPLETE = '/api/complete-signup.php';

let t: TestApp;

beforeAll(async () => {
  // Behind a proxy that sets CF-IPCountry, as in production.
  t = await createTestApp({ trustProxy: true, geoCountryHeader: 'cf-ipcountry' });
});
afterAll(async () => {
  await t?.close();
});

const as = (...args: CallArgs) => callAs(t, ...args);

async function profileRow(profileId: number) {
  const [row] = await t.ctx.db.select().from(profiles).where(eq(profiles.id, profileId));
  return row;
}

async function userOf(who: Member) {
  const res = await as(who, 'GET', '/api/user.php');
  expect(res.statusCode, res.body).toBe(200);
  return userSchema.parse(res.json().user);
}

/** The genders of the profiles with these ids. */
async function gendersOf(ids: number[]): Promise<Set<string | null>> {
  if (ids.length === 0) return new Set();
  const rows = await t.ctx.db.select({ gender: profiles.gender }).from(profiles).where(inArray(profiles.id, ids));
  return new Set(rows.map((r) => r.gender));
}

/** A man of 34 who answers that he wants to meet women and lives in Berlin. */
const berlinMan = { gender: 'man', looking_for: ['woman'], country: 'DE', region: 'DE-BE', city: 'Berlin' };

describe('signup places the member where they are', () => {
  it('in the country of the geo header when the site serves it, else in the site default', async () => {
    const fromGermany = await signup(t, {}, { ip: nextIp(), headers: { 'cf-ipcountry': 'DE' } });
    expect((await profileRow(fromGermany.user.profile.id)).country).toBe('DE');
    // Japan is not one of the site's countries: the site's default.
    const fromJapan = await signup(t, {}, { ip: nextIp(), headers: { 'cf-ipcountry': 'JP' } });
    expect((await profileRow(fromJapan.user.profile.id)).country).toBe('NL');
  });
});

describe('PUT complete-signup.php', () => {
  it('saves gender, whom the member wants to meet and where they live, and the user object carries the search defaults', async () => {
    const me = await createMember(t, { activate: false });
    const before = await userOf(me);
    // Before answering: the site default country and no gender to search for.
    expect(before.search_defaults).toEqual({ gender: null, country: 'NL', countryregion: null });

    const res = await as(me, 'PUT', COMPLETE, berlinMan);
    expect(res.statusCode, res.body).toBe(200);
    const profile = ownProfileResponseSchema.parse(res.json()).profile;
    expect(profile).toMatchObject({ gender: 'man', looking_for: ['woman'], country: 'DE', region: 'DE-BE', city: 'Berlin' });
    const row = await profileRow(me.profileId);
    expect(row).toMatchObject({
      gender: 'man',
      lookingFor: ['woman'],
      country: 'DE',
      region: 'DE-BE',
      city: 'Berlin',
      lat: null,
      lon: null,
    });

    const after = await userOf(me);
    expect(after.profile.country).toBe('DE');
    expect(after.search_defaults).toEqual({ gender: 'woman', country: 'DE', countryregion: 'DE-BE' });
  });

  it('takes a city from the geocoder with its region and coarse position, and keeps the genders in one order', async () => {
    const me = await createMember(t);
    const found = await as(me, 'GET', '/api/geocode.php?lat=52.3731&lon=4.8922');
    expect(found.statusCode, found.body).toBe(200);
    const place = found.json();
    const res = await as(me, 'PUT', COMPLETE, {
      gender: 'nonbinary',
      looking_for: ['nonbinary', 'woman', 'man'],
      country: place.country,
      city_id: place.city_id,
    });
    expect(res.statusCode, res.body).toBe(200);
    const row = await profileRow(me.profileId);
    expect(row).toMatchObject({ country: 'NL', region: 'NL-NH', city: 'Amsterdam', lookingFor: ['woman', 'man', 'nonbinary'] });
    expect(row.lat).toBeCloseTo(52.37, 2);
    expect(row.lon).toBeCloseTo(4.89, 2);
    // Everyone: no gender to start the search from.
    expect((await userOf(me)).search_defaults).toEqual({ gender: null, country: 'NL', countryregion: 'NL-NH' });
  });

  const bad: [string, Record<string, unknown>, string][] = [
    ['no gender', { ...berlinMan, gender: undefined }, 'gender'],
    ['an unknown gender', { ...berlinMan, gender: 'robot' }, 'gender'],
    ['nobody to meet', { ...berlinMan, looking_for: [] }, 'looking_for'],
    ['looking for an unknown gender', { ...berlinMan, looking_for: ['woman', 'robot'] }, 'looking_for.1'],
    ['a gender twice', { ...berlinMan, looking_for: ['woman', 'woman'] }, 'looking_for'],
    ['looking_for not a list', { ...berlinMan, looking_for: 'woman' }, 'looking_for'],
    ['no country', { ...berlinMan, country: undefined, region: undefined }, 'country'],
    ['a country nobody serves', { ...berlinMan, country: 'JP', region: undefined }, 'country'],
    ['a region of another country', { ...berlinMan, region: 'NL-NH' }, 'region'],
    ['a region that does not exist', { ...berlinMan, region: 'DE-ZZ' }, 'region'],
    ['a malformed region', { ...berlinMan, region: 'Berlin' }, 'region'],
    ['a city too long', { ...berlinMan, city: 'x'.repeat(101) }, 'city'],
    ['a city with a control character', { ...berlinMan, city: 'Ber\u0000lin' }, 'city'],
    ['a city id that does not exist', { ...berlinMan, city_id: 987_654_321_012 }, 'city_id'],
    ['a field of its own', { ...berlinMan, status: 'active' }, 'status'],
  ];
  it.each(bad)('refuses %s with a 400 naming the field, and changes nothing', async (_name, body, field) => {
    const me = await createMember(t);
    const before = await profileRow(me.profileId);
    const res = await as(me, 'PUT', COMPLETE, body);
    expect(res.statusCode, res.body).toBe(400);
    expect(res.json().field).toBe(field);
    expect(await profileRow(me.profileId)).toEqual(before);
  });

  it('refuses a geocoded city of another country than the one chosen', async () => {
    const me = await createMember(t);
    const amsterdam = (await as(me, 'GET', '/api/geocode.php?lat=52.3731&lon=4.8922')).json();
    const before = await profileRow(me.profileId);
    const res = await as(me, 'PUT', COMPLETE, { gender: 'woman', looking_for: ['man'], country: 'DE', city_id: amsterdam.city_id });
    expect(res.statusCode, res.body).toBe(400);
    expect(res.json()).toMatchObject({ field: 'city_id', message_key: 'completeSignup.errors.cityId' });
    expect(await profileRow(me.profileId)).toEqual(before);
  });

  it("refuses a country the member's site does not serve", async () => {
    const me = await createMember(t, { host: HERZ });
    const res = await as(me, 'PUT', COMPLETE, { gender: 'woman', looking_for: ['man'], country: 'FR' });
    expect(res.statusCode, res.body).toBe(400);
    expect(res.json()).toMatchObject({ field: 'country', message_key: 'completeSignup.errors.country' });
    expect((await profileRow(me.profileId)).country).toBe('DE');
  });

  it('needs a member: a visitor gets 403 authentication_required', async () => {
    const res = await as(null, 'PUT', COMPLETE, berlinMan);
    expect(res.statusCode).toBe(403);
    expect(res.json().authentication_required).toBe(true);
  });

  it("changes only the caller's own profile: another member cannot name someone else's", async () => {
    const owner = await createMember(t);
    const other = await createMember(t);
    const before = await profileRow(owner.profileId);
    const named = await as(other, 'PUT', COMPLETE, { ...berlinMan, profile_id: owner.profileId });
    expect(named.statusCode, named.body).toBe(400);
    expect(named.json().field).toBe('profile_id');
    const own = await as(other, 'PUT', COMPLETE, berlinMan);
    expect(own.statusCode, own.body).toBe(200);
    expect(await profileRow(owner.profileId)).toEqual(before);
    expect((await profileRow(other.profileId)).gender).toBe('man');
  });
});

describe('the answers lead the search, signup matches, match-finder and related profiles', () => {
  const born = birthDate(34);
  let womanBerlin: number;
  let womanMunich: number;
  let manBerlin: number;
  let womanWantsWomen: number;

  beforeAll(async () => {
    const active = { status: 'active', birthDate: born } as const;
    womanBerlin = (
      await createProfile(t, { ...active, name: 'Woman Berlin', gender: 'woman', country: 'DE', region: 'DE-BE' }, { photo: true })
    ).id;
    womanMunich = (
      await createProfile(t, { ...active, name: 'Woman Munich', gender: 'woman', country: 'DE', region: 'DE-BY' }, { photo: true })
    ).id;
    manBerlin = (await createProfile(t, { ...active, name: 'Man Berlin', gender: 'man', country: 'DE', region: 'DE-BE' }, { photo: true }))
      .id;
    // Wants to meet women only: never shown to a man (mutual interest).
    womanWantsWomen = (
      await createProfile(
        t,
        { ...active, name: 'Woman for women', gender: 'woman', lookingFor: ['woman'], country: 'DE', region: 'DE-BE' },
        { photo: true },
      )
    ).id;
  });

  async function answered(body: Record<string, unknown> = berlinMan): Promise<Member> {
    const me = await createMember(t, { dateOfBirth: born });
    const res = await as(me, 'PUT', COMPLETE, body);
    expect(res.statusCode, res.body).toBe(200);
    return me;
  }

  it('before the answers, a new member is suggested every gender', async () => {
    const me = await createMember(t, { dateOfBirth: born });
    const all = await suggestProfiles(t.ctx, await profileRow(me.profileId), { limit: 10_000, excludeSeen: false });
    const genders = await gendersOf(all.map((r) => r.id));
    expect(genders.has('man') && genders.has('woman')).toBe(true);
  });

  it('the search from the defaults finds the women in Berlin who look for men, not the man', async () => {
    const me = await answered();
    const defaults = (await userOf(me)).search_defaults;
    const query = new URLSearchParams({
      gender: String(defaults.gender),
      country: defaults.country,
      countryregion: String(defaults.countryregion),
    });
    const res = await as(me, 'GET', `/api/search.php?${query}`);
    expect(res.statusCode, res.body).toBe(200);
    const ids = searchResponseSchema.parse(res.json()).results.map((c) => c.id);
    expect(ids).toContain(womanBerlin);
    expect(ids).not.toContain(womanWantsWomen);
    expect(ids).not.toContain(manBerlin);
    expect(ids).not.toContain(womanMunich);
    expect(await gendersOf(ids)).toEqual(new Set(['woman']));
  });

  it('signup matches are women, those of his region first, never the women who want women', async () => {
    const me = await answered();
    const res = await as(me, 'GET', '/api/signup-matches.php');
    expect(res.statusCode, res.body).toBe(200);
    const ids = signupMatchesResponseSchema.parse(res.json()).profiles.map((p) => p.id);
    expect(await gendersOf(ids)).toEqual(new Set(['woman']));
    expect(ids[0]).toBe(womanBerlin);
    expect(ids).not.toContain(manBerlin);
    expect(ids).not.toContain(womanWantsWomen);
  });

  it('the match-finder suggests a woman of his region first', async () => {
    const me = await answered();
    const res = await as(me, 'GET', '/api/match-finder.php');
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().profile.id).toBe(womanBerlin);
  });

  it('related profiles beside a profile are women', async () => {
    const me = await answered();
    const res = await as(me, 'GET', `/api/member.php?id=${manBerlin}`);
    expect(res.statusCode, res.body).toBe(200);
    const related = memberResponseSchema.parse(res.json()).related.map((c) => c.id);
    expect(related.length).toBeGreaterThan(0);
    expect(await gendersOf(related)).toEqual(new Set(['woman']));
  });

  it('a woman who wants to meet women and men is shown both', async () => {
    const me = await answered({ gender: 'woman', looking_for: ['woman', 'man'], country: 'DE', region: 'DE-BE' });
    expect((await userOf(me)).search_defaults.gender).toBeNull();
    const ids = (await as(me, 'GET', '/api/signup-matches.php')).json().profiles.map((p: { id: number }) => p.id);
    expect(ids).toEqual(expect.arrayContaining([womanBerlin, manBerlin]));
  });

  it('the answer can be changed later in the profile, and the defaults follow', async () => {
    const me = await answered();
    const res = await as(me, 'PUT', '/api/profile.php', { looking_for: ['man'] });
    expect(res.statusCode, res.body).toBe(200);
    expect((await userOf(me)).search_defaults.gender).toBe('man');
    const bad = await as(me, 'PUT', '/api/profile.php', { looking_for: [] });
    expect(bad.statusCode).toBe(400);
    expect(bad.json().field).toBe('looking_for');
    expect((await profileRow(me.profileId)).lookingFor).toEqual(['man']);
  });

  it('works for a member of another site in its own country list', async () => {
    const me = await createMember(t, { host: HERZ });
    const res = await as(me, 'PUT', COMPLETE, { gender: 'man', looking_for: ['man'], country: 'AT', region: 'AT-9' });
    expect(res.statusCode, res.body).toBe(200);
    expect((await userOf(me)).search_defaults).toEqual({ gender: 'man', country: 'AT', countryregion: 'AT-9' });
  });
});

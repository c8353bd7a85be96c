import {
  matchFinderActionResponseSchema,
  matchFinderResponseSchema,
  memberResponseSchema,
  signupMatchesResponseSchema,
  swipeActionResponseSchema,
  swipeGameResponseSchema,
} from '@amora/contracts';
import { blocks, likes, profiles, skips } from '@amora/db';
import { and, eq, inArray } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AMORA, birthDate, HERZ } from '../../test/accounts';
import { recordEvents } from '../../test/events';
import { type CallArgs, callAs, createMember, createProfile, type Member, type MemberOptions } from '../../test/factories';
import { createTestApp, type TestApp } from '../../test/harness';
import { suggestProfiles, swipeDay } from './discovery.service';

const MATCH = '/api/match-finder.php';
const SWIPE = '/api/swipe-game.php';
const SIGNUP_MATCHES = '/api/signup-matches.php';

let t: TestApp;

beforeAll(async () => {
  t = await createTestApp();
  // A few profiles to suggest, so that each test also runs on its own.
  for (let i = 0; i < 6; i++) await candidate({ name: `Base ${i}`, birthDate: birthDate(24 + 3 * i) });
});
afterAll(async () => {
  await t?.close();
});

const member = (options?: MemberOptions) => createMember(t, options);
const as = (...args: CallArgs) => callAs(t, ...args);

/** A profile without an account (as fictional profiles are). */
const candidate = async (values: Partial<typeof profiles.$inferInsert> = {}) =>
  (await createProfile(t, { name: 'Candidate', birthDate: '1992-06-01', ...values })).id;

async function profileRow(profileId: number) {
  const [row] = await t.ctx.db.select().from(profiles).where(eq(profiles.id, profileId));
  return row;
}

/** Every profile the member could be suggested, best first (the query behind all discovery routes). */
async function allSuggestions(who: Member, excludeSeen = true): Promise<number[]> {
  return (await suggestProfiles(t.ctx, await profileRow(who.profileId), { limit: 10_000, excludeSeen })).map((r) => r.id);
}

async function nextCard(who: Member) {
  const res = await as(who, 'GET', MATCH);
  expect(res.statusCode, res.body).toBe(200);
  return matchFinderResponseSchema.parse(res.json()).profile;
}

async function decide(who: Member, profileId: number, action: 'like' | 'skip') {
  const res = await as(who, 'POST', MATCH, { profile_id: profileId, action });
  expect(res.statusCode, res.body).toBe(200);
  return matchFinderActionResponseSchema.parse(res.json());
}

const swipe = (who: Member, profileId: unknown, action: unknown = 'like') => as(who, 'POST', SWIPE, { profile_id: profileId, action });

async function swipeLikes(profileId: number) {
  return t.ctx.db
    .select()
    .from(likes)
    .where(and(eq(likes.likerProfileId, profileId), eq(likes.source, 'swipe')));
}

describe('sessions and input', () => {
  it('needs a session (403 authentication_required) on every call', async () => {
    for (const [method, url] of [
      ['GET', MATCH],
      ['POST', MATCH],
      ['GET', SWIPE],
      ['POST', SWIPE],
      ['GET', SIGNUP_MATCHES],
    ] as const) {
      const res = await as(null, method, url, method === 'POST' ? { profile_id: 1, action: 'skip' } : undefined);
      expect(res.statusCode, `${method} ${url}`).toBe(403);
      expect(res.json()).toMatchObject({ error: 'authentication_required', authentication_required: true });
    }
  });

  it('needs the client header to like or skip', async () => {
    const me = await member();
    const other = await candidate();
    for (const url of [MATCH, SWIPE]) {
      const res = await as(me, 'POST', url, { profile_id: other, action: 'skip' }, { client: false });
      expect(res.statusCode).toBe(403);
      expect(res.json().error).toBe('client_header_required');
    }
    expect(await t.ctx.db.select().from(skips).where(eq(skips.profileId, me.profileId))).toHaveLength(0);
  });

  describe('refuses bad input with 400 naming the field, and stores nothing', () => {
    let me: Member;
    let other: number;
    beforeAll(async () => {
      me = await member();
      other = await candidate();
    });

    it.each<[Record<string, unknown>, string]>([
      [{ profile_id: 'x', action: 'like' }, 'profile_id'],
      [{ profile_id: 0, action: 'like' }, 'profile_id'],
      [{ profile_id: -4, action: 'like' }, 'profile_id'],
      [{ profile_id: 1.5, action: 'like' }, 'profile_id'],
      [{ action: 'like' }, 'profile_id'],
      [{ profile_id: 'OTHER', action: 'love' }, 'action'],
      [{ profile_id: 'OTHER' }, 'action'],
      [{ profile_id: 'OTHER', action: 'like', source: 'swipe' }, ''],
    ])('%j → 400 (%s)', async (body, field) => {
      const payload = { ...body, ...(body.profile_id === 'OTHER' ? { profile_id: other } : {}) };
      for (const url of [MATCH, SWIPE]) {
        const res = await as(me, 'POST', url, payload);
        expect(res.statusCode, res.body).toBe(400);
        expect(res.json().error).toBe('validation_failed');
        if (field) expect(res.json().field).toBe(field);
      }
      expect(await t.ctx.db.select().from(likes).where(eq(likes.likerProfileId, me.profileId))).toHaveLength(0);
      expect(await t.ctx.db.select().from(skips).where(eq(skips.profileId, me.profileId))).toHaveLength(0);
    });

    it('a body that is not JSON, or none', async () => {
      for (const url of [MATCH, SWIPE]) {
        expect((await as(me, 'POST', url)).statusCode).toBe(400);
        const res = await t.app.inject({
          method: 'POST',
          url,
          headers: { host: AMORA, cookie: me.cookie, 'x-request-type': 'client', 'content-type': 'application/json' },
          payload: '{"profile_id":',
          remoteAddress: me.ip,
        });
        expect(res.statusCode).toBe(400);
      }
    });
  });

  it('refuses yourself (400), a profile of another site, an unknown or inactive one (404)', async () => {
    const me = await member();
    const elsewhere = await member({ host: HERZ });
    const disabled = await candidate({ status: 'disabled' });
    for (const url of [MATCH, SWIPE]) {
      for (const action of ['like', 'skip']) {
        const self = await as(me, 'POST', url, { profile_id: me.profileId, action });
        expect(self.statusCode, self.body).toBe(400);
        expect(self.json()).toMatchObject({ error: 'validation_failed', field: 'profile_id' });
        for (const id of [elsewhere.profileId, disabled, 987_654_321]) {
          const res = await as(me, 'POST', url, { profile_id: id, action });
          expect(res.statusCode, `${url} ${action} ${id}`).toBe(404);
          expect(res.json().error).toBe('not_found');
        }
      }
    }
    expect(await t.ctx.db.select().from(likes).where(eq(likes.likerProfileId, me.profileId))).toHaveLength(0);
    expect(await t.ctx.db.select().from(skips).where(eq(skips.profileId, me.profileId))).toHaveLength(0);
    // Nor the other way round.
    const res = await as(elsewhere, 'POST', MATCH, { profile_id: me.profileId, action: 'like' });
    expect(res.statusCode).toBe(404);
  });
});

describe('suggestions', () => {
  it('leave out me, blocks both ways, invisible, deleted, not-activated, other-site and already-liked profiles', async () => {
    const me = await member();
    const shown = await member();
    const blockedByMe = await member();
    const blockingMe = await member();
    const invisible = await member({ profile: { is_invisible: true } });
    const deleted = await member();
    const pending = await member({ activate: false });
    const liked = await member();
    const elsewhere = await member({ host: HERZ });
    const fictional = await candidate({ isFictional: true, name: 'Team Tess' });

    expect((await as(me, 'POST', '/api/block.php', { profile_id: blockedByMe.profileId })).statusCode).toBe(200);
    expect((await as(blockingMe, 'POST', '/api/block.php', { profile_id: me.profileId })).statusCode).toBe(200);
    const gone = await as(deleted, 'DELETE', '/api/user.php', { password: deleted.password, reason: 'other' });
    expect(gone.statusCode, gone.body).toBe(200);
    const likedNow = await as(me, 'POST', MATCH, { profile_id: liked.profileId, action: 'like' });
    expect(likedNow.statusCode, likedNow.body).toBe(200);

    const excluded = [me, blockedByMe, blockingMe, invisible, deleted, pending, liked, elsewhere].map((m) => m.profileId);
    const ids = await allSuggestions(me);
    expect(ids).toEqual(expect.arrayContaining([shown.profileId, fictional]));
    for (const id of excluded) expect(ids).not.toContain(id);
    expect(new Set(ids).size).toBe(ids.length);

    // The routes serve from the same query: the swipe stack, and the match-finder card by card until none is left.
    const stack = swipeGameResponseSchema.parse((await as(me, 'GET', SWIPE)).json());
    expect(stack.cards.length).toBeGreaterThan(0);
    expect(stack.cards.length).toBeLessThanOrEqual(10);
    expect(stack.cards.map((c) => c.id)).toEqual(ids.slice(0, stack.cards.length));
    const signupMatches = signupMatchesResponseSchema.parse((await as(me, 'GET', SIGNUP_MATCHES)).json()).profiles;
    expect(signupMatches.map((c) => c.id)).toEqual(ids.slice(0, 6));

    const seen: number[] = [];
    for (let card = await nextCard(me); card; ) {
      expect(seen).not.toContain(card.id);
      seen.push(card.id);
      card = (await decide(me, card.id, 'skip')).next;
    }
    expect(seen.sort()).toEqual([...ids].sort());
    for (const id of excluded) expect(seen).not.toContain(id);
    expect(await nextCard(me)).toBeNull();
    expect(swipeGameResponseSchema.parse((await as(me, 'GET', SWIPE)).json()).cards).toEqual([]);
    // Skipped profiles are still suggested where nothing is being played: after signup and beside profiles.
    expect(await allSuggestions(me, false)).toEqual(expect.arrayContaining(ids));
  });

  it("show only mutual interest: the genders the member looks for, looking for the member's gender", async () => {
    const woman = await candidate({ gender: 'woman', sexuality: 'straight' });
    const man = await candidate({ gender: 'man', sexuality: 'straight' });
    const gayMan = await candidate({ gender: 'man', sexuality: 'gay' });
    const lesbian = await candidate({ gender: 'woman', sexuality: 'lesbian' });
    const nonbinary = await candidate({ gender: 'nonbinary' });
    const unknown = await candidate();
    const all = [woman, man, gayMan, lesbian, nonbinary, unknown];
    // [the member, whom of `all` they are shown, whether they look for one gender only]
    const cases: [Record<string, unknown>, number[], boolean][] = [
      [{ gender: 'man', sexuality: 'straight' }, [woman], true],
      [{ gender: 'woman', sexuality: 'straight' }, [man], true],
      [{ gender: 'man', sexuality: 'gay' }, [gayMan], true],
      [{ gender: 'woman', sexuality: 'lesbian' }, [lesbian], true],
      [{ gender: 'woman', sexuality: 'bisexual' }, [man, lesbian, nonbinary, unknown], false],
      [{ gender: 'man', sexuality: 'pansexual' }, [woman, gayMan, nonbinary, unknown], false],
      [{ gender: 'nonbinary', sexuality: 'straight' }, [nonbinary, unknown], false],
      [{ gender: 'man' }, [woman, gayMan, nonbinary, unknown], false],
      // Nothing said: nobody can tell whom they look for, nor whether others look for them.
      [{}, all, false],
    ];
    for (const [preference, expected, isOneGender] of cases) {
      const me = await member({ profile: preference });
      const ids = await allSuggestions(me);
      expect(
        all.filter((id) => ids.includes(id)),
        JSON.stringify(preference),
      ).toEqual(expected);
      const genders = (await t.ctx.db.select({ gender: profiles.gender }).from(profiles).where(inArray(profiles.id, ids))).map(
        (r) => r.gender,
      );
      if (isOneGender) expect(new Set(genders).size, JSON.stringify(preference)).toBe(1);
    }
  });

  it('put the best fits first: ages within 15 years, the same country, with a photo, near in age', async () => {
    const me = await member({ dateOfBirth: birthDate(40), profile: { gender: 'woman', sexuality: 'bisexual' } });
    const at = (years: number) => birthDate(years, -40);
    const near = await candidate({ birthDate: at(41) });
    const nearAbroad = await candidate({ birthDate: at(41), country: 'DE' });
    const tenYears = await candidate({ birthDate: at(50) });
    const notLooking = await candidate({ birthDate: at(41), gender: 'man', sexuality: 'gay' });
    const farAbroad = await candidate({ birthDate: at(60), country: 'DE' });
    const farther = await candidate({ birthDate: at(66) });
    const ids = await allSuggestions(me);
    const position = (id: number) => ids.indexOf(id);
    for (const id of [near, nearAbroad, tenYears, farAbroad, farther]) expect(position(id)).toBeGreaterThanOrEqual(0);
    // A gay man is not looking for a woman: not suggested at all.
    expect(position(notLooking)).toBe(-1);
    expect(position(near)).toBeLessThan(position(tenYears));
    expect(position(tenYears)).toBeLessThan(position(nearAbroad));
    // A photo comes before a nearer age.
    const pictured = await candidate({ birthDate: at(53), mainPhotoId: 424_243 });
    const withPhoto = await allSuggestions(me);
    expect(withPhoto.indexOf(pictured)).toBeLessThan(withPhoto.indexOf(near));
    // Outside the 15-year window only after everyone inside it, the nearest in age first.
    expect(position(nearAbroad)).toBeLessThan(position(farAbroad));
    expect(position(farAbroad)).toBeLessThan(position(farther));
    const card = (await nextCard(me))!;
    expect(card.id).toBe(withPhoto[0]);
    expect(Math.abs(card.age - 40)).toBeLessThanOrEqual(15);
  });

  it('cards carry the main photo (match and large), a short about text and the interests', async () => {
    const me = await member({ dateOfBirth: birthDate(70) });
    const about = `${'word '.repeat(80)}end`;
    const [{ id: photoId }] = [{ id: 424_242 }];
    const pictured = await candidate({
      birthDate: birthDate(70, -20),
      about,
      interests: ['music', 'travel'],
      mainPhotoId: photoId,
      country: 'NL',
    });
    const card = (await nextCard(me))!;
    expect(card).toMatchObject({
      id: pictured,
      name: 'Candidate',
      age: 70,
      city: null,
      country: 'NL',
      is_fictional: false,
      is_premium: false,
      interests: ['music', 'travel'],
      photo: { match: `/api/photo.php?id=${photoId}&v=match`, large: `/api/photo.php?id=${photoId}&v=large` },
    });
    expect(card.about.length).toBeLessThanOrEqual(200);
    expect(card.about).toMatch(/^word word .*…$/);
    for (const key of ['birth_date', 'user_id', 'status', 'is_invisible', 'gender']) expect(card).not.toHaveProperty(key);
  });

  it('are what a member sees beside a profile; visitors see profiles like the one they look at', async () => {
    const me = await member({ profile: { gender: 'man', sexuality: 'straight' } });
    const anchor = await candidate({ gender: 'man' });
    await candidate({ gender: 'woman' });
    const view = await as(me, 'GET', `/api/member.php?id=${anchor}`);
    expect(view.statusCode, view.body).toBe(200);
    const related = memberResponseSchema.parse(view.json()).related.map((r) => r.id);
    expect(related.length).toBeGreaterThan(0);
    expect(related).not.toContain(anchor);
    const genders = await t.ctx.db.select({ gender: profiles.gender }).from(profiles).where(inArray(profiles.id, related));
    expect(genders.every((g) => g.gender === 'woman')).toBe(true);
    expect(related).toEqual((await allSuggestions(me, false)).filter((id) => id !== anchor).slice(0, 6));

    const visitor = memberResponseSchema.parse((await as(null, 'GET', `/api/member.php?id=${anchor}`)).json()).related;
    expect(visitor.length).toBeGreaterThan(0);
  });
});

describe('match-finder', () => {
  it('likes (source match_finder) and skips, and never suggests either again', async () => {
    const me = await member({ dateOfBirth: birthDate(25) });
    const first = (await nextCard(me))!;
    expect(first).not.toBeNull();
    const afterSkip = await decide(me, first.id, 'skip');
    expect(afterSkip).toMatchObject({ ok: true, is_match: false });
    expect(afterSkip.next?.id).not.toBe(first.id);
    const second = afterSkip.next!;
    const afterLike = await decide(me, second.id, 'like');
    expect(afterLike).toMatchObject({ ok: true, is_match: false });
    expect([first.id, second.id]).not.toContain(afterLike.next?.id);

    const liked = await t.ctx.db.select().from(likes).where(eq(likes.likerProfileId, me.profileId));
    expect(liked.map((l) => [l.likedProfileId, l.source])).toEqual([[second.id, 'match_finder']]);
    const skipped = await t.ctx.db.select().from(skips).where(eq(skips.profileId, me.profileId));
    expect(skipped.map((s) => s.skippedProfileId)).toEqual([first.id]);
    const ids = await allSuggestions(me);
    expect(ids).not.toContain(first.id);
    expect(ids).not.toContain(second.id);
    expect((await nextCard(me))?.id).toBe(afterLike.next?.id);

    // Twice is fine and changes nothing.
    expect((await decide(me, first.id, 'skip')).ok).toBe(true);
    expect((await decide(me, second.id, 'like')).ok).toBe(true);
    expect(await t.ctx.db.select().from(likes).where(eq(likes.likerProfileId, me.profileId))).toHaveLength(1);
    expect(await t.ctx.db.select().from(skips).where(eq(skips.profileId, me.profileId))).toHaveLength(1);
  });

  it('says when a like is a match', async () => {
    const me = await member();
    const admirer = await member();
    const liked = await as(admirer, 'POST', MATCH, { profile_id: me.profileId, action: 'like' });
    expect(liked.statusCode, liked.body).toBe(200);
    expect(liked.json().is_match).toBe(false);
    expect((await decide(me, admirer.profileId, 'like')).is_match).toBe(true);
  });

  it('is closed to invisible members (403 invisible), who store nothing', async () => {
    const me = await member({ profile: { is_invisible: true } });
    const other = await candidate();
    const get = await as(me, 'GET', MATCH);
    expect(get.statusCode).toBe(403);
    expect(get.json().error).toBe('invisible');
    for (const url of [MATCH, SWIPE]) {
      for (const action of ['like', 'skip']) {
        const res = await as(me, 'POST', url, { profile_id: other, action });
        expect(res.statusCode, `${url} ${action}`).toBe(403);
        expect(res.json().error).toBe('invisible');
      }
    }
    expect((await as(me, 'GET', SWIPE)).json().error).toBe('invisible');
    expect(await t.ctx.db.select().from(likes).where(eq(likes.likerProfileId, me.profileId))).toHaveLength(0);
    expect(await t.ctx.db.select().from(skips).where(eq(skips.profileId, me.profileId))).toHaveLength(0);
    // Signup matches and related profiles are simply empty for them.
    expect((await as(me, 'GET', SIGNUP_MATCHES)).json()).toEqual({ profiles: [] });
  });

  it('a blocked profile cannot be liked or skipped (404)', async () => {
    const me = await member();
    const blocker = await member();
    await t.ctx.db.insert(blocks).values({ blockerProfileId: blocker.profileId, blockedProfileId: me.profileId });
    for (const url of [MATCH, SWIPE]) {
      for (const action of ['like', 'skip']) {
        expect((await as(me, 'POST', url, { profile_id: blocker.profileId, action })).statusCode).toBe(404);
      }
    }
  });
});

describe('swipe game', () => {
  beforeAll(async () => {
    // Enough cards for every member of these tests, whatever ran before.
    for (let i = 0; i < 20; i++) await candidate({ name: `Swiper ${i}`, birthDate: birthDate(28 + (i % 10)) });
  });

  const LIMIT_BODY = (resetAt: string, now: Date) => ({
    error: 'swipe_limit',
    message: 'You have used your 4 likes for today',
    likes_left: 0,
    likes_reset_at: resetAt,
    retry_after_seconds: Math.ceil((Date.parse(resetAt) - now.getTime()) / 1000),
  });

  it('gives four likes a day; the fifth is a 429 and stores nothing; skips go on; after midnight UTC it works again', async () => {
    const now = new Date();
    t.clock.set(now);
    const me = await member({ dateOfBirth: birthDate(30) });
    const resetAt = swipeDay(now).end.toISOString();
    expect(resetAt).toBe(new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate() + 1)).toISOString());

    const game = swipeGameResponseSchema.parse((await as(me, 'GET', SWIPE)).json());
    expect(game).toMatchObject({ likes_left: 4, likes_reset_at: resetAt });
    expect(game.cards.length).toBe(10);
    expect(new Set(game.cards.map((c) => c.id)).size).toBe(10);

    for (const [index, card] of game.cards.slice(0, 4).entries()) {
      const res = await swipe(me, card.id, 'like');
      expect(res.statusCode, res.body).toBe(200);
      expect(swipeActionResponseSchema.parse(res.json())).toEqual({
        ok: true,
        is_match: false,
        likes_left: 3 - index,
        likes_reset_at: resetAt,
      });
    }
    expect(await swipeLikes(me.profileId)).toHaveLength(4);

    const fifth = await swipe(me, game.cards[4].id, 'like');
    expect(fifth.statusCode).toBe(429);
    expect(fifth.json()).toEqual(LIMIT_BODY(resetAt, now));
    // Retry-After: the seconds until midnight UTC, when the next four likes are there.
    expect(Number(fifth.headers['retry-after'])).toBe(LIMIT_BODY(resetAt, now).retry_after_seconds);
    expect(await swipeLikes(me.profileId)).toHaveLength(4);
    expect(
      await t.ctx.db
        .select()
        .from(likes)
        .where(and(eq(likes.likerProfileId, me.profileId), eq(likes.likedProfileId, game.cards[4].id))),
    ).toHaveLength(0);

    // Skipping is unlimited; the stack goes on without the liked and skipped cards.
    const skipped = await swipe(me, game.cards[4].id, 'skip');
    expect(skipped.statusCode, skipped.body).toBe(200);
    expect(skipped.json()).toEqual({ ok: true, is_match: false, likes_left: 0, likes_reset_at: resetAt });
    const later = swipeGameResponseSchema.parse((await as(me, 'GET', SWIPE)).json());
    expect(later.likes_left).toBe(0);
    for (const card of game.cards.slice(0, 5)) expect(later.cards.map((c) => c.id)).not.toContain(card.id);
    // Likes elsewhere (the match-finder) do not count against the game, nor the game against them.
    expect((await decide(me, later.cards[0].id, 'like')).ok).toBe(true);
    expect((await swipe(me, later.cards[1].id, 'like')).statusCode).toBe(429);

    // One minute past midnight UTC: four new likes.
    t.clock.set(new Date(swipeDay(now).end.getTime() + 60_000));
    const nextReset = swipeDay(t.clock.now()).end.toISOString();
    const tomorrow = swipeGameResponseSchema.parse((await as(me, 'GET', SWIPE)).json());
    expect(tomorrow).toMatchObject({ likes_left: 4, likes_reset_at: nextReset });
    const again = await swipe(me, tomorrow.cards[0].id, 'like');
    expect(again.statusCode, again.body).toBe(200);
    expect(again.json()).toMatchObject({ ok: true, likes_left: 3, likes_reset_at: nextReset });
    expect(swipeGameResponseSchema.parse((await as(me, 'GET', SWIPE)).json()).likes_left).toBe(3);
    expect(await swipeLikes(me.profileId)).toHaveLength(5);
  });

  it('parallel likes cannot make a fifth', async () => {
    t.clock.set(new Date());
    const me = await member({ dateOfBirth: birthDate(35) });
    const { cards } = swipeGameResponseSchema.parse((await as(me, 'GET', SWIPE)).json());
    expect(cards.length).toBeGreaterThanOrEqual(8);
    for (const card of cards.slice(0, 2)) expect((await swipe(me, card.id)).statusCode).toBe(200);
    const results = await Promise.all(cards.slice(2, 8).map((card) => swipe(me, card.id)));
    const statuses = results.map((r) => r.statusCode).sort();
    expect(statuses).toEqual([200, 200, 429, 429, 429, 429]);
    expect(await swipeLikes(me.profileId)).toHaveLength(4);
    expect(swipeGameResponseSchema.parse((await as(me, 'GET', SWIPE)).json()).likes_left).toBe(0);
  });

  it('counts the likes the game granted today: taking likes back gives none back', async () => {
    t.clock.set(new Date());
    const me = await member({ dateOfBirth: birthDate(33) });
    const targets = await Promise.all(Array.from({ length: 6 }, (_, i) => candidate({ name: `Withdrawn ${i}` })));
    for (const id of targets.slice(0, 4)) expect((await swipe(me, id)).statusCode).toBe(200);
    for (const id of targets.slice(0, 4)) {
      const taken = await as(me, 'DELETE', '/api/like.php', { profile_id: id });
      expect(taken.statusCode, taken.body).toBe(200);
    }
    expect(await swipeLikes(me.profileId)).toHaveLength(0);
    expect(swipeGameResponseSchema.parse((await as(me, 'GET', SWIPE)).json()).likes_left).toBe(0);
    // Neither a new profile nor one liked and taken back today: both would be a fifth like.
    for (const id of [targets[4], targets[0]]) {
      const res = await swipe(me, id);
      expect(res.statusCode, res.body).toBe(429);
      expect(res.json().error).toBe('swipe_limit');
    }
    expect(await swipeLikes(me.profileId)).toHaveLength(0);
    // Skips stay unlimited.
    expect((await swipe(me, targets[5], 'skip')).statusCode).toBe(200);
  });

  it('100 parallel likes of different profiles: exactly 4 are granted', async () => {
    t.clock.set(new Date());
    const me = await member({ dateOfBirth: birthDate(31) });
    const targets: number[] = [];
    for (let i = 0; i < 100; i++) targets.push(await candidate({ name: `Parallel ${i}` }));
    const results = await Promise.all(targets.map((id) => swipe(me, id)));
    const statuses = results.map((r) => r.statusCode);
    expect(statuses.filter((s) => s === 200)).toHaveLength(4);
    expect(statuses.filter((s) => s === 429)).toHaveLength(96);
    expect(await swipeLikes(me.profileId)).toHaveLength(4);
    expect(swipeGameResponseSchema.parse((await as(me, 'GET', SWIPE)).json()).likes_left).toBe(0);
  });

  it('liking a profile twice does not use a like; a mutual like is a match', async () => {
    t.clock.set(new Date());
    const me = await member();
    const admirer = await member();
    expect((await as(admirer, 'POST', MATCH, { profile_id: me.profileId, action: 'like' })).statusCode).toBe(200);
    const first = await swipe(me, admirer.profileId);
    expect(first.json()).toMatchObject({ ok: true, is_match: true, likes_left: 3 });
    const twice = await swipe(me, admirer.profileId);
    expect(twice.json()).toMatchObject({ ok: true, is_match: true, likes_left: 3 });
    expect(await swipeLikes(me.profileId)).toHaveLength(1);
  });
});

describe('GET /api/signup-matches.php', () => {
  it('suggests up to six profiles for the new member', async () => {
    const me = await member({ activate: false, profile: { gender: 'woman', sexuality: 'straight' } });
    const res = await as(me, 'GET', SIGNUP_MATCHES);
    expect(res.statusCode, res.body).toBe(200);
    expect(res.headers['cache-control']).toBe('private, no-store');
    const cards = signupMatchesResponseSchema.parse(res.json()).profiles;
    expect(cards.length).toBeGreaterThan(0);
    expect(cards.length).toBeLessThanOrEqual(6);
    const genders = await t.ctx.db
      .select({ gender: profiles.gender })
      .from(profiles)
      .where(
        inArray(
          profiles.id,
          cards.map((c) => c.id),
        ),
      );
    expect(genders.every((g) => g.gender === 'man')).toBe(true);
  });
});

describe('events', () => {
  it('a swipe like raises like.created once its unit of work commits; a like refused by the day limit raises none', async () => {
    t.clock.set(new Date());
    const liked = recordEvents(t.ctx.events, 'like.created');
    const me = await member({ dateOfBirth: birthDate(30) });
    const game = swipeGameResponseSchema.parse((await as(me, 'GET', SWIPE)).json());
    expect(game.cards.length).toBeGreaterThanOrEqual(7);
    // Seven at once: on PostgreSQL some pass the first check and roll back at the grant, after the like was made.
    const answers = await Promise.all(game.cards.slice(0, 7).map((card) => swipe(me, card.id, 'like')));
    expect(answers.map((res) => res.statusCode).sort()).toEqual([200, 200, 200, 200, 429, 429, 429]);
    await t.ctx.events.idle();
    const mine = liked.seen.filter((e) => e.likerProfileId === me.profileId);
    expect(mine).toHaveLength(4);
    expect(new Set(mine.map((e) => e.likedProfileId))).toEqual(new Set((await swipeLikes(me.profileId)).map((l) => l.likedProfileId)));
    for (const event of mine) expect(event).toMatchObject({ type: 'like.created', source: 'swipe' });
    liked.stop();
  });
});

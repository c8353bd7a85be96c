import { randomBytes } from 'node:crypto';
import { autoLikeResponseSchema, likesResponseSchema } from '@amora/contracts';
import { blocks, likes, profiles, users } from '@amora/db';
import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { HERZ } from '../../test/accounts';
import { recordEvents } from '../../test/events';
import { type CallArgs, callAs, createLike, createMember, createProfile, type Member, type MemberOptions } from '../../test/factories';
import { createTestApp, type TestApp } from '../../test/harness';
import { autoLikeLimitKey, likeProfile } from './likes.service';

const LIKE = '/api/like.php';
const LIKES = '/api/likes.php';
const SEEN = '/api/likes-seen.php';
const AUTO = '/api/auto-like.php';

let t: TestApp;

beforeAll(async () => {
  t = await createTestApp();
});
afterAll(async () => {
  await t?.close();
});

const member = (options?: MemberOptions) => createMember(t, options);
const as = (...args: CallArgs) => callAs(t, ...args);

const like = (who: Member, profileId: number, source = 'profile') => as(who, 'POST', LIKE, { profile_id: profileId, source });

async function likeOk(who: Member, profileId: number, source = 'profile'): Promise<boolean> {
  const res = await like(who, profileId, source);
  expect(res.statusCode, res.body).toBe(200);
  return res.json().is_match;
}

async function likesOf(who: Member) {
  const res = await as(who, 'GET', LIKES);
  expect(res.statusCode, res.body).toBe(200);
  return likesResponseSchema.parse(res.json());
}

async function likeRows(liker: number, liked: number) {
  return t.ctx.db
    .select()
    .from(likes)
    .where(and(eq(likes.likerProfileId, liker), eq(likes.likedProfileId, liked)));
}

async function profileRow(profileId: number) {
  const [row] = await t.ctx.db.select().from(profiles).where(eq(profiles.id, profileId));
  return row;
}

/** A fictional profile (no account) on the member's site; with a main photo row unless `photo` is false. */
async function fictional(of: Member, options: { country?: string; photo?: boolean; isFictional?: boolean } = {}) {
  const base = await profileRow(of.profileId);
  return createProfile(
    t,
    {
      siteId: base.siteId,
      name: `Fiction ${randomBytes(2).toString('hex')}`,
      country: options.country ?? base.country,
      isFictional: options.isFictional ?? true,
    },
    { photo: options.photo !== false },
  );
}

/** Takes every other fictional profile of the site out of play while `run` runs. */
async function onlyFictional<T>(keep: number[], siteId: number, run: () => Promise<T>): Promise<T> {
  const others = (
    await t.ctx.db
      .select()
      .from(profiles)
      .where(and(eq(profiles.siteId, siteId), eq(profiles.isFictional, true)))
  ).filter((p) => !keep.includes(p.id) && p.status === 'active');
  for (const p of others) await t.ctx.db.update(profiles).set({ status: 'disabled' }).where(eq(profiles.id, p.id));
  try {
    return await run();
  } finally {
    for (const p of others) await t.ctx.db.update(profiles).set({ status: 'active' }).where(eq(profiles.id, p.id));
  }
}

describe('sessions and the client header', () => {
  it('every likes call needs a session (403 authentication_required) and changes no like', async () => {
    // A new like to the target, so that a refused like, unlike or likes-seen would have something to change.
    const [target, fan] = [await member(), await member()];
    await likeOk(fan, target.profileId);
    const allLikes = () => t.ctx.db.select().from(likes).orderBy(likes.likerProfileId, likes.likedProfileId);
    const before = await allLikes();
    expect(before.filter((l) => l.likedProfileId === target.profileId)).toHaveLength(1);
    for (const [method, url, payload] of [
      ['POST', LIKE, { profile_id: target.profileId, source: 'profile' }],
      ['DELETE', LIKE, { profile_id: target.profileId }],
      ['GET', LIKES, undefined],
      ['POST', SEEN, { profile_id: fan.profileId }],
      ['GET', AUTO, undefined],
    ] as const) {
      const res = await as(null, method, url, payload);
      expect(res.statusCode, `${method} ${url}`).toBe(403);
      expect(res.json()).toMatchObject({ error: 'authentication_required', authentication_required: true });
    }
    expect(await allLikes()).toEqual(before);
  });

  it('a like without the client header is refused (403) and writes nothing', async () => {
    const [a, b] = [await member(), await member()];
    const res = await as(a, 'POST', LIKE, { profile_id: b.profileId, source: 'profile' }, { client: false });
    expect(res.statusCode).toBe(403);
    expect(res.json().error).toBe('client_header_required');
    const seen = await as(b, 'POST', SEEN, { profile_id: a.profileId }, { client: false });
    expect(seen.statusCode).toBe(403);
    expect(await likeRows(a.profileId, b.profileId)).toEqual([]);
  });
});

describe('POST/DELETE /api/like.php', () => {
  it('likes a profile once, however often it is sent', async () => {
    const [a, b] = [await member(), await member()];
    expect(await likeOk(a, b.profileId)).toBe(false);
    expect(await likeOk(a, b.profileId, 'search')).toBe(false);
    const rows = await likeRows(a.profileId, b.profileId);
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({ source: 'profile', isNew: true });
  });

  it('a mutual like is a match, for both sides', async () => {
    const [a, b] = [await member(), await member()];
    expect(await likeOk(a, b.profileId)).toBe(false);
    expect(await likeOk(b, a.profileId, 'search')).toBe(true);
    const mine = await likesOf(a);
    expect(mine.profiles.find((p) => p.id === b.profileId)?.is_match).toBe(true);
    expect(mine.liked_by.find((p) => p.id === b.profileId)?.is_match).toBe(true);
    const theirs = await likesOf(b);
    expect(theirs.profiles.find((p) => p.id === a.profileId)?.is_match).toBe(true);
    // B liked A back: A's like to B is no longer new for B (the match modal showed it).
    expect(theirs.liked_by.find((p) => p.id === a.profileId)?.like_new).toBe(false);
    // A has not opened B yet: B's like is new for A.
    expect(mine.liked_by.find((p) => p.id === b.profileId)?.like_new).toBe(true);
    // Liking again still says match (and A has now acknowledged B's like too).
    expect(await likeOk(a, b.profileId)).toBe(true);
    expect((await likesOf(a)).new_likes).toBe(0);
  });

  it('cannot like yourself (400)', async () => {
    const a = await member();
    const res = await like(a, a.profileId);
    expect(res.statusCode).toBe(400);
    expect(res.json()).toMatchObject({ error: 'validation_failed', field: 'profile_id' });
    expect(await likeRows(a.profileId, a.profileId)).toEqual([]);
  });

  it('bad input is a 400 naming the field: unknown or server-only sources, no id', async () => {
    const [a, b] = [await member(), await member()];
    for (const [payload, field] of [
      [{ profile_id: b.profileId, source: 'swipe' }, 'source'],
      [{ profile_id: b.profileId, source: 'auto' }, 'source'],
      [{ profile_id: b.profileId }, 'source'],
      [{ profile_id: 'x', source: 'profile' }, 'profile_id'],
      [{ profile_id: -3, source: 'profile' }, 'profile_id'],
      [{ source: 'profile' }, 'profile_id'],
    ] as const) {
      const res = await as(a, 'POST', LIKE, payload);
      expect(res.statusCode, JSON.stringify(payload)).toBe(400);
      expect(res.json().field).toBe(field);
    }
    expect(await likeRows(a.profileId, b.profileId)).toEqual([]);
  });

  it('a profile of another site, an unknown one or one not active does not exist for the liker (404)', async () => {
    const a = await member();
    const herz = await member({ host: HERZ });
    const inactive = await member({ activate: false });
    for (const id of [herz.profileId, inactive.profileId, 999_999_999]) {
      const res = await like(a, id);
      expect(res.statusCode, String(id)).toBe(404);
      expect(res.json().error).toBe('not_found');
    }
    // And the other way round.
    expect((await like(herz, a.profileId)).statusCode).toBe(404);
    expect(await likeRows(a.profileId, herz.profileId)).toEqual([]);
  });

  it('an invisible member cannot like (403 invisible)', async () => {
    const [a, b] = [await member(), await member()];
    expect((await as(a, 'PUT', '/api/profile.php', { is_invisible: true })).statusCode).toBe(200);
    const res = await like(a, b.profileId);
    expect(res.statusCode).toBe(403);
    expect(res.json()).toMatchObject({
      error: 'invisible',
      message: 'Invisible members cannot like others',
      message_key: 'likes.errors.invisible',
    });
    expect(await likeRows(a.profileId, b.profileId)).toEqual([]);
    // Visible again, the like goes through.
    expect((await as(a, 'PUT', '/api/profile.php', { is_invisible: false })).statusCode).toBe(200);
    expect(await likeOk(a, b.profileId)).toBe(false);
  });

  it('a block either way makes the profile unknown (404), and the lists leave it out', async () => {
    const [a, b, c] = [await member(), await member(), await member()];
    await likeOk(c, a.profileId);
    await likeOk(a, c.profileId);
    expect((await as(a, 'POST', '/api/block.php', { profile_id: b.profileId })).statusCode).toBe(200);
    expect((await like(a, b.profileId)).statusCode).toBe(404);
    expect((await like(b, a.profileId)).statusCode).toBe(404);
    // A block after the likes hides them from both lists of both members.
    await t.ctx.db.insert(blocks).values({ blockerProfileId: c.profileId, blockedProfileId: a.profileId });
    const mine = await likesOf(a);
    expect(mine.profiles.map((p) => p.id)).not.toContain(c.profileId);
    expect(mine.liked_by.map((p) => p.id)).not.toContain(c.profileId);
    const theirs = await likesOf(c);
    expect(theirs.profiles.map((p) => p.id)).not.toContain(a.profileId);
    expect(theirs.liked_by.map((p) => p.id)).not.toContain(a.profileId);
  });

  it('DELETE takes my like back, and only mine', async () => {
    const [a, b] = [await member(), await member()];
    await likeOk(a, b.profileId);
    await likeOk(b, a.profileId);
    const res = await as(a, 'DELETE', LIKE, { profile_id: b.profileId });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toEqual({ ok: true });
    expect(await likeRows(a.profileId, b.profileId)).toEqual([]);
    expect(await likeRows(b.profileId, a.profileId)).toHaveLength(1);
    expect((await likesOf(a)).profiles).toEqual([]);
    expect((await likesOf(b)).profiles[0]).toMatchObject({ id: a.profileId, is_match: false });
    // Again: nothing to remove, still fine.
    expect((await as(a, 'DELETE', LIKE, { profile_id: b.profileId })).statusCode).toBe(200);
  });
});

describe('GET /api/likes.php', () => {
  it('lists whom I liked and who liked me, newest first, as cards', async () => {
    const [a, b, c] = [await member(), await member(), await member()];
    await likeOk(a, b.profileId);
    await likeOk(a, c.profileId, 'search');
    await likeOk(c, a.profileId);
    const mine = await likesOf(a);
    expect(Object.keys(mine).sort()).toEqual(['liked_by', 'new_likes', 'profiles']);
    expect(mine.profiles.map((p) => p.id)).toEqual([c.profileId, b.profileId]);
    expect(mine.profiles[1]).toEqual({
      id: b.profileId,
      name: b.name,
      age: expect.any(Number),
      city: null,
      country: expect.any(String),
      thumb_url: null,
      is_fictional: false,
      is_premium: false,
      is_match: false,
    });
    expect(mine.profiles[0].is_match).toBe(true);
    expect(mine.liked_by).toEqual([expect.objectContaining({ id: c.profileId, name: c.name, like_new: true, is_match: true })]);
    expect(mine.new_likes).toBe(1);

    const theirs = await likesOf(b);
    expect(theirs.profiles).toEqual([]);
    expect(theirs.liked_by).toHaveLength(1);
    expect(Object.keys(theirs.liked_by[0]).sort()).toEqual(
      ['age', 'city', 'country', 'id', 'is_fictional', 'is_match', 'is_premium', 'like_new', 'name', 'thumb_url'].sort(),
    );
    expect(theirs.liked_by[0]).toMatchObject({ id: a.profileId, name: a.name, like_new: true, is_match: false });
    expect(theirs.new_likes).toBe(1);
  });

  it('shows the main photo as a thumb and leaves out likes of profiles that are not active', async () => {
    const [a, b] = [await member(), await member()];
    const pending = await member({ activate: false });
    // A member who has not activated may like; the like shows once their profile is active.
    expect(await likeOk(pending, a.profileId)).toBe(false);
    expect((await likesOf(a)).liked_by).toEqual([]);
    await t.ctx.db.update(profiles).set({ status: 'active' }).where(eq(profiles.id, pending.profileId));
    expect((await likesOf(a)).liked_by.map((p) => p.id)).toEqual([pending.profileId]);

    const withPhoto = await fictional(a);
    await createLike(t, a.profileId, withPhoto.id, 'search');
    await likeOk(a, b.profileId);
    const mine = await likesOf(a);
    expect(mine.profiles.find((p) => p.id === withPhoto.id)).toMatchObject({
      is_fictional: true,
      thumb_url: `/api/photo.php?id=${withPhoto.mainPhotoId}&v=thumb`,
    });
    await t.ctx.db.update(profiles).set({ status: 'disabled' }).where(eq(profiles.id, b.profileId));
    expect((await likesOf(a)).profiles.map((p) => p.id)).toEqual([withPhoto.id]);
  });
});

describe('POST /api/likes-seen.php', () => {
  it('clears the new-like flag of the like to me, only when I open it', async () => {
    const [a, b, other] = [await member(), await member(), await member()];
    await likeOk(a, b.profileId);
    await likeOk(a, other.profileId);
    expect((await likesOf(b)).new_likes).toBe(1);

    // Another member cannot clear B's flag: their call only ever touches likes to themselves.
    expect((await as(other, 'POST', SEEN, { profile_id: a.profileId })).statusCode).toBe(200);
    // The liker cannot clear it either.
    expect((await as(a, 'POST', SEEN, { profile_id: b.profileId })).statusCode).toBe(200);
    const before = await likesOf(b);
    expect(before.liked_by[0]).toMatchObject({ id: a.profileId, like_new: true });
    expect(before.new_likes).toBe(1);
    // other's own flag from A is the one that went.
    expect((await likesOf(other)).new_likes).toBe(0);

    const res = await as(b, 'POST', SEEN, { profile_id: a.profileId });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toEqual({ ok: true });
    const after = await likesOf(b);
    expect(after.liked_by[0]).toMatchObject({ id: a.profileId, like_new: false });
    expect(after.new_likes).toBe(0);
    expect((await likeRows(a.profileId, b.profileId))[0].isNew).toBe(false);

    const bad = await as(b, 'POST', SEEN, { profile_id: 'x' });
    expect(bad.statusCode).toBe(400);
    expect(bad.json().field).toBe('profile_id');
  });
});

describe('GET /api/auto-like.php', () => {
  it('once a day, an active fictional profile of the site likes the member; never a real member', async () => {
    const a = await member();
    const real = await member();
    const site = (await profileRow(a.profileId)).siteId;
    const country = (await profileRow(a.profileId)).country;
    const abroad = await fictional(a, { country: country === 'DE' ? 'FR' : 'DE' });
    const local = await fictional(a);
    const notFictional = await fictional(a, { isFictional: false });

    await onlyFictional([abroad.id, local.id], site, async () => {
      const first = await as(a, 'GET', AUTO);
      expect(first.statusCode, first.body).toBe(200);
      const body = autoLikeResponseSchema.parse(first.json());
      // The member's country first.
      expect(body.profile).toEqual({
        id: local.id,
        name: local.name,
        is_fictional: true,
        main_image: { match: `/api/photo.php?id=${local.mainPhotoId}&v=match` },
      });
      expect((await likeRows(local.id, a.profileId))[0]).toMatchObject({ source: 'auto', isNew: true });
      const mine = await likesOf(a);
      expect(mine.liked_by[0]).toMatchObject({ id: local.id, is_fictional: true, like_new: true });
      expect(mine.new_likes).toBe(1);

      // The same day: nothing.
      const second = await as(a, 'GET', AUTO);
      expect(second.statusCode).toBe(200);
      expect(second.json()).toEqual({ profile: null });

      // The next day: another fictional profile (the first already likes the member).
      await t.ctx.limiter.reset(autoLikeLimitKey(a.profileId));
      expect((await as(a, 'GET', AUTO)).json().profile.id).toBe(abroad.id);

      // When no fictional profile is left, nobody likes the member, however many real members there are.
      await t.ctx.limiter.reset(autoLikeLimitKey(a.profileId));
      expect((await as(a, 'GET', AUTO)).json()).toEqual({ profile: null });
    });
    expect(await likeRows(notFictional.id, a.profileId)).toEqual([]);
    expect(await likeRows(real.profileId, a.profileId)).toEqual([]);
  });

  it('does not fire for invisible members, nor from a profile in a block with the member', async () => {
    const a = await member();
    const site = (await profileRow(a.profileId)).siteId;
    const blocked = await fictional(a);
    await onlyFictional([blocked.id], site, async () => {
      await t.ctx.db.insert(blocks).values({ blockerProfileId: a.profileId, blockedProfileId: blocked.id });
      expect((await as(a, 'GET', AUTO)).json()).toEqual({ profile: null });
      await t.ctx.db.delete(blocks).where(eq(blocks.blockerProfileId, a.profileId));

      const hidden = await member();
      expect((await as(hidden, 'PUT', '/api/profile.php', { is_invisible: true })).statusCode).toBe(200);
      expect((await as(hidden, 'GET', AUTO)).json()).toEqual({ profile: null });
      expect(await likeRows(blocked.id, hidden.profileId)).toEqual([]);
      // Invisible calls do not use up the day.
      expect((await as(hidden, 'PUT', '/api/profile.php', { is_invisible: false })).statusCode).toBe(200);
      expect((await as(hidden, 'GET', AUTO)).json().profile?.id).toBe(blocked.id);
    });
  });

  it("comes only from a gender the member is looking for that is looking for the member; the member's country first", async () => {
    const a = await member();
    const { siteId, country } = await profileRow(a.profileId);
    expect((await as(a, 'PUT', '/api/profile.php', { gender: 'man', sexuality: 'straight' })).statusCode).toBe(200);
    const localMan = await fictional(a);
    const localLesbian = await fictional(a);
    const womanAbroad = await fictional(a, { country: country === 'DE' ? 'FR' : 'DE' });
    await t.ctx.db.update(profiles).set({ gender: 'man' }).where(eq(profiles.id, localMan.id));
    await t.ctx.db
      .update(profiles)
      .set({ gender: 'woman', lookingFor: ['woman'] })
      .where(eq(profiles.id, localLesbian.id));
    await t.ctx.db.update(profiles).set({ gender: 'woman' }).where(eq(profiles.id, womanAbroad.id));
    await onlyFictional([localMan.id, localLesbian.id, womanAbroad.id], siteId, async () => {
      expect((await as(a, 'GET', AUTO)).json().profile.id).toBe(womanAbroad.id);
    });
    // Nobody left who is looking for him: no auto-like at all.
    const b = await member();
    expect((await as(b, 'PUT', '/api/profile.php', { gender: 'man', looking_for: ['woman'] })).statusCode).toBe(200);
    await onlyFictional([localMan.id, localLesbian.id], siteId, async () => {
      expect((await as(b, 'GET', AUTO)).json().profile).toBeNull();
    });
  });
});

describe('likeProfile (the service the swipe game calls)', () => {
  it('records a swipe like with its source and answers whether it is a match', async () => {
    const [a, b] = [await member(), await member()];
    await likeOk(b, a.profileId);
    const [user] = await t.ctx.db
      .select()
      .from(users)
      .where(eq(users.id, (await profileRow(a.profileId)).userId as number));
    const liker = { sessionId: 0, tokenHash: '', user, profile: await profileRow(a.profileId) };
    expect(await likeProfile(t.ctx, { liker, likedProfileId: b.profileId, source: 'swipe' })).toEqual({ isMatch: true, isNew: true });
    expect(await likeProfile(t.ctx, { liker, likedProfileId: b.profileId, source: 'swipe' })).toEqual({ isMatch: true, isNew: false });
    expect((await likeRows(a.profileId, b.profileId))[0].source).toBe('swipe');
    await expect(likeProfile(t.ctx, { liker, likedProfileId: a.profileId, source: 'swipe' })).rejects.toMatchObject({ statusCode: 400 });
  });
});

describe('events', () => {
  it('a new like raises like.created once, a mutual one match.created too; a repeated or refused like raises nothing', async () => {
    const liked = recordEvents(t.ctx.events, 'like.created');
    const matched = recordEvents(t.ctx.events, 'match.created');
    const [a, b] = [await member(), await member()];
    const { siteId } = await profileRow(a.profileId);
    await likeOk(a, b.profileId);
    await likeOk(a, b.profileId, 'search');
    expect((await like(a, a.profileId)).statusCode).toBe(400);
    expect(await likeOk(b, a.profileId, 'search')).toBe(true);
    await t.ctx.events.idle();
    const ours = (e: { likerProfileId: number }) => e.likerProfileId === a.profileId || e.likerProfileId === b.profileId;
    expect(liked.seen.filter(ours)).toEqual([
      { type: 'like.created', siteId, likerProfileId: a.profileId, likedProfileId: b.profileId, source: 'profile' },
      { type: 'like.created', siteId, likerProfileId: b.profileId, likedProfileId: a.profileId, source: 'search' },
    ]);
    expect(matched.seen.filter((e) => e.profileId === a.profileId || e.profileId === b.profileId)).toEqual([
      { type: 'match.created', siteId, profileId: b.profileId, matchedProfileId: a.profileId },
    ]);
    liked.stop();
    matched.stop();
  });

  it('the auto-like raises like.created from the fictional profile, and match.created when the member had liked it', async () => {
    const liked = recordEvents(t.ctx.events, 'like.created');
    const matched = recordEvents(t.ctx.events, 'match.created');
    const a = await member();
    const { siteId } = await profileRow(a.profileId);
    const liker = await fictional(a);
    await likeOk(a, liker.id);
    await onlyFictional([liker.id], siteId, async () => {
      expect((await as(a, 'GET', AUTO)).json().profile.id).toBe(liker.id);
    });
    await t.ctx.events.idle();
    expect(liked.seen.filter((e) => e.likedProfileId === a.profileId)).toEqual([
      { type: 'like.created', siteId, likerProfileId: liker.id, likedProfileId: a.profileId, source: 'auto' },
    ]);
    expect(matched.seen.filter((e) => e.matchedProfileId === a.profileId)).toEqual([
      { type: 'match.created', siteId, profileId: liker.id, matchedProfileId: a.profileId },
    ]);
    liked.stop();
    matched.stop();
  });
});

describe('mutual likes at the same moment', () => {
  it('make exactly one match: one of the two likes answers is_match and raises match.created', async () => {
    const matched = recordEvents(t.ctx.events, 'match.created');
    const pairs = await Promise.all(Array.from({ length: 8 }, async () => [await member(), await member()] as const));
    const answers = await Promise.all(pairs.map(([a, b]) => Promise.all([likeOk(a, b.profileId), likeOk(b, a.profileId)])));
    await t.ctx.events.idle();
    for (const [i, [a, b]] of pairs.entries()) {
      expect(answers[i].filter(Boolean), `pair ${i}`).toHaveLength(1);
      const events = matched.seen.filter((e) => [a.profileId, b.profileId].includes(e.profileId));
      expect(events, `pair ${i}`).toHaveLength(1);
    }
    matched.stop();
  });

  it('an auto-like and the member liking that profile back at the same moment make exactly one match', async () => {
    const matched = recordEvents(t.ctx.events, 'match.created');
    for (let round = 0; round < 6; round++) {
      const a = await member();
      const { siteId } = await profileRow(a.profileId);
      const liker = await fictional(a);
      const [auto, back] = await onlyFictional([liker.id], siteId, () => Promise.all([as(a, 'GET', AUTO), like(a, liker.id)]));
      expect(auto.statusCode, auto.body).toBe(200);
      expect(auto.json().profile?.id).toBe(liker.id);
      expect(back.statusCode, back.body).toBe(200);
      await t.ctx.events.idle();
      const events = matched.seen.filter((e) => e.matchedProfileId === a.profileId || e.profileId === a.profileId);
      expect(events, `round ${round}`).toHaveLength(1);
    }
    matched.stop();
  });
});

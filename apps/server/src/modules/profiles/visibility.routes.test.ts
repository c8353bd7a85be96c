import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { likesResponseSchema, memberResponseSchema } from '@amora/contracts';
import { likes, profiles } from '@amora/db';
import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type CallArgs, callAs, createMember, createProfile, type Member, type MemberOptions, uploadPhoto } from '../../test/factories';
import { CLIENT, createTestApp, type TestApp } from '../../test/harness';

/**
 * Invisible and not-activated members, by id (spec §4: invisible mode hides a member from search and from seeing
 * or liking others; they must write first). An invisible member is seen only by the members they contacted (a
 * like from them, today); a profile that is not activated only by its owner. Every path that shows a profile or
 * its photos by id is tried by the owner, a contacted member, another member and a visitor.
 */

let t: TestApp;
let dataDir: string;

const member = (options?: MemberOptions) => createMember(t, options);
const as = (...args: CallArgs) => callAs(t, ...args);

const like = (who: Member, profileId: number) => as(who, 'POST', '/api/like.php', { profile_id: profileId, source: 'profile' });

async function likesOf(who: Member) {
  const res = await as(who, 'GET', '/api/likes.php');
  expect(res.statusCode, res.body).toBe(200);
  return likesResponseSchema.parse(res.json());
}

async function setInvisible(who: Member, on: boolean) {
  const res = await as(who, 'PUT', '/api/profile.php', { is_invisible: on });
  expect(res.statusCode, res.body).toBe(200);
}

/** Everyone who tries, with the status each must get. */
type Attempt = [who: Member | null, label: string, status: number];

async function expectStatuses(url: string, attempts: Attempt[]) {
  for (const [who, label, status] of attempts) {
    const res = await as(who, 'GET', url);
    expect(res.statusCode, `${label}: GET ${url} ${res.body.slice(0, 120)}`).toBe(status);
  }
}

let hidden: Member;
let contacted: Member;
let admirer: Member;
let stranger: Member;
let pending: Member;
let hiddenPhoto: number;
let pendingPhoto: number;

beforeAll(async () => {
  dataDir = mkdtempSync(join(tmpdir(), 'amora-visibility-'));
  t = await createTestApp({ dataDir });
  hidden = await member();
  contacted = await member();
  admirer = await member();
  stranger = await member();
  pending = await member({ activate: false });
  hiddenPhoto = (await uploadPhoto(t, hidden, { seed: 31 })).id;
  pendingPhoto = (await uploadPhoto(t, pending, { seed: 32 })).id;
  // While still visible: the hidden member likes `contacted`, and `admirer` likes the hidden member.
  expect((await like(hidden, contacted.profileId)).statusCode).toBe(200);
  expect((await like(admirer, hidden.profileId)).statusCode).toBe(200);
  await setInvisible(hidden, true);
});
afterAll(async () => {
  await t?.close();
  rmSync(dataDir, { recursive: true, force: true });
});

describe('an invisible member, by id', () => {
  it('profile view: the owner and the members they contacted; 404 for anyone else', async () => {
    await expectStatuses(`/api/member.php?id=${hidden.profileId}`, [
      [hidden, 'owner', 200],
      [contacted, 'contacted', 200],
      [admirer, 'liked them, not contacted by them', 404],
      [stranger, 'another member', 404],
      [null, 'visitor', 404],
    ]);
    const seen = memberResponseSchema.parse((await as(contacted, 'GET', `/api/member.php?id=${hidden.profileId}`)).json());
    expect(seen.profile.photos.map((p) => p.id)).toEqual([hiddenPhoto]);
    // The same answer as for an id that does not exist.
    const res = await as(stranger, 'GET', `/api/member.php?id=${hidden.profileId}`);
    expect(res.json()).toEqual((await as(stranger, 'GET', '/api/member.php?id=987654321')).json());
  });

  it('photos: every variant for the owner and the contacted member; 404 for anyone else', async () => {
    for (const v of ['large', 'thumb', 'match', 'blur']) {
      await expectStatuses(`/api/photo.php?id=${hiddenPhoto}&v=${v}`, [
        [hidden, 'owner', 200],
        [contacted, 'contacted', 200],
        [admirer, 'liked them', 404],
        [stranger, 'another member', 404],
        [null, 'visitor', 404],
      ]);
    }
  });

  it('is never among related profiles, search results, suggestions or signup matches', async () => {
    const anchor = await member();
    for (const who of [contacted, stranger, admirer, null]) {
      const view = await as(who, 'GET', `/api/member.php?id=${anchor.profileId}`);
      expect(view.statusCode, view.body).toBe(200);
      expect(memberResponseSchema.parse(view.json()).related.map((r) => r.id)).not.toContain(hidden.profileId);
    }
    for (const who of [contacted, stranger]) {
      const search = await as(who, 'GET', '/api/search.php');
      expect(search.json().results.map((r: { id: number }) => r.id)).not.toContain(hidden.profileId);
      const swipe = await as(who, 'GET', '/api/swipe-game.php');
      expect(swipe.json().cards.map((r: { id: number }) => r.id)).not.toContain(hidden.profileId);
      const matches = await as(who, 'GET', '/api/signup-matches.php');
      expect(matches.json().profiles.map((r: { id: number }) => r.id)).not.toContain(hidden.profileId);
    }
  });

  it('likes lists: in the list of the member they liked; not in the list of a member who liked them', async () => {
    const mine = await likesOf(contacted);
    expect(mine.liked_by.map((p) => p.id)).toContain(hidden.profileId);
    const theirs = await likesOf(admirer);
    expect(theirs.profiles.map((p) => p.id)).not.toContain(hidden.profileId);
    // The like stays stored: it shows again when the member turns invisible mode off.
    await setInvisible(hidden, false);
    expect((await likesOf(admirer)).profiles.map((p) => p.id)).toContain(hidden.profileId);
    await setInvisible(hidden, true);
  });

  it('liking or skipping them (profile, match-finder, swipe game): 404 unless they contacted you', async () => {
    const before = await t.ctx.db.select().from(likes).where(eq(likes.likedProfileId, hidden.profileId));
    const tries: [string, Record<string, unknown>][] = [
      ['/api/like.php', { profile_id: hidden.profileId, source: 'profile' }],
      ['/api/match-finder.php', { profile_id: hidden.profileId, action: 'like' }],
      ['/api/match-finder.php', { profile_id: hidden.profileId, action: 'skip' }],
      ['/api/swipe-game.php', { profile_id: hidden.profileId, action: 'like' }],
      ['/api/swipe-game.php', { profile_id: hidden.profileId, action: 'skip' }],
    ];
    for (const [url, body] of tries) {
      const res = await as(stranger, 'POST', url, body);
      expect(res.statusCode, `${url} ${JSON.stringify(body)}`).toBe(404);
      expect(res.json().error).toBe('not_found');
    }
    expect(await t.ctx.db.select().from(likes).where(eq(likes.likedProfileId, hidden.profileId))).toEqual(before);
    // The member they contacted may answer: a like back is a match.
    const back = await like(contacted, hidden.profileId);
    expect(back.statusCode, back.body).toBe(200);
    expect(back.json().is_match).toBe(true);
    expect((await likesOf(contacted)).profiles.map((p) => p.id)).toContain(hidden.profileId);
    await t.ctx.db.delete(likes).where(and(eq(likes.likerProfileId, contacted.profileId), eq(likes.likedProfileId, hidden.profileId)));
  });
});

describe('a member who has not activated, by id', () => {
  it('profile view and photos: the owner only; 404 for others', async () => {
    await expectStatuses(`/api/member.php?id=${pending.profileId}`, [
      [pending, 'owner', 200],
      [stranger, 'another member', 404],
      [null, 'visitor', 404],
    ]);
    for (const v of ['large', 'thumb', 'match']) {
      await expectStatuses(`/api/photo.php?id=${pendingPhoto}&v=${v}`, [
        [pending, 'owner', 200],
        [stranger, 'another member', 404],
        [null, 'visitor', 404],
      ]);
    }
  });

  it('cannot be liked, and is in nobody’s list (their own likes show once they activate)', async () => {
    const res = await like(stranger, pending.profileId);
    expect(res.statusCode).toBe(404);
    // They may like (see likes decisions); the like is not shown while their profile is not active.
    expect((await like(pending, stranger.profileId)).statusCode).toBe(200);
    expect((await likesOf(stranger)).liked_by.map((p) => p.id)).not.toContain(pending.profileId);
  });
});

describe('auto-like', () => {
  it('never comes from an invisible profile (it cannot like others)', async () => {
    const me = await member();
    const [mine] = await t.ctx.db.select().from(profiles).where(eq(profiles.id, me.profileId));
    const ghost = await createProfile(
      t,
      { siteId: mine.siteId, name: `Ghost ${randomBytes(2).toString('hex')}`, country: mine.country, isFictional: true, isInvisible: true },
      { photo: true },
    );
    const fictional = await t.ctx.db
      .select({ id: profiles.id })
      .from(profiles)
      .where(and(eq(profiles.siteId, mine.siteId), eq(profiles.isFictional, true), eq(profiles.isInvisible, false)));
    expect(fictional).toEqual([]);
    const res = await as(me, 'GET', '/api/auto-like.php', undefined, { headers: { ...CLIENT } });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toEqual({ profile: null });
    expect(await t.ctx.db.select().from(likes).where(eq(likes.likerProfileId, ghost.id))).toEqual([]);
  });
});

import { randomBytes, randomInt } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { likesResponseSchema, memberResponseSchema, ownPhotoSchema } from '@amora/contracts';
import { likes, photos, profiles } from '@amora/db';
import { and, eq } from 'drizzle-orm';
import type { LightMyRequestResponse } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AMORA, type CallOptions, call, latestToken, signup } from '../../test/accounts';
import { CLIENT, createTestApp, type TestApp } from '../../test/harness';
import { photoJpeg } from '../photos/test-images';

/**
 * Invisible and not-activated members, by id (spec §4: invisible mode hides a member from search and from seeing
 * or liking others; they must write first). An invisible member is seen only by the members they contacted (a
 * like from them, today); a profile that is not activated only by its owner. Every path that shows a profile or
 * its photos by id is tried by the owner, a contacted member, another member and a visitor.
 */

let t: TestApp;
let dataDir: string;

const ipBase = `10.${randomInt(1, 255)}.${randomInt(0, 200)}`;
let ipCounter = 0;
const nextIp = () => `${ipBase}.${++ipCounter}`;
const VISITOR_IP = nextIp();

interface Member {
  cookie: string;
  profileId: number;
  host: string;
  ip: string;
}

async function member(options: { activate?: boolean } = {}): Promise<Member> {
  const ip = nextIp();
  const res = await signup(t, { name: `Seen ${ipCounter}` }, { ip, host: AMORA });
  if (options.activate !== false) {
    const activated = await call(t, 'GET', `/api/activate.php?token=${await latestToken(t, res.email, 'activation')}`, undefined, {
      host: AMORA,
      ip,
    });
    expect(activated.headers.location).toMatch(/\/activate\/done$/);
  }
  return { cookie: res.cookie, profileId: res.user.profile.id, host: AMORA, ip };
}

function as(who: Member | null, method: 'GET' | 'POST' | 'PUT' | 'DELETE', url: string, payload?: unknown, options: CallOptions = {}) {
  return call(t, method, url, payload, { host: AMORA, ip: who?.ip ?? VISITOR_IP, cookie: who?.cookie, ...options });
}

async function upload(who: Member, seed: number): Promise<number> {
  const form = new FormData();
  const bytes = await photoJpeg(240, 320, { seed });
  form.append('photo', new Blob([new Uint8Array(bytes)], { type: 'image/jpeg' }), 'me.jpg');
  const response = new Response(form);
  const res = (await t.app.inject({
    method: 'POST',
    url: '/api/photos.php',
    headers: { host: who.host, ...CLIENT, cookie: who.cookie, 'content-type': response.headers.get('content-type') as string },
    payload: Buffer.from(await response.arrayBuffer()),
    remoteAddress: who.ip,
  })) as LightMyRequestResponse;
  expect(res.statusCode, res.body).toBe(200);
  const photo = ownPhotoSchema.parse(res.json().photo);
  expect(photo.is_main).toBe(true);
  return photo.id;
}

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
  hiddenPhoto = await upload(hidden, 31);
  pendingPhoto = await upload(pending, 32);
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
    const [ghost] = await t.ctx.db
      .insert(profiles)
      .values({
        siteId: mine.siteId,
        name: `Ghost ${randomBytes(2).toString('hex')}`,
        country: mine.country,
        status: 'active',
        isFictional: true,
        isInvisible: true,
        birthDate: '1990-05-05',
      })
      .returning();
    const [photo] = await t.ctx.db
      .insert(photos)
      .values({ profileId: ghost.id, storageKey: randomBytes(8).toString('hex'), width: 600, height: 750 })
      .returning();
    await t.ctx.db.update(profiles).set({ mainPhotoId: photo.id }).where(eq(profiles.id, ghost.id));
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

import { randomBytes, randomInt } from 'node:crypto';
import { type LikeSource, type OwnPhoto, ownPhotoSchema } from '@amora/contracts';
import { likes, photos, profiles, sites } from '@amora/db';
import { eq } from 'drizzle-orm';
import type { LightMyRequestResponse } from 'fastify';
import { expect } from 'vitest';
import { AMORA, type CallOptions, call, latestToken, signup } from './accounts';
import { CLIENT, type TestApp } from './harness';
import { photoJpeg } from './images';

/**
 * Test data. Members are made as people make them, through the API (signup, then the activation link), so their
 * rows are what the routes write; profiles without an account (fictional ones), their photos and likes from them
 * go straight into the database, as the seed writes them.
 */

/**
 * A new address for each member: signups are limited per address. The API limit lives in Redis on the postgres
 * run and outlives the app, so each test file starts from a random place in 10.0.0.0/8.
 */
let nextAddress = randomInt(1, 2 ** 24 - 100_000);
export function nextIp(): string {
  const n = nextAddress++;
  return `10.${(n >> 16) & 255}.${(n >> 8) & 255}.${n & 255}`;
}

/** The address a test file's visitor (no session) calls from. */
const VISITOR_IP = nextIp();

export interface Member {
  cookie: string;
  userId: number;
  profileId: number;
  host: string;
  ip: string;
  name: string;
  email: string;
  password: string;
}

export interface MemberOptions {
  /** The site's host (default Amora). */
  host?: string;
  name?: string;
  dateOfBirth?: string;
  /** Follows the activation link of the signup mail (default true). */
  activate?: boolean;
  /** Fields saved through PUT /api/profile.php after the signup. */
  profile?: Record<string, unknown>;
}

let memberCount = 0;

/** A member who signed up (and, unless `activate: false`, activated) from an address of their own. */
export async function createMember(t: TestApp, options: MemberOptions = {}): Promise<Member> {
  const host = options.host ?? AMORA;
  const ip = nextIp();
  const name = options.name ?? `Member ${++memberCount}`;
  const res = await signup(t, { name, ...(options.dateOfBirth ? { date_of_birth: options.dateOfBirth } : {}) }, { ip, host });
  const member: Member = {
    cookie: res.cookie,
    userId: res.user.id,
    profileId: res.user.profile.id,
    host,
    ip,
    name,
    email: res.email,
    password: res.password,
  };
  if (options.activate !== false) {
    const token = await latestToken(t, member.email, 'activation');
    const activated = await call(t, 'GET', `/api/activate.php?token=${token}`, undefined, { host, ip });
    expect(activated.headers.location).toMatch(/\/activate\/done$/);
  }
  if (options.profile) {
    const updated = await callAs(t, member, 'PUT', '/api/profile.php', options.profile);
    expect(updated.statusCode, updated.body).toBe(200);
  }
  return member;
}

export type CallArgs = [
  who: Member | null,
  method: 'GET' | 'POST' | 'PUT' | 'DELETE',
  url: string,
  payload?: unknown,
  options?: CallOptions,
];

/** A call as that member (their cookie, host and address), or, for null, as a visitor on Amora. */
export function callAs(t: TestApp, ...[who, method, url, payload, options = {}]: CallArgs): Promise<LightMyRequestResponse> {
  return call(t, method, url, payload, { host: who?.host ?? AMORA, ip: who?.ip ?? VISITOR_IP, cookie: who?.cookie, ...options });
}

/** A photo the member uploads through POST /api/photos.php (a drawn JPEG; `seed` varies the picture). */
export async function uploadPhoto(
  t: TestApp,
  who: Member,
  { seed = 1, width = 240, height = 320 }: { seed?: number; width?: number; height?: number } = {},
): Promise<OwnPhoto> {
  const form = new FormData();
  const bytes = await photoJpeg(width, height, { seed });
  form.append('photo', new Blob([new Uint8Array(bytes)], { type: 'image/jpeg' }), 'me.jpg');
  const body = new Response(form);
  const res = (await t.app.inject({
    method: 'POST',
    url: '/api/photos.php',
    headers: { host: who.host, ...CLIENT, cookie: who.cookie, 'content-type': body.headers.get('content-type') as string },
    payload: Buffer.from(await body.arrayBuffer()),
    remoteAddress: who.ip,
  })) as LightMyRequestResponse;
  expect(res.statusCode, res.body).toBe(200);
  return ownPhotoSchema.parse(res.json().photo);
}

export type ProfileRow = typeof profiles.$inferSelect;

/**
 * A profile without an account (as fictional profiles are), active, on Amora unless `siteId` says otherwise.
 * With `photo: true` it gets a main photo row (no file behind it).
 */
export async function createProfile(
  t: TestApp,
  values: Partial<typeof profiles.$inferInsert> = {},
  { photo = false }: { photo?: boolean } = {},
): Promise<ProfileRow> {
  const [row] = await t.ctx.db
    .insert(profiles)
    .values({
      siteId: 1,
      name: `Profile ${randomBytes(2).toString('hex')}`,
      country: 'NL',
      status: 'active',
      birthDate: '1990-05-05',
      ...values,
    })
    .returning();
  if (!photo) return row;
  const main = await createPhoto(t, row.id);
  return { ...row, mainPhotoId: main.id };
}

/** A photo row of a profile (no file behind it), made its main photo unless `main` is false. */
async function createPhoto(
  t: TestApp,
  profileId: number,
  { main = true, ...values }: Partial<typeof photos.$inferInsert> & { main?: boolean } = {},
): Promise<typeof photos.$inferSelect> {
  const [row] = await t.ctx.db
    .insert(photos)
    .values({ profileId, storageKey: randomBytes(8).toString('hex'), width: 600, height: 750, ...values })
    .returning();
  if (main) await t.ctx.db.update(profiles).set({ mainPhotoId: row.id }).where(eq(profiles.id, profileId));
  return row;
}

/** A like written straight into the database (for a liker that cannot like through the API, such as a fictional profile). */
export async function createLike(t: TestApp, likerProfileId: number, likedProfileId: number, source: LikeSource = 'search') {
  const [row] = await t.ctx.db.insert(likes).values({ likerProfileId, likedProfileId, source }).returning();
  return row;
}

/** Changes a site's settings for the length of `run`, then puts them back. */
export async function withSite(
  t: TestApp,
  domain: string,
  values: Partial<typeof sites.$inferInsert>,
  run: () => Promise<void>,
): Promise<void> {
  const [before] = await t.ctx.db.select().from(sites).where(eq(sites.domain, domain));
  const restore = Object.fromEntries(Object.keys(values).map((key) => [key, before[key as keyof typeof before]]));
  await t.ctx.db.update(sites).set(values).where(eq(sites.domain, domain));
  t.ctx.sites.invalidate();
  try {
    await run();
  } finally {
    await t.ctx.db.update(sites).set(restore).where(eq(sites.domain, domain));
    t.ctx.sites.invalidate();
  }
}

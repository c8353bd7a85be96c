import { mkdirSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import { FREE_PHOTO_LIMIT, ownPhotoSchema, PREMIUM_PHOTO_LIMIT, photoUrl } from '@amora/contracts';
import { blocks, photos, profiles, users } from '@amora/db';
import { count, eq } from 'drizzle-orm';
import type { LightMyRequestResponse } from 'fastify';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AMORA, call, HERZ } from '../../test/accounts';
import { createMember, type Member } from '../../test/factories';
import { CLIENT, createTestApp, type TestApp } from '../../test/harness';
import { jpegWithExif, photoJpeg, plainPng, pngHeaderOnly } from '../../test/images';
import { PHOTO_VARIANTS } from './photo-processing';
import { photoQueue } from './photos.service';

let t: TestApp;
let dataDir: string;

beforeAll(async () => {
  dataDir = mkdtempSync(join(tmpdir(), 'amora-photos-'));
  t = await createTestApp({ dataDir });
});
afterAll(async () => {
  await t?.close();
  rmSync(dataDir, { recursive: true, force: true });
});

/** A member who signed up, not activated: the photo routes do not ask for it. */
const member = (host = AMORA) => createMember(t, { host, activate: false });

async function multipart(bytes: Buffer, options: { field?: string; filename?: string; type?: string } = {}) {
  const form = new FormData();
  form.append(
    options.field ?? 'photo',
    new Blob([new Uint8Array(bytes)], { type: options.type ?? 'image/jpeg' }),
    options.filename ?? 'me.jpg',
  );
  const response = new Response(form);
  return { payload: Buffer.from(await response.arrayBuffer()), contentType: response.headers.get('content-type') as string };
}

async function upload(
  who: Member | null,
  bytes: Buffer,
  options: { field?: string; filename?: string; type?: string; client?: boolean } = {},
): Promise<LightMyRequestResponse> {
  const { payload, contentType } = await multipart(bytes, options);
  const headers: Record<string, string> = { host: who?.host ?? AMORA, 'content-type': contentType };
  if (options.client !== false) Object.assign(headers, CLIENT);
  if (who) headers.cookie = who.cookie;
  return t.app.inject({
    method: 'POST',
    url: '/api/photos.php',
    headers,
    payload,
    remoteAddress: '10.250.0.1',
  }) as Promise<LightMyRequestResponse>;
}

async function uploadOk(who: Member, bytes?: Buffer) {
  const res = await upload(who, bytes ?? (await photoJpeg(800, 1000, { seed: who.profileId })));
  expect(res.statusCode, res.body).toBe(200);
  return ownPhotoSchema.parse(res.json().photo);
}

function fetchVariant(who: Member | null, id: number, variant: string, host = AMORA) {
  return call(t, 'GET', `/api/photo.php?id=${id}&v=${variant}`, undefined, { cookie: who?.cookie, host: who?.host ?? host });
}

async function photoCount(profileId: number): Promise<number> {
  const [row] = await t.ctx.db.select({ value: count() }).from(photos).where(eq(photos.profileId, profileId));
  return Number(row.value);
}

async function mainPhotoIdOf(profileId: number): Promise<number | null> {
  const [row] = await t.ctx.db.select({ id: profiles.mainPhotoId }).from(profiles).where(eq(profiles.id, profileId));
  return row.id;
}

/** Every file under the member's media folder, relative to it. */
function filesOf(userId: number): string[] {
  try {
    return readdirSync(join(dataDir, 'media', String(userId)), { recursive: true, withFileTypes: true })
      .filter((entry) => entry.isFile())
      .map((entry) => relative(join(dataDir, 'media', String(userId)), join(entry.parentPath, entry.name)))
      .sort();
  } catch {
    return [];
  }
}

async function expectNothingStored(who: Member) {
  expect(await photoCount(who.profileId)).toBe(0);
  expect(await mainPhotoIdOf(who.profileId)).toBeNull();
  expect(filesOf(who.userId)).toEqual([]);
}

async function setPremium(who: Member, paid: boolean) {
  const res = await call(t, 'POST', '/api/dev/premium.php', { paid }, { cookie: who.cookie, host: who.host });
  expect(res.statusCode, res.body).toBe(200);
}

describe('POST /api/photos.php', () => {
  it('stores a photo as four WebP variants under a server-made name and makes the first one main', async () => {
    const me = await member();
    const photo = await uploadOk(me);
    expect(photo).toMatchObject({ status: 'active', is_main: true, width: 800, height: 1000 });
    expect(photo.urls).toEqual({
      large: `/api/photo.php?id=${photo.id}&v=large`,
      thumb: `/api/photo.php?id=${photo.id}&v=thumb`,
      match: `/api/photo.php?id=${photo.id}&v=match`,
      blur: `/api/photo.php?id=${photo.id}&v=blur`,
    });
    expect(photoUrl(photo.id, 'match')).toBe(photo.urls.match);
    expect(await mainPhotoIdOf(me.profileId)).toBe(photo.id);

    const [row] = await t.ctx.db.select().from(photos).where(eq(photos.id, photo.id));
    expect(row.storageKey).toMatch(/^[0-9a-f]{32}$/);
    expect(filesOf(me.userId)).toEqual(['blur', 'large', 'match', 'thumb'].map((v) => join(row.storageKey, `${v}.webp`)));

    // The uploaded file name is nowhere.
    expect(JSON.stringify(readdirSync(dataDir, { recursive: true }))).not.toContain('me.jpg');

    const second = await uploadOk(me);
    expect(second.is_main).toBe(false);
    expect(await mainPhotoIdOf(me.profileId)).toBe(photo.id);
  });

  it('serves the owner every variant as WebP with private caching', async () => {
    const me = await member();
    const photo = await uploadOk(me);
    for (const variant of PHOTO_VARIANTS) {
      const res = await fetchVariant(me, photo.id, variant);
      expect(res.statusCode, variant).toBe(200);
      expect(res.headers['content-type']).toBe('image/webp');
      expect(res.headers['cache-control']).toBe('private, max-age=3600');
      // Images are not covered by the browser's blocking of opaque JSON: no other site may embed them.
      expect(res.headers['cross-origin-resource-policy']).toBe('same-origin');
      expect(res.headers['x-content-type-options']).toBe('nosniff');
      expect((await sharp(res.rawPayload).metadata()).format).toBe('webp');
    }
  });

  it('drops EXIF (camera, copyright, GPS) from every stored variant and applies the orientation', async () => {
    const me = await member();
    const input = await jpegWithExif(600, 400);
    expect((await sharp(input).metadata()).exif?.includes('secret-copyright')).toBe(true);
    const photo = await uploadOk(me, input);
    expect({ width: photo.width, height: photo.height }).toEqual({ width: 400, height: 600 });
    for (const variant of PHOTO_VARIANTS) {
      const res = await fetchVariant(me, photo.id, variant);
      const meta = await sharp(res.rawPayload).metadata();
      expect(meta.exif, variant).toBeUndefined();
      expect(meta.xmp, variant).toBeUndefined();
      expect(meta.orientation, variant).toBeUndefined();
      expect(res.rawPayload.includes('secret-copyright'), variant).toBe(false);
    }
  });

  it('refuses a text file with 400 photo_type and stores nothing', async () => {
    const me = await member();
    const res = await upload(me, Buffer.from('just some text\n'), { filename: 'notes.txt', type: 'text/plain' });
    expect(res.statusCode).toBe(400);
    expect(res.json()).toEqual({ error: 'photo_type', message: 'Only JPEG, PNG and WebP photos are accepted', field: 'photo' });
    await expectNothingStored(me);
  });

  it('refuses a text file named .jpg and sent as image/jpeg: the bytes decide', async () => {
    const me = await member();
    const res = await upload(me, Buffer.from('definitely a photo, trust me'), { filename: 'holiday.jpg', type: 'image/jpeg' });
    expect(res.statusCode).toBe(400);
    expect(res.json().error).toBe('photo_type');
    await expectNothingStored(me);
  });

  it('refuses a PNG decompression bomb by its header with 400 photo_dimensions and stores nothing', async () => {
    const me = await member();
    const bomb = pngHeaderOnly(30_000, 30_000);
    const res = await upload(me, bomb, { filename: 'bomb.png', type: 'image/png' });
    expect(res.statusCode).toBe(400);
    expect(res.json()).toEqual({
      error: 'photo_dimensions',
      message: 'This photo has too many pixels (maximum 8000 px on a side)',
      field: 'photo',
    });
    await expectNothingStored(me);
  });

  it('refuses more than 8000 px on a side (a real 9000×100 PNG) with 400 photo_dimensions', async () => {
    const me = await member();
    const wide = await sharp({ create: { width: 9000, height: 100, channels: 3, background: '#c33' } })
      .png()
      .toBuffer();
    const res = await upload(me, wide, { filename: 'wide.png', type: 'image/png' });
    expect(res.statusCode).toBe(400);
    expect(res.json().error).toBe('photo_dimensions');
    await expectNothingStored(me);
  });

  it('refuses a file over 15 MB with 413 photo_too_large and stores nothing', async () => {
    const me = await member();
    const big = Buffer.alloc(15 * 1024 * 1024 + 10, 7);
    big.set([0xff, 0xd8, 0xff]);
    const res = await upload(me, big);
    expect(res.statusCode).toBe(413);
    expect(res.json()).toEqual({ error: 'photo_too_large', message: 'This photo is too large (maximum 15 MB)', field: 'photo' });
    await expectNothingStored(me);
  });

  it('refuses a broken image with 400 photo_unreadable', async () => {
    const me = await member();
    const jpeg = await photoJpeg(400, 400);
    const res = await upload(me, jpeg.subarray(0, jpeg.length / 2));
    expect(res.statusCode).toBe(400);
    expect(res.json().error).toBe('photo_unreadable');
    await expectNothingStored(me);
  });

  it('needs the field "photo" in a multipart body', async () => {
    const me = await member();
    const wrongField = await upload(me, await photoJpeg(200, 200), { field: 'picture' });
    expect(wrongField.statusCode).toBe(400);
    expect(wrongField.json()).toMatchObject({ error: 'validation_failed', field: 'photo' });
    const json = await call(t, 'POST', '/api/photos.php', { photo: 'x' }, { cookie: me.cookie });
    expect(json.statusCode).toBe(400);
    expect(json.json()).toMatchObject({ error: 'validation_failed', field: 'photo' });
    await expectNothingStored(me);
  });

  it('answers a body that is not valid multipart with 400, never 500', async () => {
    const me = await member();
    for (const [contentType, payload] of [
      ['multipart/form-data', 'no boundary'],
      ['multipart/form-data; boundary=abc', '--abc\r\nContent-Disposition: form-data; name="photo"; filename="a.jpg"\r\n\r\ncut sh'],
    ]) {
      const res = await t.app.inject({
        method: 'POST',
        url: '/api/photos.php',
        headers: { host: AMORA, ...CLIENT, cookie: me.cookie, 'content-type': contentType },
        payload,
      });
      expect(res.statusCode, contentType).toBe(400);
      expect(res.json()).toMatchObject({ error: 'validation_failed', field: 'photo' });
    }
    await expectNothingStored(me);
  });

  it('needs a session (403 authentication_required) and the client header', async () => {
    const jpeg = await photoJpeg(200, 200);
    const visitor = await upload(null, jpeg);
    expect(visitor.statusCode).toBe(403);
    expect(visitor.json()).toMatchObject({ error: 'authentication_required', authentication_required: true });

    const me = await member();
    const noHeader = await upload(me, jpeg, { client: false });
    expect(noHeader.statusCode).toBe(403);
    expect(noHeader.json().error).toBe('client_header_required');
    await expectNothingStored(me);
  });

  it('stores nothing, not even a row, when the files cannot be written', async () => {
    const me = await member();
    // A file where the member's media folder should be: the photo is processed, then writing it fails.
    mkdirSync(join(dataDir, 'media'), { recursive: true });
    writeFileSync(join(dataDir, 'media', String(me.userId)), 'in the way');
    try {
      const res = await upload(me, await photoJpeg(300, 300));
      expect(res.statusCode).toBe(500);
      expect(await photoCount(me.profileId)).toBe(0);
      expect(await mainPhotoIdOf(me.profileId)).toBeNull();
    } finally {
      rmSync(join(dataDir, 'media', String(me.userId)), { force: true });
    }
  });
});

describe('bounded photo processing', () => {
  it('refuses the 210-byte 7999×1 PNG at once with 400 photo_aspect_ratio naming the field photo, and stores nothing', async () => {
    const me = await member();
    const thin = await plainPng(7999, 1);
    const res = await upload(me, thin, { filename: 'line.png', type: 'image/png' });
    expect(res.statusCode).toBe(400);
    expect(res.json()).toEqual({
      error: 'photo_aspect_ratio',
      message: 'This photo is too long and narrow (one side may be at most 10 times the other)',
      field: 'photo',
    });
    await expectNothingStored(me);
  });

  it('of 20 parallel uploads from one member at most 10 pass; the rest get 429 with Retry-After and leave nothing behind', async () => {
    const me = await member();
    await setPremium(me, true);
    const image = await photoJpeg(300, 400, { seed: 4 });
    const results = await Promise.all(Array.from({ length: 20 }, () => upload(me, image)));
    const ok = results.filter((r) => r.statusCode === 200);
    const refused = results.filter((r) => r.statusCode !== 200);
    // The minute's limit (10) is counted atomically; past it, and past three photos in processing at once, 429.
    expect(ok.length).toBeGreaterThanOrEqual(1);
    expect(ok.length).toBeLessThanOrEqual(10);
    for (const res of refused) {
      expect(res.statusCode, res.body).toBe(429);
      expect(res.json()).toMatchObject({ error: 'rate_limited', retry_after_seconds: expect.any(Number) });
      expect(Number(res.headers['retry-after'])).toBe(res.json().retry_after_seconds);
    }
    // Exactly the accepted photos are stored: a row with its four files each, no other row, no other file.
    const rows = await t.ctx.db.select().from(photos).where(eq(photos.profileId, me.profileId));
    expect(rows.map((r) => r.id).sort()).toEqual(ok.map((r) => r.json().photo.id).sort());
    expect(filesOf(me.userId)).toEqual(rows.flatMap((r) => PHOTO_VARIANTS.map((v) => join(r.storageKey, `${v}.webp`))).sort());
    expect(await mainPhotoIdOf(me.profileId)).toBe(Math.min(...rows.map((r) => r.id)));

    // The minute's uploads are used up; the next one is refused before its body is looked at.
    const next = await upload(me, image);
    expect(next.statusCode).toBe(429);
    expect(await photoCount(me.profileId)).toBe(ok.length);
  });

  it('a full processing queue answers 503 photo_busy with Retry-After at once; a member with three photos in it gets 429', async () => {
    const me = await member();
    const image = await photoJpeg(300, 400, { seed: 6 });
    let release!: () => void;
    const gate = new Promise<void>((resolve) => {
      release = resolve;
    });
    // Other members' photos hold every slot and every waiting place.
    const held: Promise<void>[] = [];
    while (!photoQueue.isFull) held.push(photoQueue.run(`someone-${held.length}`, () => gate));
    try {
      const busy = await upload(me, image);
      expect(busy.statusCode).toBe(503);
      expect(busy.json()).toEqual({
        error: 'photo_busy',
        message: 'Many photos are being processed right now, please try again in a moment',
        retry_after_seconds: 5,
      });
      expect(busy.headers['retry-after']).toBe('5');
      await expectNothingStored(me);
    } finally {
      release();
      await Promise.all(held);
    }

    // Three of this member's own photos in the queue: a fourth is refused, not queued.
    let releaseOwn!: () => void;
    const own = new Promise<void>((resolve) => {
      releaseOwn = resolve;
    });
    const mine = [0, 1, 2].map(() => photoQueue.run(String(me.userId), () => own));
    try {
      const res = await upload(me, image);
      expect(res.statusCode).toBe(429);
      expect(res.json()).toMatchObject({ error: 'rate_limited', retry_after_seconds: 5 });
      expect(res.headers['retry-after']).toBe('5');
      await expectNothingStored(me);
    } finally {
      releaseOwn();
      await Promise.all(mine);
    }
    await uploadOk(me, image);
  });
});

describe('photo limits', () => {
  it(`a free member may have ${FREE_PHOTO_LIMIT} photos: the next one is 409 photo_limit and nothing is stored`, async () => {
    const me = await member();
    for (let i = 0; i < FREE_PHOTO_LIMIT; i++) await uploadOk(me, await photoJpeg(300, 400, { seed: i }));
    const filesBefore = filesOf(me.userId);
    expect(filesBefore).toHaveLength(FREE_PHOTO_LIMIT * 4);

    const res = await upload(me, await photoJpeg(300, 400, { seed: 9 }));
    expect(res.statusCode).toBe(409);
    expect(res.json()).toEqual({
      error: 'photo_limit',
      message: `You have reached the maximum of ${FREE_PHOTO_LIMIT} photos`,
      limit: FREE_PHOTO_LIMIT,
    });
    expect(await photoCount(me.profileId)).toBe(FREE_PHOTO_LIMIT);
    expect(filesOf(me.userId)).toEqual(filesBefore);

    const list = await call(t, 'GET', '/api/photos.php', undefined, { cookie: me.cookie });
    expect(list.statusCode).toBe(200);
    expect(list.json().limit).toBe(FREE_PHOTO_LIMIT);
    expect(list.json().photos).toHaveLength(FREE_PHOTO_LIMIT);
  });

  it(`a premium member may add a ${FREE_PHOTO_LIMIT + 1}th photo (up to ${PREMIUM_PHOTO_LIMIT})`, async () => {
    const me = await member();
    for (let i = 0; i < FREE_PHOTO_LIMIT; i++) await uploadOk(me, await photoJpeg(300, 400, { seed: i }));
    await setPremium(me, true);
    const fourth = await uploadOk(me, await photoJpeg(300, 400, { seed: 5 }));
    expect(fourth.is_main).toBe(false);
    expect(await photoCount(me.profileId)).toBe(FREE_PHOTO_LIMIT + 1);
    const list = await call(t, 'GET', '/api/photos.php', undefined, { cookie: me.cookie });
    expect(list.json().limit).toBe(PREMIUM_PHOTO_LIMIT);
    expect(list.json().photos.map((p: { id: number }) => p.id)[0]).toBe(fourth.id);
  });

  it('uploads at the same time cannot pass the limit together', async () => {
    const me = await member();
    for (let i = 0; i < FREE_PHOTO_LIMIT - 1; i++) await uploadOk(me, await photoJpeg(300, 400, { seed: i }));
    const images = await Promise.all([10, 11, 12].map((seed) => photoJpeg(300, 400, { seed })));
    const results = await Promise.all(images.map((image) => upload(me, image)));
    expect(results.map((r) => r.statusCode).sort()).toEqual([200, 409, 409]);
    expect(await photoCount(me.profileId)).toBe(FREE_PHOTO_LIMIT);
    expect(filesOf(me.userId)).toHaveLength(FREE_PHOTO_LIMIT * 4);
  });

  it('the dev premium route needs a session and a boolean', async () => {
    expect((await call(t, 'POST', '/api/dev/premium.php', { paid: true })).statusCode).toBe(403);
    const me = await member();
    const bad = await call(t, 'POST', '/api/dev/premium.php', { paid: 'yes' }, { cookie: me.cookie });
    expect(bad.statusCode).toBe(400);
    await setPremium(me, true);
    const [row] = await t.ctx.db.select({ paid: users.paidUser }).from(users).where(eq(users.id, me.userId));
    expect(row.paid).toBe(true);
  });
});

describe('my photos: list, main photo, delete', () => {
  it('lists my photos newest first with the main one marked; needs a session', async () => {
    expect((await call(t, 'GET', '/api/photos.php')).statusCode).toBe(403);
    const me = await member();
    const first = await uploadOk(me);
    const second = await uploadOk(me);
    const res = await call(t, 'GET', '/api/photos.php', undefined, { cookie: me.cookie });
    expect(res.statusCode).toBe(200);
    expect(res.headers['cache-control']).toBe('private, no-store');
    expect(res.json().photos.map((p: { id: number; is_main: boolean }) => [p.id, p.is_main])).toEqual([
      [second.id, false],
      [first.id, true],
    ]);
  });

  it('sets the main photo; another member cannot (404) and nothing changes', async () => {
    const me = await member();
    const other = await member();
    const first = await uploadOk(me);
    const second = await uploadOk(me);

    const theirs = await call(t, 'PUT', '/api/main-photo.php', { id: second.id }, { cookie: other.cookie });
    expect(theirs.statusCode).toBe(404);
    expect(await mainPhotoIdOf(me.profileId)).toBe(first.id);
    expect(await mainPhotoIdOf(other.profileId)).toBeNull();

    const mine = await call(t, 'PUT', '/api/main-photo.php', { id: second.id }, { cookie: me.cookie });
    expect(mine.statusCode).toBe(200);
    expect(mine.json()).toEqual({ ok: true });
    expect(await mainPhotoIdOf(me.profileId)).toBe(second.id);

    expect((await call(t, 'PUT', '/api/main-photo.php', { id: 'x' }, { cookie: me.cookie })).statusCode).toBe(400);
    expect((await call(t, 'PUT', '/api/main-photo.php', { id: second.id })).statusCode).toBe(403);
  });

  it('a photo that is not active cannot become main', async () => {
    const me = await member();
    await uploadOk(me);
    const second = await uploadOk(me);
    await t.ctx.db.update(photos).set({ status: 'pending' }).where(eq(photos.id, second.id));
    const res = await call(t, 'PUT', '/api/main-photo.php', { id: second.id }, { cookie: me.cookie });
    expect(res.statusCode).toBe(409);
    expect(res.json().error).toBe('photo_not_active');
  });

  it('another member cannot delete my photo (404, nothing deleted)', async () => {
    const me = await member();
    const other = await member();
    const photo = await uploadOk(me);
    const files = filesOf(me.userId);
    const res = await call(t, 'DELETE', '/api/photos.php', { id: photo.id }, { cookie: other.cookie });
    expect(res.statusCode).toBe(404);
    expect(res.json().error).toBe('not_found');
    expect(await photoCount(me.profileId)).toBe(1);
    expect(filesOf(me.userId)).toEqual(files);
    expect(await mainPhotoIdOf(me.profileId)).toBe(photo.id);
    expect((await call(t, 'DELETE', '/api/photos.php', { id: photo.id })).statusCode).toBe(403);
  });

  it('deleting the main photo makes the newest remaining one main, then none; the files go too', async () => {
    const me = await member();
    const a = await uploadOk(me);
    const b = await uploadOk(me);
    const c = await uploadOk(me);
    await call(t, 'PUT', '/api/main-photo.php', { id: b.id }, { cookie: me.cookie });

    const del = async (id: number) => {
      const res = await call(t, 'DELETE', '/api/photos.php', { id }, { cookie: me.cookie });
      expect(res.statusCode, res.body).toBe(200);
      expect(res.json()).toEqual({ ok: true });
    };
    await del(a.id); // not main: main stays
    expect(await mainPhotoIdOf(me.profileId)).toBe(b.id);
    await del(b.id); // main: the newest remaining one (c) becomes main
    expect(await mainPhotoIdOf(me.profileId)).toBe(c.id);
    expect(filesOf(me.userId)).toHaveLength(4);
    expect((await fetchVariant(me, b.id, 'large')).statusCode).toBe(404);
    await del(c.id);
    expect(await mainPhotoIdOf(me.profileId)).toBeNull();
    expect(filesOf(me.userId)).toEqual([]);
    expect((await call(t, 'DELETE', '/api/photos.php', { id: c.id }, { cookie: me.cookie })).statusCode).toBe(404);
    // Deleting frees a slot under the limit.
    await uploadOk(me);
  });
});

describe('GET /api/photo.php: who sees what', () => {
  let owner: Member;
  let free: Member;
  let premium: Member;
  let blocked: Member;
  let main: { id: number };
  let other: { id: number };
  let ownerLarge: Buffer;

  beforeAll(async () => {
    owner = await member();
    free = await member();
    premium = await member();
    blocked = await member();
    // Others see a profile's photos once it is activated (until then only its owner does).
    await t.ctx.db.update(profiles).set({ status: 'active' }).where(eq(profiles.id, owner.profileId));
    main = await uploadOk(owner, await photoJpeg(900, 1200, { seed: 1 }));
    other = await uploadOk(owner, await photoJpeg(900, 1200, { seed: 2 }));
    await setPremium(premium, true);
    await t.ctx.db.insert(blocks).values({ blockerProfileId: owner.profileId, blockedProfileId: blocked.profileId });
    ownerLarge = (await fetchVariant(owner, other.id, 'large')).rawPayload;
  });

  const statuses = async (who: Member | null, id: number, host?: string) =>
    Object.fromEntries(await Promise.all(PHOTO_VARIANTS.map(async (v) => [v, (await fetchVariant(who, id, v, host)).statusCode] as const)));
  const all = (status: number) => Object.fromEntries(PHOTO_VARIANTS.map((v) => [v, status]));

  it('a free member sees the main photo, and only the blur of the others', async () => {
    expect(await statuses(free, main.id)).toEqual(all(200));
    expect(await statuses(free, other.id)).toEqual({ large: 404, thumb: 404, match: 404, blur: 200 });
  });

  it('the blur a free member gets is a different, tiny, server-made image', async () => {
    const res = await fetchVariant(free, other.id, 'blur');
    expect(res.headers['content-type']).toBe('image/webp');
    expect(res.rawPayload.equals(ownerLarge)).toBe(false);
    expect(res.rawPayload.length).toBeLessThan(8_000);
    expect(res.rawPayload.length).toBeLessThan(ownerLarge.length / 4);
    const meta = await sharp(res.rawPayload).metadata();
    expect({ width: meta.width, height: meta.height }).toEqual({ width: 320, height: 400 });
  });

  it('a visitor sees the main photo and nothing of the others, not even the blur', async () => {
    expect(await statuses(null, main.id)).toEqual(all(200));
    expect(await statuses(null, other.id)).toEqual(all(404));
  });

  it('a premium member sees every variant', async () => {
    expect(await statuses(premium, other.id)).toEqual(all(200));
    expect((await fetchVariant(premium, other.id, 'large')).rawPayload.equals(ownerLarge)).toBe(true);
  });

  it('a member the owner blocked sees nothing at all', async () => {
    expect(await statuses(blocked, main.id)).toEqual(all(404));
    expect(await statuses(blocked, other.id)).toEqual(all(404));
  });

  it('nobody sees a photo that is not active, except its owner', async () => {
    await t.ctx.db.update(photos).set({ status: 'pending' }).where(eq(photos.id, other.id));
    try {
      expect(await statuses(premium, other.id)).toEqual(all(404));
      expect(await statuses(free, other.id)).toEqual(all(404));
      expect(await statuses(owner, other.id)).toEqual(all(200));
    } finally {
      await t.ctx.db.update(photos).set({ status: 'active' }).where(eq(photos.id, other.id));
    }
  });

  it('nothing of a profile of another site, even its main photo', async () => {
    const elsewhere = await member(HERZ);
    expect(await statuses(elsewhere, main.id)).toEqual(all(404));
    expect(await statuses(null, main.id, HERZ)).toEqual(all(404));
  });

  it('a refusal looks exactly like a photo that does not exist, and is not cached', async () => {
    const refused = await fetchVariant(free, other.id, 'large');
    const missing = await fetchVariant(free, 987_654_321, 'large');
    expect(refused.statusCode).toBe(404);
    expect(missing.statusCode).toBe(404);
    expect(refused.body).toBe(missing.body);
    expect(refused.headers['content-type']).toBe(missing.headers['content-type']);
    expect(refused.headers['cache-control']).toBe('private, no-store');
  });

  it('refuses a bad id or variant with 400', async () => {
    expect((await call(t, 'GET', `/api/photo.php?id=${main.id}&v=original`)).statusCode).toBe(400);
    expect((await call(t, 'GET', '/api/photo.php?id=abc&v=large')).statusCode).toBe(400);
    expect((await call(t, 'GET', `/api/photo.php?id=${main.id}`)).statusCode).toBe(400);
  });

  it('after the owner changes the main photo, a visitor sees the new one and loses the old', async () => {
    const res = await call(t, 'PUT', '/api/main-photo.php', { id: other.id }, { cookie: owner.cookie });
    expect(res.statusCode).toBe(200);
    try {
      expect(await statuses(null, other.id)).toEqual(all(200));
      expect(await statuses(null, main.id)).toEqual(all(404));
      expect(await statuses(free, main.id)).toEqual({ large: 404, thumb: 404, match: 404, blur: 200 });
    } finally {
      await call(t, 'PUT', '/api/main-photo.php', { id: main.id }, { cookie: owner.cookie });
    }
  });

  it('nothing of a deleted account', async () => {
    await t.ctx.db.update(users).set({ status: 'deleted' }).where(eq(users.id, owner.userId));
    try {
      expect(await statuses(premium, main.id)).toEqual(all(404));
      expect(await statuses(null, main.id)).toEqual(all(404));
    } finally {
      await t.ctx.db.update(users).set({ status: 'not_confirmed' }).where(eq(users.id, owner.userId));
    }
  });
});

import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { landerResponseSchema } from '@amora/contracts';
import { profiles } from '@amora/db';
import { eq, inArray } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { birthDate } from '../../test/accounts';
import { callAs, createMember, createProfile, uploadPhoto, withSite } from '../../test/factories';
import { createTestApp, type TestApp } from '../../test/harness';
import { photoJpeg } from '../../test/images';
import { addFictionalPhoto } from '../photos/photos.service';

/**
 * GET /api/lander.php: the site's niche and the profiles a lander shows, and GET /api/lander-photo.php, their
 * photos. Only the site's fictional profiles (active, visible, with a main photo), the niche's own when enough
 * of them fit, those of the visitor's country first.
 */

let t: TestApp;
let dataDir: string;
const made: number[] = [];

async function fictional(values: Partial<typeof profiles.$inferInsert>) {
  const row = await createProfile(t, { isFictional: true, ...values }, { photo: true });
  made.push(row.id);
  return row;
}

beforeAll(async () => {
  dataDir = mkdtempSync(join(tmpdir(), 'amora-landers-'));
  t = await createTestApp({ dataDir });
});
afterAll(async () => {
  await t?.close();
  rmSync(dataDir, { recursive: true, force: true });
});

const lander = async (query: string, host?: string) => {
  const res = await callAs(t, null, 'GET', `/api/lander.php?${query}`, undefined, host ? { host } : {});
  return res;
};
async function landerOk(query = 'name=video') {
  const res = await lander(query);
  expect(res.statusCode, res.body).toBe(200);
  return landerResponseSchema.parse(res.json());
}

describe('GET /api/lander.php', () => {
  it('shows fictional profiles only: never a member, nor one without a photo, hidden or not active', async () => {
    const member = await createMember(t, { name: 'Real Rita', profile: { gender: 'woman' } });
    await uploadPhoto(t, member, { seed: 2 });
    const shown = await fictional({ name: 'Fiona', gender: 'woman', city: 'Utrecht', lat: 52.09, lon: 5.12 });
    const noPhoto = await createProfile(t, { isFictional: true, name: 'No Photo' });
    const hidden = await fictional({ isInvisible: true });
    const inactive = await fictional({ status: 'suspended' });
    const other = await createProfile(t, { isFictional: true, siteId: 2, country: 'DE' }, { photo: true });
    const data = await landerOk();
    const ids = data.profiles.map((p) => p.id);
    expect(ids).toContain(shown.id);
    for (const id of [member.profileId, noPhoto.id, hidden.id, inactive.id, other.id]) expect(ids).not.toContain(id);
    const fiona = data.profiles.find((p) => p.id === shown.id);
    expect(fiona).toMatchObject({ name: 'Fiona', city: 'Utrecht', country: 'NL', position: { lat: 52.09, lon: 5.12 }, is_fictional: true });
    expect(fiona?.photo).toEqual({
      src: `/api/lander-photo.php?id=${shown.mainPhotoId}&w=540`,
      srcSet: [360, 540, 720].map((w) => `/api/lander-photo.php?id=${shown.mainPhotoId}&w=${w} ${w}w`).join(', '),
      width: 540,
      height: 675,
    });
    await t.ctx.db.delete(profiles).where(inArray(profiles.id, [...made, noPhoto.id, other.id]));
    made.length = 0;
  });

  it("gives the site's niche, and the niche's own profiles when enough fit, else the wider circle", async () => {
    const older = await Promise.all(Array.from({ length: 12 }, () => fictional({ gender: 'woman', birthDate: birthDate(64) })));
    await fictional({ gender: 'woman', birthDate: birthDate(25) });
    const man = await fictional({ gender: 'man', birthDate: birthDate(66) });
    await withSite(t, 'amora.localhost', { niche: 5 }, async () => {
      const data = await landerOk('name=gallery&slug=gilf-eng');
      expect(data.niche).toBe(5);
      expect(data.profiles.map((p) => p.id).sort()).toEqual(older.map((p) => p.id).sort());
      expect(data.profiles.every((p) => p.age >= 60)).toBe(true);
    });
    // Fewer than 12 men seeking men, and fewer than 12 men: the men all the same, never a woman.
    await withSite(t, 'amora.localhost', { niche: 7 }, async () => {
      const data = await landerOk('name=gallery');
      expect(data.niche).toBe(7);
      expect(data.profiles.map((p) => p.id)).toEqual([man.id]);
    });
    await withSite(t, 'amora.localhost', { niche: 1 }, async () => {
      expect((await landerOk()).niche).toBe(1);
    });
    await t.ctx.db.delete(profiles).where(inArray(profiles.id, made));
    made.length = 0;
  });

  it("never leaves a gendered niche's gender when too few fit: fewer faces, or none", async () => {
    // Herzklopfen's case: a MILF site with a few mature women and a man who is nearer (the visitor's country).
    const women = await Promise.all(
      [38, 47, 60, 69].map((age) => fictional({ gender: 'woman', birthDate: birthDate(age), country: 'NL', lat: 52.37, lon: 4.9 })),
    );
    const man = await fictional({ gender: 'man', birthDate: birthDate(61), country: 'NL', lat: 52.37, lon: 4.9 });
    const nonbinary = await fictional({ gender: 'nonbinary', birthDate: birthDate(40), country: 'NL' });
    for (const niche of [2, 4, 5, 6]) {
      await withSite(t, 'amora.localhost', { niche }, async () => {
        const ids = (await landerOk('name=alonetonight')).profiles.map((p) => p.id);
        expect(ids.sort(), `niche ${niche}`).toEqual(women.map((p) => p.id).sort());
      });
    }
    await withSite(t, 'amora.localhost', { niche: 7 }, async () => {
      expect((await landerOk('name=alonetonight')).profiles.map((p) => p.id)).toEqual([man.id]);
    });
    // A niche without a gender still shows everyone.
    for (const niche of [1, 3]) {
      await withSite(t, 'amora.localhost', { niche }, async () => {
        const ids = (await landerOk('name=alonetonight')).profiles.map((p) => p.id);
        expect(ids).toEqual(expect.arrayContaining([man.id, nonbinary.id, ...women.map((p) => p.id)]));
      });
    }
    // None of the gender: no faces rather than the other gender's.
    await t.ctx.db.delete(profiles).where(eq(profiles.id, man.id));
    await withSite(t, 'amora.localhost', { niche: 7 }, async () => {
      expect((await landerOk('name=alonetonight')).profiles).toEqual([]);
    });
    await t.ctx.db.delete(profiles).where(inArray(profiles.id, made));
    made.length = 0;
  });

  it("puts the profiles of the visitor's country first, then the nearest", async () => {
    const farthest = await fictional({ country: 'AU', lat: -33.87, lon: 151.21 });
    const far = await fictional({ country: 'ES', lat: 40.4, lon: -3.7 });
    const near = await fictional({ country: 'BE', lat: 50.85, lon: 4.35 });
    const home = await fictional({ country: 'NL', lat: 52.37, lon: 4.9 });
    const data = await landerOk('name=maplanding&slug=eng');
    expect(data.profiles.map((p) => p.id)).toEqual([home.id, near.id, far.id, farthest.id]);
    // With none of the visitor's country, the nearest first all the same.
    await withSite(t, 'amora.localhost', { defaultCountry: 'PL' }, async () => {
      expect((await landerOk('name=maplanding')).profiles.map((p) => p.id)).toEqual([home.id, near.id, far.id, farthest.id]);
    });
    await withSite(t, 'amora.localhost', { defaultCountry: 'NZ' }, async () => {
      expect((await landerOk('name=maplanding')).profiles[0].id).toBe(farthest.id);
    });
    await t.ctx.db.delete(profiles).where(inArray(profiles.id, made));
    made.length = 0;
  });

  it('is a 404 for a slug that does not exist, and refuses a lander that does not exist', async () => {
    expect((await lander('name=video&slug=klingon')).statusCode).toBe(404);
    expect((await lander('name=nosuchlander')).statusCode).toBe(400);
    expect((await lander('name=tinderswipe')).statusCode).toBe(200);
  });
});

describe('GET /api/lander-photo.php', () => {
  it("serves a fictional profile's main photo at the lander widths, public and cacheable, and nothing else", async () => {
    const row = await createProfile(t, { isFictional: true });
    const { photo } = await addFictionalPhoto(t.ctx, { profileId: row.id, buffer: await photoJpeg(900, 1200) });
    await t.ctx.db.update(profiles).set({ mainPhotoId: photo.id }).where(eq(profiles.id, row.id));
    const res = await callAs(t, null, 'GET', `/api/lander-photo.php?id=${photo.id}&w=360`);
    expect(res.statusCode, res.body).toBe(200);
    expect(res.headers['content-type']).toBe('image/webp');
    expect(res.headers['cache-control']).toBe('public, max-age=86400');
    const sharp = (await import('sharp')).default;
    expect(await sharp(res.rawPayload).metadata()).toMatchObject({ format: 'webp', width: 360, height: 450 });
    // Kept: the second answer is the same file.
    const again = await callAs(t, null, 'GET', `/api/lander-photo.php?id=${photo.id}&w=360`);
    expect(again.rawPayload.equals(res.rawPayload)).toBe(true);
    // Only the widths a lander uses.
    expect((await callAs(t, null, 'GET', `/api/lander-photo.php?id=${photo.id}&w=1000`)).statusCode).toBe(400);
    // Not on another site.
    expect(
      (await callAs(t, null, 'GET', `/api/lander-photo.php?id=${photo.id}&w=360`, undefined, { host: 'herzklopfen.localhost:3000' }))
        .statusCode,
    ).toBe(404);
    // Not a member's photo, though a visitor may see it on the profile.
    const member = await createMember(t, { name: 'Real Rita' });
    const own = await uploadPhoto(t, member, { seed: 4, width: 900, height: 1200 });
    const refused = await callAs(t, null, 'GET', `/api/lander-photo.php?id=${own.id}&w=360`);
    expect(refused.statusCode).toBe(404);
    expect(refused.headers['cache-control']).toBe('no-store');
    // Not once the profile is no longer shown.
    await t.ctx.db.update(profiles).set({ status: 'suspended' }).where(eq(profiles.id, row.id));
    expect((await callAs(t, null, 'GET', `/api/lander-photo.php?id=${photo.id}&w=540`)).statusCode).toBe(404);
  });
});

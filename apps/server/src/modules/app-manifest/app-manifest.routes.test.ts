import { readFileSync } from 'node:fs';
import { APP_ICONS, appManifestSchema } from '@amora/contracts';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../test/harness';

const AMORA = { host: 'localhost:3000' };
const HERZ = { host: 'herzklopfen.localhost:3000' };

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(async () => {
  await t.close();
});

const manifestOf = async (headers: Record<string, string>) => {
  const res = await t.app.inject({ url: '/api/manifest.webmanifest', headers });
  expect(res.statusCode).toBe(200);
  expect(res.headers['content-type']).toMatch(/^application\/manifest\+json/);
  return appManifestSchema.parse(res.json());
};

describe('GET /api/manifest.webmanifest', () => {
  it("answers each site's own manifest: its name, description and language", async () => {
    const amora = await manifestOf(AMORA);
    const herz = await manifestOf(HERZ);
    expect(amora).toMatchObject({ name: 'Amora', short_name: 'Amora', lang: 'en' });
    expect(herz).toMatchObject({ name: 'Herzklopfen', short_name: 'Herzklopfen', lang: 'de' });
    expect(amora.description).not.toBe('');
    expect(herz.description).not.toBe(amora.description);
    expect(herz).not.toEqual(amora);
  });

  it('installs the members area as a standalone app over the whole site, with 192, 512 and maskable icons', async () => {
    const manifest = await manifestOf(AMORA);
    expect(manifest).toMatchObject({ id: '/', start_url: '/members', scope: '/', display: 'standalone' });
    expect(manifest.icons.map((icon) => [icon.sizes, icon.purpose])).toEqual([
      ['192x192', 'any'],
      ['512x512', 'any'],
      ['512x512', 'maskable'],
    ]);
  });

  it("takes its colours from the site's branding, the theme colour the pages declare", async () => {
    const manifest = await manifestOf(HERZ);
    const page = readFileSync(new URL('../../../../web/index.html', import.meta.url), 'utf8');
    expect(page).toContain(`<meta name="theme-color" content="${manifest.theme_color}" />`);
    expect(manifest.background_color).toBe('#ffffff');
  });

  it('may be cached for a while, per host', async () => {
    const res = await t.app.inject({ url: '/api/manifest.webmanifest', headers: AMORA });
    expect(res.headers['cache-control']).toBe('public, max-age=3600');
  });

  it('answers only GET (a POST is a 404)', async () => {
    const res = await t.app.inject({ method: 'POST', url: '/api/manifest.webmanifest', headers: { ...AMORA, 'x-request-type': 'client' } });
    expect(res.statusCode).toBe(404);
  });
});

describe('GET /api/assets/app-icon/:name.png', () => {
  it('answers every icon the manifest lists as a PNG of its size', async () => {
    for (const site of [AMORA, HERZ]) {
      const manifest = await manifestOf(site);
      for (const icon of manifest.icons) {
        const res = await t.app.inject({ url: icon.src, headers: site });
        expect(res.statusCode, icon.src).toBe(200);
        expect(res.headers['content-type']).toBe('image/png');
        expect(res.headers['cache-control']).toBe('public, max-age=86400');
        const meta = await sharp(res.rawPayload).metadata();
        expect(meta.format).toBe('png');
        expect(`${meta.width}x${meta.height}`).toBe(icon.sizes);
      }
    }
  });

  it('draws the logo: the any icons have round corners, the maskable and Apple ones fill the square in the theme colour', async () => {
    const corner = async (name: string) => {
      const res = await t.app.inject({ url: `/api/assets/app-icon/${name}.png`, headers: AMORA });
      const { data } = await sharp(res.rawPayload).ensureAlpha().raw().toBuffer({ resolveWithObject: true });
      return [...data.subarray(0, 4)];
    };
    expect((await corner('512'))[3]).toBe(0);
    expect(await corner('maskable-512')).toEqual([0xc8, 0x21, 0x3a, 255]);
    expect(await corner('apple-touch-180')).toEqual([0xc8, 0x21, 0x3a, 255]);
  });

  it('answers the same bytes again (drawn once)', async () => {
    const first = await t.app.inject({ url: '/api/assets/app-icon/192.png', headers: AMORA });
    const again = await t.app.inject({ url: '/api/assets/app-icon/192.png', headers: AMORA });
    expect(again.rawPayload.equals(first.rawPayload)).toBe(true);
  });

  it.each([
    '/api/assets/app-icon/64.png',
    '/api/assets/app-icon/..%2F..%2Fpackage.json.png',
    '/api/assets/app-icon/maskable.png',
    '/api/assets/app-icon/%00.png',
  ])('refuses an icon it does not have, %s, with a 400 naming the field', async (url) => {
    const res = await t.app.inject({ url, headers: AMORA });
    expect(res.statusCode).toBe(400);
    expect(res.json()).toMatchObject({ error: 'validation_failed', field: 'name' });
  });

  it('has no other formats of the icons', async () => {
    for (const url of ['/api/assets/app-icon/192.svg', '/api/assets/app-icon/192', '/api/assets/app-icon/']) {
      const res = await t.app.inject({ url, headers: AMORA });
      expect(res.statusCode, url).toBe(404);
    }
  });

  it('lists every icon it draws', () => {
    expect([...APP_ICONS]).toEqual(['192', '512', 'maskable-512', 'apple-touch-180']);
  });
});

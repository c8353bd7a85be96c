import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { LOCALES } from '@amora/contracts';
import { loadCatalogue, lookup } from '@amora/i18n';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AMORA } from '../test/accounts';
import { withSite } from '../test/factories';
import { createTestApp, type TestApp } from '../test/harness';
import { localizedIndex } from './web';

/** The web app's own index.html, as the build copies it. */
const INDEX_HTML = readFileSync(join(import.meta.dirname, '..', '..', '..', 'web', 'index.html'), 'utf8');
const noScript = (locale: string) => lookup(loadCatalogue(locale, 'common'), 'errors.noScript') as string;

let t: TestApp;
let webDist: string;
beforeAll(async () => {
  webDist = mkdtempSync(join(tmpdir(), 'amora-web-'));
  writeFileSync(join(webDist, 'index.html'), INDEX_HTML);
  t = await createTestApp({ webDist });
});
afterAll(async () => {
  await t?.close();
  rmSync(webDist, { recursive: true, force: true });
});

describe('index.html in the language of the path', () => {
  it('tells a browser without JavaScript, in its language, to turn it on', async () => {
    for (const [url, locale] of [
      ['/de/members', 'de'],
      ['/fr/pages/terms', 'fr'],
      ['/members', 'en'],
      ['/pl/no-such-page', 'pl'],
    ] as const) {
      const res = await t.app.inject({ url });
      expect(res.body, url).toContain(`<html lang="${locale}">`);
      expect(res.body, url).toContain(`<noscript>${noScript(locale)}</noscript>`);
    }
  });

  it('has the text for every locale, never the English one elsewhere', () => {
    for (const locale of LOCALES) {
      const html = localizedIndex(INDEX_HTML, locale);
      expect(html).toContain(`<noscript>${noScript(locale)}</noscript>`);
      if (locale !== 'en') expect(html).not.toContain('Please enable JavaScript');
    }
  });
});

describe('the status of a page path', () => {
  it('answers 200 for the pages of spec §2 the app has, in any language', async () => {
    for (const url of [
      '/',
      '/de',
      '/members',
      '/de/members/12',
      '/likes',
      '/likes/mutual',
      '/likes/m/12',
      '/chats/3',
      '/credits/2/ideal',
      '/transactions',
      '/notifications',
      '/de/notifications',
      '/unsubscribe?t=x',
      '/pages/terms',
      '/fr/about',
      '/lang-config',
      '/landers/tinderswipe',
      '/landers/gallery',
      '/landers/gallery/eng',
      '/nl/landers/video/nl',
      '/de/landers/maplanding/de',
    ]) {
      const res = await t.app.inject({ url });
      expect(res.statusCode, url).toBe(200);
      expect(res.headers['content-type'], url).toContain('text/html');
    }
  });

  it('answers 404 with the app for unknown pages, unknown lander names and slugs, and pages not built yet', async () => {
    for (const url of [
      '/no-such-page',
      '/pl/no-such-page',
      '/members/12/extra',
      '/pages/nope',
      '/likes/everyone',
      '/landers/nope',
      '/landers/gallery/nope',
      '/landers/gallery/en',
      '/de/landers/video/milf-xx',
      '/landers/gallery/eng/more',
      '/landers/tinderswipe/eng',
      '/members/12/landing',
      '/members/12/landing2/eng',
      '/members/12/landing3',
    ]) {
      const res = await t.app.inject({ url });
      expect(res.statusCode, url).toBe(404);
      expect(res.headers['content-type'], url).toContain('text/html');
      expect(res.body, url).toContain('<div id="root">');
    }
  });
});

describe('a lander slug (niche prefix and language, spec §1)', () => {
  const get = (url: string) => t.app.inject({ url, headers: { host: AMORA } });
  const expectRedirect = async (url: string, to: string) => {
    const res = await get(url);
    expect(res.statusCode, url).toBe(302);
    expect(res.headers.location, url).toBe(to);
  };

  it("takes a slug of another language to that language's path, the query kept (eng is English, without a prefix)", async () => {
    await expectRedirect('/de/landers/video/eng?network=ads&sub1=a%20b', '/landers/video/eng?network=ads&sub1=a%20b');
    await expectRedirect('/landers/video/de', '/de/landers/video/de');
    await expectRedirect('/fr/landers/gallery/pl?lb=1', '/pl/landers/gallery/pl?lb=1');
    await expectRedirect('/landers/maplanding/nl/', '/nl/landers/maplanding/nl');
    for (const url of ['/landers/video/eng', '/de/landers/video/de', '/landers/video', '/de/landers/video', '/landers/tinderswipe']) {
      expect((await get(url)).statusCode, url).toBe(200);
    }
  });

  it("takes a slug of another niche to the site's niche's slug in the same language", async () => {
    await expectRedirect('/nl/landers/video/milf-nl?ref=7', '/nl/landers/video/nl?ref=7');
    await expectRedirect('/landers/gallery/gay-de', '/de/landers/gallery/de');
    await withSite(t, 'amora.localhost', { niche: 6 }, async () => {
      await expectRedirect('/landers/video/eng', '/landers/video/milf-eng');
      await expectRedirect('/de/landers/video/bbw-de', '/de/landers/video/milf-de');
      expect((await get('/landers/video/milf-eng')).statusCode).toBe(200);
      expect((await get('/it/landers/video/milf-it')).statusCode).toBe(200);
    });
  });

  it('is a 404 for a slug that does not exist, whatever the language, and for a lander that does not exist', async () => {
    for (const url of [
      '/landers/video/en',
      '/de/landers/video/xx-de',
      '/landers/nope/eng',
      '/de/landers/nope/de',
      '/landers/tinderswipe/eng',
    ]) {
      expect((await get(url)).statusCode, url).toBe(404);
    }
  });
});

describe('the operator console (/console)', () => {
  it('answers the bare app, never framed, with no referrer, no member data and no cookie', async () => {
    for (const url of ['/console', '/console/', '/console/staff', '/console/audit?page=2']) {
      const res = await t.app.inject({ url, headers: { 'accept-language': 'de' } });
      expect(res.statusCode, url).toBe(200);
      expect(res.headers['content-type'], url).toContain('text/html');
      expect(res.headers['x-frame-options'], url).toBe('DENY');
      expect(res.headers['referrer-policy'], url).toBe('no-referrer');
      expect(res.headers['content-security-policy'], url).toContain("frame-ancestors 'none'");
      expect(res.headers['content-security-policy'], url).toContain("script-src 'self'");
      expect(res.headers['cache-control'], url).toBe('private, no-store');
      expect(res.headers['set-cookie'], url).toBeUndefined();
      expect(res.body, url).toContain('<html lang="en">');
      expect(res.body, url).not.toContain('application/json');
    }
  });

  it('leaves the member pages their own headers', async () => {
    const res = await t.app.inject({ url: '/consoles' });
    expect(res.headers['x-frame-options']).toBe('SAMEORIGIN');
  });
});

import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { FastifyRequest } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { landerPages } from './lander-pages';
import { localizedIndex } from './web';

/** A web build's lander page as Vite writes it: its entry script, preloads and base stylesheet. */
const LANDER_HTML =
  '<!doctype html><html lang="en"><head><title>Amora</title>' +
  '<script type="module" crossorigin src="/assets/lander-1.js"></script>' +
  '<link rel="modulepreload" crossorigin href="/assets/preload-helper-1.js">' +
  '<link rel="stylesheet" crossorigin href="/assets/lander-1.css">' +
  '</head><body><div id="root"></div><noscript>x</noscript></body></html>';

let dist: string;
beforeAll(() => {
  dist = mkdtempSync(join(tmpdir(), 'amora-lander-dist-'));
  mkdirSync(join(dist, '.vite'));
  mkdirSync(join(dist, 'assets'));
  writeFileSync(join(dist, 'lander.html'), LANDER_HTML);
  writeFileSync(join(dist, 'assets', 'lander-1.css'), 'body{margin:0}');
  writeFileSync(join(dist, 'assets', 'video-1.css'), '.l-video{color:red}');
  writeFileSync(
    join(dist, '.vite', 'manifest.json'),
    JSON.stringify({
      'lander.html': { file: 'assets/lander-1.js', isEntry: true, css: ['assets/lander-1.css'] },
      'src/features/landers/designs/video.tsx': { file: 'assets/video-1.js', css: ['assets/video-1.css'] },
      // A design whose stylesheet is not on disk (a build being replaced): linked, as before.
      'src/features/landers/designs/gallery.tsx': { file: 'assets/gallery-1.js', css: ['assets/gallery-1.css'] },
      '../../packages/i18n/locales/en/common.json': { file: 'assets/common-1.json', src: '../../packages/i18n/locales/en/common.json' },
    }),
  );
});
afterAll(() => rmSync(dist, { recursive: true, force: true }));

const request = { site: { niche: 1, name: 'Amora' }, query: {}, url: '/landers/video/eng' } as unknown as FastifyRequest;

describe("a lander's page", () => {
  it('carries its styles inline, so its first paint waits on no other request', async () => {
    const pages = landerPages(dist, null, localizedIndex);
    const html = (await pages?.page(request, '/landers/video/eng', { locale: 'en', script: '' })) ?? '';
    expect(html).toContain('<style>body{margin:0}</style>');
    expect(html).toContain('<style>.l-video{color:red}</style>');
    expect(html).not.toMatch(/<link rel="stylesheet" crossorigin href="\/assets\/lander-1\.css">/);
    // The design's stylesheet stays named (not fetched), so the code's loader does not fetch it at the takeover.
    expect(html).toContain('<link rel="stylesheet" crossorigin href="/assets/video-1.css" disabled>');
    // The code comes after the first screen, at low priority.
    expect(html).toContain('<script type="module" fetchpriority="low" crossorigin src="/assets/lander-1.js">');
  });

  it('links a stylesheet it cannot read', async () => {
    const pages = landerPages(dist, null, localizedIndex);
    const html = (await pages?.page(request, '/landers/gallery/eng', { locale: 'en', script: '' })) ?? '';
    expect(html).toContain('<link rel="stylesheet" crossorigin href="/assets/gallery-1.css">');
  });

  it("names the common catalogue's file instead of carrying it in the boot data (the code fetches it)", async () => {
    const pages = landerPages(dist, null, localizedIndex);
    const script =
      '<script type="application/json" id="boot-data">{"locale":"en","settings":{"name":"Amora"},"user":null,"messages":{"home":{"a":"b"}}}</script>';
    const html = (await pages?.page(request, '/landers/video/eng', { locale: 'en', script })) ?? '';
    expect(html).toContain(
      '<script type="application/json" id="boot-data">{"locale":"en","settings":{"name":"Amora"},"user":null}</script>',
    );
    expect(html).toContain('"commonUrl":"/assets/common-1.json"}</script>');
    // A language whose file the build lacks keeps its catalogue in the page.
    const german = script.replace('"en"', '"de"');
    const de = (await pages?.page(request, '/de/landers/video/de', { locale: 'de', script: german })) ?? '';
    expect(de).toContain('"messages":{"home":{"a":"b"}}}</script>');
    expect(de).not.toContain('commonUrl');
  });
});

import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { brotliDecompressSync, gunzipSync } from 'node:zlib';
import { loadCatalogue } from '@amora/i18n';
import type { LightMyRequestResponse } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { scriptSafeJson } from '../../lib/script-json';
import { MEMBER_SHELL_SOURCE, ROUTE_MODULES_FILE, routePreloads } from '../../plugins/page-preloads';
import { AMORA, HERZ } from '../../test/accounts';
import { callAs, createMember, type Member } from '../../test/factories';
import { createTestApp, type TestApp } from '../../test/harness';
import { BOOT_DATA_ID } from './page-data.service';

/** The web app's own index.html, as the build copies it. */
const WEB = join(import.meta.dirname, '..', '..', '..', '..', 'web');
const INDEX_HTML = readFileSync(join(WEB, 'index.html'), 'utf8');

let t: TestApp;
let webDist: string;
let ann: Member;
let bob: Member;
beforeAll(async () => {
  webDist = mkdtempSync(join(tmpdir(), 'amora-web-'));
  writeFileSync(join(webDist, 'index.html'), INDEX_HTML);
  t = await createTestApp({ webDist });
  // A name that would end the script element and open a comment if it were written as it is.
  ann = await createMember(t, { name: 'Ann</script><!--&>' });
  bob = await createMember(t, { name: 'Bob Embedded' });
});
afterAll(async () => {
  await t?.close();
  rmSync(webDist, { recursive: true, force: true });
});

const BLOCK = new RegExp(`<script type="application/json" id="${BOOT_DATA_ID}">([^<]*)</script>`);

interface Boot {
  locale: string;
  settings: Record<string, unknown>;
  user: { id: number; email: string; profile: { id: number; name: string } } | null;
  messages: Record<string, unknown>;
}

function bootOf(res: LightMyRequestResponse): Boot {
  const match = BLOCK.exec(res.body);
  expect(match, res.body.slice(0, 400)).not.toBeNull();
  return JSON.parse((match as RegExpExecArray)[1]) as Boot;
}

const page = (who: Member | null, url: string, options: { host?: string; cookie?: string } = {}) =>
  callAs(t, who, 'GET', url, undefined, { client: false, ...options });

describe('the page carries what the app would ask for first', () => {
  it('gives a visitor the settings of settings.php, no member and the catalogue of the language, never stored', async () => {
    const res = await page(null, '/');
    expect(res.statusCode).toBe(200);
    expect(res.headers['cache-control']).toBe('private, no-store');
    const boot = bootOf(res);
    expect(boot.locale).toBe('en');
    expect(boot.user).toBeNull();
    expect(boot.messages).toEqual(loadCatalogue('en', 'common'));
    const settings = await callAs(t, null, 'GET', '/api/settings.php?lang=en');
    expect(boot.settings).toEqual(settings.json());
    // The embedded data is a data block: the page's CSP (scripts from 'self' only) stays as it is.
    expect(res.headers['content-security-policy']).toContain("script-src 'self'");
    expect(res.body).not.toMatch(/<script>|<script type="module">[^<]/);
  });

  it('gives a member their own user, as GET user.php answers it, in the language of the path', async () => {
    const res = await page(ann, '/de/members');
    expect(res.statusCode).toBe(200);
    expect(res.headers['cache-control']).toBe('private, no-store');
    const boot = bootOf(res);
    expect(boot.locale).toBe('de');
    expect(res.body).toContain('<html lang="de">');
    expect(boot.messages).toEqual(loadCatalogue('de', 'common'));
    const user = await callAs(t, ann, 'GET', '/api/user.php');
    expect(boot.user).toEqual(user.json().user);
    expect(boot.user?.profile.name).toBe('Ann</script><!--&>');
    expect((await callAs(t, ann, 'GET', '/api/settings.php?lang=de')).json()).toEqual(boot.settings);
  });

  it('never shows one member the data of another, and a visitor nobody', async () => {
    const asAnn = await page(ann, '/members');
    const asBob = await page(bob, '/members');
    const asVisitor = await page(null, '/members');
    expect(bootOf(asAnn).user?.id).toBe(ann.userId);
    expect(bootOf(asBob).user?.id).toBe(bob.userId);
    expect(bootOf(asVisitor).user).toBeNull();
    for (const [res, others] of [
      [asAnn, [bob]],
      [asBob, [ann]],
      [asVisitor, [ann, bob]],
    ] as const) {
      for (const other of others) {
        expect(res.body).not.toContain(other.email);
        expect(res.body).not.toContain(scriptSafeJson(JSON.stringify(other.name)));
      }
    }
  });

  it('escapes what could end the data block: no </script>, <!-- or & as written', async () => {
    const res = await page(ann, '/members');
    const block = BLOCK.exec(res.body)?.[1] ?? '';
    expect(block).not.toMatch(/[<>&\u2028\u2029]/);
    expect(block).toContain('Ann\\u003c/script\\u003e\\u003c!--\\u0026\\u003e');
    // One data block, and the page after it intact.
    expect(res.body.match(/<script/g)?.length).toBe((INDEX_HTML.match(/<script/g)?.length ?? 0) + 1);
    expect(res.body).toContain('<div id="root"></div>');
    const text = '"x</script><script>alert(1)</script>\u2028\u2029&<!--"';
    const safe = scriptSafeJson(text);
    expect(safe).not.toMatch(/[<>&\u2028\u2029]/);
    expect(JSON.parse(safe)).toBe(JSON.parse(text));
  });

  it("keeps a member's text as written where it would mean something to a string replacement ($&, $')", async () => {
    const dollar = await createMember(t, { name: "Jo $& $' $`" });
    const res = await page(dollar, '/members');
    expect(bootOf(res).user?.profile.name).toBe("Jo $& $' $`");
    expect(res.body.match(/<\/head>/g)?.length).toBe(1);
  });

  it('gives a session of another site nobody', async () => {
    const res = await page(ann, '/', { host: HERZ });
    expect(bootOf(res).user).toBeNull();
    expect(res.body).not.toContain(ann.email);
  });

  it('picks the language the app will show: the remembered one on a path without a prefix, first the domain language', async () => {
    // Herzklopfen's domain language is German: a first visit gets the German page and the language cookie.
    const first = await page(null, '/members', { host: HERZ });
    expect(bootOf(first).locale).toBe('de');
    expect(first.body).toContain('<html lang="de">');
    expect(first.cookies.find((c) => c.name === 'i18n_redirected')?.value).toBe('de');
    // A remembered language of the site wins; one the site does not offer does not.
    expect(bootOf(await page(null, '/members', { host: HERZ, cookie: 'i18n_redirected=fr' })).locale).toBe('fr');
    expect(bootOf(await page(null, '/members', { host: HERZ, cookie: 'i18n_redirected=sv' })).locale).toBe('en');
    // A prefix decides.
    expect(bootOf(await page(null, '/nl/members', { host: HERZ, cookie: 'i18n_redirected=fr' })).locale).toBe('nl');
    expect(bootOf(await page(null, '/', { host: AMORA })).locale).toBe('en');
    // A lander slug names its language: the remembered one does not move it (the page would go back and forth).
    const lander = await page(null, '/landers/video/eng', { host: AMORA, cookie: 'i18n_redirected=fr' });
    expect(lander.statusCode).toBe(200);
    expect(bootOf(lander).locale).toBe('en');
    expect(bootOf(await page(null, '/landers/video', { host: AMORA, cookie: 'i18n_redirected=fr' })).locale).toBe('fr');
  });

  it('keeps the traffic source of the page address, as settings.php would', async () => {
    const res = await page(null, '/?network=abc&sub1=x');
    expect(bootOf(res).settings.is_trafficsource).toBe(true);
    expect(res.cookies.some((c) => c.name === 'tracking')).toBe(true);
    // A lander's too.
    const lander = await page(null, '/landers/video/eng?network=abc&sub2=y', { host: AMORA });
    expect(bootOf(lander).settings.is_trafficsource).toBe(true);
    expect(JSON.parse(decodeURIComponent(lander.cookies.find((c) => c.name === 'tracking')?.value ?? '{}'))).toEqual({
      network: 'abc',
      sub2: 'y',
    });
  });

  it('a query value with a control character is left out, as settings.php leaves it: the page comes with its data', async () => {
    const res = await page(null, `/members?lb=${'x'.repeat(3)}%00`);
    expect(res.statusCode).toBe(200);
    expect(res.body).toContain(BOOT_DATA_ID);
    expect(bootOf(res).settings.name).toBe('Amora');
  });

  it('is compressed for the browser that accepts it', async () => {
    const plain = await page(ann, '/members');
    const br = await callAs(t, ann, 'GET', '/members', undefined, { client: false, headers: { 'accept-encoding': 'gzip, deflate, br' } });
    expect(br.headers['content-encoding']).toBe('br');
    expect(br.headers.vary).toMatch(/accept-encoding/i);
    expect(brotliDecompressSync(br.rawPayload).toString()).toBe(plain.body);
    const gz = await callAs(t, ann, 'GET', '/members', undefined, { client: false, headers: { 'accept-encoding': 'gzip' } });
    expect(gz.headers['content-encoding']).toBe('gzip');
    expect(gunzipSync(gz.rawPayload).toString()).toBe(plain.body);
  });
});

describe('preloads from the build manifest', () => {
  it('names the member parts of the shell by a module that exists', () => {
    expect(() => readFileSync(join(WEB, MEMBER_SHELL_SOURCE))).not.toThrow();
  });

  it('preloads the page chunk the entry does not load, and the Latin text font', () => {
    const dist = mkdtempSync(join(tmpdir(), 'amora-manifest-'));
    try {
      mkdirSync(join(dist, '.vite'));
      const manifest = {
        'index.html': {
          file: 'assets/index-1.js',
          isEntry: true,
          imports: ['_shared.js'],
          assets: ['assets/font-latin-wght-normal-1.woff2', 'assets/font-latin-ext-wght-normal-1.woff2'],
        },
        '_shared.js': { file: 'assets/shared-1.js' },
        '_cards.js': { file: 'assets/cards-1.js', imports: ['_shared.js'] },
        'src/features/members/members-page.tsx': {
          file: 'assets/members-page-1.js',
          src: 'src/features/members/members-page.tsx',
          isDynamicEntry: true,
          imports: ['_shared.js', '_cards.js'],
          css: ['assets/members-1.css'],
        },
      };
      writeFileSync(join(dist, '.vite', 'manifest.json'), JSON.stringify(manifest));
      // The route → page module map the web build writes (apps/web/vite-plugins/route-modules.ts).
      writeFileSync(join(dist, ROUTE_MODULES_FILE), JSON.stringify({ members: 'src/features/members/members-page.tsx' }));
      const links = routePreloads(dist);
      const members = links('/de/members');
      expect(members).toContain('<link rel="modulepreload" crossorigin href="/assets/members-page-1.js">');
      expect(members).toContain('href="/assets/cards-1.js"');
      expect(members).not.toContain('shared-1.js');
      expect(members).toContain('<link rel="stylesheet" crossorigin href="/assets/members-1.css">');
      expect(members).toContain(
        '<link rel="preload" href="/assets/font-latin-wght-normal-1.woff2" as="font" type="font/woff2" crossorigin>',
      );
      expect(members).not.toContain('latin-ext');
      expect(links('/')).not.toContain('modulepreload');
      expect(links('/members/12')).not.toContain('members-page');
    } finally {
      rmSync(dist, { recursive: true, force: true });
    }
  });

  it("preloads the member parts of the shell with a member's page only, each chunk once", () => {
    const dist = mkdtempSync(join(tmpdir(), 'amora-manifest-'));
    try {
      mkdirSync(join(dist, '.vite'));
      const manifest = {
        'index.html': { file: 'assets/index-1.js', isEntry: true, imports: [] },
        'src/app/start.tsx': { file: 'assets/start-1.js', src: 'src/app/start.tsx', isDynamicEntry: true, css: ['assets/start-1.css'] },
        '_chat.js': { file: 'assets/chat-1.js', imports: ['src/app/start.tsx'] },
        [MEMBER_SHELL_SOURCE]: {
          file: 'assets/member-shell-1.js',
          src: MEMBER_SHELL_SOURCE,
          isDynamicEntry: true,
          imports: ['src/app/start.tsx', '_chat.js'],
          css: ['assets/member-shell-1.css', 'assets/start-1.css'],
        },
        'src/features/members/members-page.tsx': {
          file: 'assets/members-page-1.js',
          src: 'src/features/members/members-page.tsx',
          isDynamicEntry: true,
          imports: ['src/app/start.tsx', '_chat.js'],
        },
      };
      writeFileSync(join(dist, '.vite', 'manifest.json'), JSON.stringify(manifest));
      // The route → page module map the web build writes (apps/web/vite-plugins/route-modules.ts).
      writeFileSync(join(dist, ROUTE_MODULES_FILE), JSON.stringify({ members: 'src/features/members/members-page.tsx' }));
      const links = routePreloads(dist);
      expect(links('/')).not.toContain('member-shell');
      expect(links('/members')).not.toContain('member-shell');
      expect(links('/members')).toContain('href="/assets/chat-1.js"');
      const member = links('/de/members', true);
      expect(member).toContain('<link rel="modulepreload" crossorigin href="/assets/member-shell-1.js">');
      expect(member).toContain('<link rel="stylesheet" crossorigin href="/assets/member-shell-1.css">');
      expect(member).toContain('href="/assets/members-page-1.js"');
      expect(member.match(/chat-1\.js/g)).toHaveLength(1);
      expect(member.match(/start-1\.css/g)).toHaveLength(1);
      expect(member.match(/start-1\.js/g)).toHaveLength(1);
    } finally {
      rmSync(dist, { recursive: true, force: true });
    }
  });
});

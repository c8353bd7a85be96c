import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ENTRY_WARNING_STORAGE_KEY } from '@amora/contracts';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { callAs, createMember, type Member } from '../test/factories';
import { createTestApp, type TestApp } from '../test/harness';
import { prerenderer, withPrerendered } from './prerender';

/** The web app's own index.html, as the build copies it. */
const INDEX_HTML = readFileSync(join(import.meta.dirname, '..', '..', '..', 'web', 'index.html'), 'utf8');

/**
 * A stand-in for the web build's server render (dist/ssr/entry-server.js; the real one is tested in the browser,
 * e2e/tests/prerender.spec.ts): it answers what it was given, counts its calls in a file, and fails in Polish and
 * Danish.
 */
const FAKE_RENDER = `
import { readFileSync, writeFileSync } from 'node:fs';
const calls = new URL('./calls.txt', import.meta.url);
export async function prerender(input) {
  let n = 0;
  try { n = Number(readFileSync(calls, 'utf8')); } catch {}
  writeFileSync(calls, String(n + 1));
  if (input.locale === 'pl') throw new Error('render failed');
  if (input.locale === 'da') return '<!--$!--><template data-msg="x"></template><!--/$-->';
  return '<link rel="preload" as="image" href="/hero.svg"/><main data-url="' + input.url + '" data-locale="' + input.locale +
    '" data-site="' + input.settings.name + '" data-cookies="' + input.cookies + '" data-title="' + input.messages.nav.login + '"></main>';
}
// The member pages whose route declares its data (the real one reads apps/web's route table).
export function rendersForMember(url, locale) {
  const path = url.split('?')[0].replace(/^[/][a-z][a-z](?=[/]|$)/, '');
  return path === '/members' || path === '/swipe-game' || path.startsWith('/members/');
}
const asClient = { method: 'GET', headers: { 'x-request-type': 'client' } };
export async function prerenderMember(input) {
  if (input.url.startsWith('/members/0')) return null;
  const member = new URL(input.url, 'http://x').searchParams.get('look');
  const answer = await input.api(member ? '/api/member.php?id=' + member : '/api/likes.php', asClient);
  const refused = [];
  for (const [path, init] of [['/api/logout.php', asClient], ['/api/auto-like.php', asClient], ['/api/likes.php', { ...asClient, method: 'POST' }]]) {
    await input.api(path, init).then(() => {}, () => refused.push(path + ' ' + init.method));
  }
  return {
    html: '<main data-url="' + input.url + '" data-user="' + input.user.id + '" data-phone="' + input.phone + '" data-cookies="' + input.cookies + '" data-refused="' + refused.join(',') + '"></main>',
    queries: { mutations: [], queries: [{ queryKey: ['answer'], state: { status: answer.status, data: await answer.text() } }] },
  };
}
`;

let t: TestApp;
let webDist: string;
let ann: Member;
const calls = () => Number(readFileSync(join(webDist, 'ssr', 'calls.txt'), 'utf8'));
beforeAll(async () => {
  webDist = mkdtempSync(join(tmpdir(), 'amora-web-'));
  writeFileSync(join(webDist, 'index.html'), INDEX_HTML);
  mkdirSync(join(webDist, 'ssr'));
  writeFileSync(join(webDist, 'ssr', 'entry-server.js'), FAKE_RENDER);
  t = await createTestApp({ webDist });
  ann = await createMember(t);
});
afterAll(async () => {
  await t?.close();
  rmSync(webDist, { recursive: true, force: true });
});
beforeEach(() => writeFileSync(join(webDist, 'ssr', 'calls.txt'), '0'));

const page = (who: Member | null, url: string, options: { host?: string; cookie?: string; headers?: Record<string, string> } = {}) =>
  callAs(t, who, 'GET', url, undefined, { client: false, ...options });
const root = (body: string) => /<div id="root">(.*?)<\/div>\s*<\/body>/s.exec(body)?.[1] ?? body.match(/<div id="root">.*?<\/div>/s)?.[0];

describe('withPrerendered', () => {
  it("leaves the app's code to the entry: no module preload, the styles and the font kept", () => {
    const template =
      '<html><head><script type="module" crossorigin src="/assets/index.js"></script><link rel="stylesheet" href="/assets/index.css">' +
      '<link rel="stylesheet" crossorigin href="/assets/app.css"><link rel="modulepreload" crossorigin href="/assets/start.js">' +
      '<link rel="modulepreload" crossorigin href="/assets/query.js"><link rel="preload" href="/assets/font.woff2" as="font" type="font/woff2" crossorigin>' +
      '</head><body><div id="root"></div></body></html>';
    const out = withPrerendered(template, '<main>Hi</main>');
    expect(out).not.toContain('modulepreload');
    expect(out).toContain('<link rel="stylesheet" crossorigin href="/assets/app.css">');
    expect(out).toContain('as="font"');
    expect(out).toContain('<script type="module" fetchpriority="low" crossorigin src="/assets/index.js">');
    expect(out).toContain('<div id="root"><main>Hi</main></div>');
  });
});

describe("a visitor's landing page comes rendered", () => {
  it('puts the render into the root element, its hints into the head, and lowers the scripts behind the first paint', async () => {
    const res = await page(null, '/');
    expect(res.statusCode).toBe(200);
    expect(res.body).toContain(
      '<div id="root"><main data-url="/" data-locale="en" data-site="Amora" data-cookies="" data-title="Log in"></main></div>',
    );
    const head = res.body.slice(0, res.body.indexOf('</head>'));
    expect(head).toContain('<link rel="preload" as="image" href="/hero.svg"/>');
    expect(root(res.body)).not.toContain('<link');
    expect(res.body).toMatch(/<script type="module" fetchpriority="low" /);
    expect(res.body).not.toMatch(/<script type="module" (?!fetchpriority)/);
    // The app's code is fetched after the first paint, by the entry: no preload of it competes with the paint.
    expect(res.body).not.toContain('rel="modulepreload"');
    // The page still carries its data block: the app hydrates from the same data.
    expect(res.body).toContain('<script type="application/json" id="boot-data">');
  });

  it('renders in the language of the path, and an unprefixed path in the remembered language at its prefixed address', async () => {
    expect((await page(null, '/de')).body).toContain('data-url="/de" data-locale="de"');
    expect((await page(null, '/', { cookie: 'i18n_redirected=fr' })).body).toContain('data-url="/fr" data-locale="fr"');
  });

  it('passes the entry warning dismissal on, and nothing else of the cookies', async () => {
    const res = await page(null, '/', { cookie: `${ENTRY_WARNING_STORAGE_KEY}=1; tracking=abc; other=x` });
    expect(res.body).toContain(`data-cookies="${ENTRY_WARNING_STORAGE_KEY}=1"`);
    // Only whether it is there: a made-up value is the same render.
    const other = await page(null, '/', { cookie: `${ENTRY_WARNING_STORAGE_KEY}=${Date.now()}` });
    expect(other.body).toContain(`data-cookies="${ENTRY_WARNING_STORAGE_KEY}=1"`);
  });

  it('renders each address, language, dismissal and settings once, then answers from memory', async () => {
    await page(null, '/it');
    await page(null, '/it');
    await page(null, '/it', { cookie: `${ENTRY_WARNING_STORAGE_KEY}=1` });
    await page(null, '/es');
    await page(null, '/es/');
    expect(calls()).toBe(3);
  });

  it('renders the page without its query: made-up queries cost no render each', async () => {
    await page(null, '/sv');
    for (let i = 0; i < 5; i++) expect((await page(null, `/sv?x=${i}`)).body).toContain('data-url="/sv"');
    expect(calls()).toBe(1);
  });

  it('leaves members, other pages and pages of a refused query to the browser', async () => {
    const asMember = await page(ann, '/login');
    expect(asMember.body).toContain('<div id="root"></div>');
    expect((await page(null, '/login')).body).toContain('<div id="root"></div>');
    expect((await page(null, '/members')).body).toContain('<div id="root"></div>');
    expect(calls()).toBe(0);
  });

  it('renders a page whose link carries a control character in its query: the value is left out, not the page', async () => {
    for (const url of ['/sv?ref=%01', `/sv?lb=${'x'.repeat(3)}%00&sub1=a%01b`]) {
      const res = await page(null, url);
      expect(res.statusCode, url).toBe(200);
      expect(res.body, url).toContain('data-url="/sv"');
      expect(res.body, url).toContain('<script type="application/json" id="boot-data">');
      expect(
        res.cookies.find((c) => c.name === 'tracking'),
        url,
      ).toBeUndefined();
    }
  });

  it('serves the page as before when the render throws or React gave up on it', async () => {
    // The stand-in fails in Polish and gives up in Danish.
    for (const url of ['/pl', '/da']) {
      const res = await page(null, url);
      expect(res.statusCode, url).toBe(200);
      expect(res.body, url).toContain('<div id="root"></div>');
      expect(res.body, url).not.toContain('fetchpriority="low"');
    }
  });

  it('never serves the server render itself', async () => {
    for (const url of ['/ssr/entry-server.js', '/ssr/calls.txt']) {
      const res = await page(null, url);
      expect(res.body, url).not.toContain('prerender');
      expect(res.headers['content-type'], url).toContain('text/html');
    }
  });
});

describe('prerenderer', () => {
  const input = (url: string) => ({
    url,
    locale: 'en' as const,
    settingsJson: '{"name":"Amora"}',
    messages: { nav: { login: 'Log in' } },
    cookies: '',
  });
  const silent = { warn() {} } as unknown as Parameters<typeof prerenderer>[1];

  it('renders a kept page again after ten minutes (the year in the footer, a render that failed)', async () => {
    let clock = 1_000_000;
    const render = prerenderer(webDist, silent, () => clock);
    const before = calls();
    await render?.(input('/ttl'));
    clock += 9 * 60_000;
    await render?.(input('/ttl'));
    expect(calls() - before).toBe(1);
    clock += 2 * 60_000;
    await render?.(input('/ttl'));
    expect(calls() - before).toBe(2);
  });

  it('renders at most 20 pages it does not keep yet per second; beyond that the page goes out unrendered', async () => {
    let clock = 5_000_000;
    const render = prerenderer(webDist, silent, () => clock);
    const before = calls();
    const answers = [];
    for (let i = 0; i < 25; i++) answers.push(await render?.(input(`/budget-${i}`)));
    expect(answers.filter((html) => html === null)).toHaveLength(5);
    expect(calls() - before).toBe(20);
    // Kept pages cost nothing and are answered whatever the budget; the next second has a new one.
    expect(await render?.(input('/budget-0'))).toContain('data-url="/budget-0"');
    clock += 1_000;
    expect(await render?.(input('/budget-24'))).toContain('data-url="/budget-24"');
  });
});

describe('withPrerendered', () => {
  it('moves only the leading hints, and keeps the rest of the render as it is', () => {
    const html = '<link rel="preload" as="image" href="/a.svg"/><main><link rel="x" href="/b"/></main>';
    const out = withPrerendered(INDEX_HTML, html);
    expect(out).toContain('<link rel="preload" as="image" href="/a.svg"/></head>');
    expect(out).toContain('<div id="root"><main><link rel="x" href="/b"/></main></div>');
  });
});

describe("a member's search, profile and swipe game come rendered with the answers they show", () => {
  const answersOf = (body: string) => {
    const block = /<script type="application\/json" id="boot-queries">(.*?)<\/script>/s.exec(body)?.[1];
    return block
      ? (JSON.parse(block) as { state: { queries: { state: { status: number; data: string } }[] } }).state.queries[0].state
      : null;
  };

  it("renders the member's own page from the API as it answers them, and sends the answers with it", async () => {
    for (const url of ['/members', '/members?gender=woman', '/swipe-game', `/members/${ann.profileId}`]) {
      const res = await page(ann, url);
      expect(res.statusCode, url).toBe(200);
      expect(res.headers['cache-control'], url).toBe('private, no-store');
      expect(root(res.body), url).toContain(`data-user="${ann.userId}"`);
      expect(answersOf(res.body), url).toMatchObject({ status: 200 });
    }
    // The search's filters are part of what is rendered.
    expect((await page(ann, '/members?gender=woman')).body).toContain('data-url="/members?gender=woman"');
  });

  it('reaches the API only for reads that change nothing: no logout, no auto-like, no write', async () => {
    const res = await page(ann, '/members');
    expect(root(res.body)).toContain('data-refused="/api/logout.php GET,/api/auto-like.php GET,/api/likes.php POST"');
    // Still logged in.
    expect((await callAs(t, ann, 'GET', '/api/user.php')).json().user.id).toBe(ann.userId);
  });

  it("answers as the member whose page it is: another member's hidden profile stays hidden", async () => {
    const bea = await createMember(t);
    await callAs(t, bea, 'PUT', '/api/profile.php', { is_invisible: true });
    const res = await page(ann, `/members?look=${bea.profileId}`);
    expect(answersOf(res.body)).toMatchObject({ status: 404 });
    expect(res.body).not.toContain(bea.name);
  });

  it('passes on the banners the member dismissed, and nothing else of the cookies', async () => {
    const res = await page(ann, '/swipe-game', {
      cookie: `${ann.cookie}; hide-enrich-alert=1; hide-welcome-discount-banner=17; tracking=abc; ${ENTRY_WARNING_STORAGE_KEY}=1; tz=Europe/Amsterdam`,
    });
    expect(root(res.body)).toContain(
      `data-cookies="${ENTRY_WARNING_STORAGE_KEY}=1; hide-enrich-alert=1; hide-welcome-discount-banner=1; tz=Europe/Amsterdam"`,
    );
    // A time zone that is no name is not passed on.
    const odd = await page(ann, '/swipe-game', { cookie: `${ann.cookie}; tz=${encodeURIComponent('x;y=<z>')}` });
    expect(root(odd.body)).toContain('data-cookies=""');
  });

  it('renders the phone layout for a phone (client hint, else user agent)', async () => {
    // A second of its own: the tests above used this second's renders (PRERENDERS_PER_SECOND).
    await new Promise((resolve) => setTimeout(resolve, 1_000));
    const phone = (headers: Record<string, string>) =>
      page(ann, '/members', { headers }).then((res) => /data-phone="(\w+)"/.exec(res.body)?.[1]);
    expect(await phone({ 'sec-ch-ua-mobile': '?1' })).toBe('true');
    // The page tells the app which layout it was rendered for.
    expect((await page(ann, '/members', { headers: { 'sec-ch-ua-mobile': '?1' } })).body).toMatch(
      /id="boot-queries">\{"phone":true,"state":/,
    );
    expect(await phone({ 'sec-ch-ua-mobile': '?0', 'user-agent': 'Mozilla/5.0 (iPhone; CPU iPhone OS 18_0 like Mac OS X)' })).toBe('false');
    expect(await phone({ 'user-agent': 'Mozilla/5.0 (iPhone; CPU iPhone OS 18_0 like Mac OS X) Mobile/15E148' })).toBe('true');
    expect(await phone({ 'user-agent': 'Mozilla/5.0 (X11; Linux x86_64) Chrome/130.0' })).toBe('false');
  });

  it("leaves a member's other pages, a visitor on those pages and a render that gives up to the browser", async () => {
    for (const url of ['/likes', '/profile', '/settings']) expect(root((await page(ann, url)).body), url).not.toContain('data-user');
    expect((await page(null, '/swipe-game')).body).not.toContain('boot-queries');
    const gaveUp = await page(ann, '/members/0');
    expect(gaveUp.body).toContain('<div id="root"></div>');
    expect(gaveUp.body).not.toContain('boot-queries');
  });
});

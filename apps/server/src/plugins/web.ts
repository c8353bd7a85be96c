import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { brotliCompressSync, gzipSync, constants as zlib } from 'node:zlib';
import {
  BOOT_QUERIES_ID,
  isLanderSlug,
  LANDERS,
  LIKES_TYPES,
  LOCALES,
  type Locale,
  ROUTES,
  ROUTES_WITHOUT_PAGE,
  STATIC_PAGES,
  splitLocalePath,
  TOKEN_PAGES,
} from '@amora/contracts';
import { translate } from '@amora/i18n';
import fastifyStatic from '@fastify/static';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { scriptSafeJson as scriptSafe } from '../lib/script-json';
import type { MemberPrerenderRequest, PageData, PrerenderRequest } from '../lib/served-page';

/** A route pattern of the contracts (`/members/:id`, `/landers/:name/:slug?`) as a regular expression. */
function patternOf(pattern: string): RegExp {
  return new RegExp(
    `^${pattern
      .replace(/\/:[a-z]+\?/g, '(?:/[^/]+)?')
      .replace(/:[a-z]+/g, '[^/]+')
      .replace(/\//g, '\\/')}\\/?$`,
  );
}

/** Routes whose parameter takes only some values (the app shows its not-found page for any other). */
const CHECKED_ROUTES: (keyof typeof ROUTES)[] = ['likes-type', ...ROUTES_WITHOUT_PAGE];

const knownPatterns: RegExp[] = [
  ...Object.entries(ROUTES)
    .filter(([name]) => name !== 'token' && !name.startsWith('pages-') && !CHECKED_ROUTES.includes(name as keyof typeof ROUTES))
    .map(([, pattern]) => pattern),
  ...Object.keys(STATIC_PAGES).map((page) => `/pages/${page}`),
  ...TOKEN_PAGES.map((token) => `/${token}`),
  ...LIKES_TYPES.map((type) => `/likes/${type}`),
  '/landers/tinderswipe',
  ...LANDERS.map((lander) => `/landers/${lander}`),
].map(patternOf);

/** A lander with a slug: `/landers/{name}/{slug}`. */
const LANDER_WITH_SLUG = /^\/landers\/([^/]+)\/([^/]+)\/?$/;

/**
 * Whether the SPA has a page at this path (spec §2: a route the app has built, a static or token page, a lander
 * with no slug or an existing one); anything else is served the app's not-found page with status 404.
 */
export function isKnownPage(path: string): boolean {
  const { rest } = splitLocalePath(path);
  const lander = LANDER_WITH_SLUG.exec(rest);
  if (lander) return (LANDERS as readonly string[]).includes(lander[1]) && isLanderSlug(lander[2]);
  return knownPatterns.some((re) => re.test(rest));
}

const escapeHtml = (value: string) => value.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);

/**
 * index.html in one language: `<html lang>` and the text shown to a browser without JavaScript, which never
 * gets to load the app's catalogue.
 */
export function localizedIndex(template: string, locale: Locale): string {
  return template
    .replace('<html lang="en">', `<html lang="${locale}">`)
    .replace(/<noscript>[^<]*<\/noscript>/, () => `<noscript>${escapeHtml(translate(locale, 'errors.noScript'))}</noscript>`);
}

/**
 * Serves the built web app: hashed assets with a year of caching, compressed at build time, and index.html
 * (in the language of the path's locale prefix) for every page route. Unknown API paths get JSON 404s.
 */
export async function registerWeb(app: FastifyInstance, options: { pageData?: PageData } = {}): Promise<void> {
  const dist = app.ctx.config.webDist;
  const indexPath = join(dist, 'index.html');
  const hasBuild = existsSync(indexPath);
  if (hasBuild) {
    await app.register(fastifyStatic, {
      root: dist,
      prefix: '/',
      wildcard: false,
      index: false,
      // The web build writes .br and .gz copies of its text files (apps/web/vite-plugins/precompress.ts);
      // each browser gets the smallest one it accepts, with Vary: Accept-Encoding, or the file itself.
      preCompressed: true,
      // dist/ssr is the server's own render of the pages, not for the browser.
      allowedPath: (pathName) => !pathName.startsWith('/ssr/'),
      // @fastify/static 10 passes the Fastify reply here, not the raw response.
      setHeaders(reply, path) {
        reply.header('cache-control', path.includes('/assets/') ? 'public, max-age=31536000, immutable' : 'public, max-age=3600');
      },
    });
  }
  const template = hasBuild ? readFileSync(indexPath, 'utf8') : null;
  const pages = template ? new Map(LOCALES.map((locale) => [locale, localizedIndex(template, locale)])) : null;

  const pageData: PageData = options.pageData ?? (async (_request, _reply, path) => ({ locale: splitLocalePath(path).locale, script: '' }));
  const preloads = template ? routePreloads(dist) : null;
  const prerender = template ? prerenderer(dist, app.log) : null;

  app.setNotFoundHandler(async (request, reply) => {
    const path = request.url.split('?')[0];
    if (path.startsWith('/api/') || path === '/api' || (request.method !== 'GET' && request.method !== 'HEAD')) {
      return reply.status(404).send({ error: 'not_found', message: 'This page could not be found' });
    }
    if (!pages) {
      return reply
        .status(503)
        .type('text/plain; charset=utf-8')
        .send('The web app is not built yet. Run `npm run build` (or `npm start`, which builds it).');
    }
    const boot = await pageData(request, reply, path);
    // A function as the replacement: the data holds members' text, where `$&` or `$'` must stay as written.
    let page = (pages.get(boot.locale) as string).replace('</head>', () => `${preloads?.(path, boot.member) ?? ''}${boot.script}</head>`);
    if (boot.prerender && prerender && boot.script) {
      const name = routeNameOf(path);
      if (boot.prerender.member) {
        const rendered = name && MEMBER_PRERENDERED_ROUTES.has(name) ? await prerender.member(boot.prerender) : null;
        if (rendered) page = withPrerendered(page, rendered.html, rendered.queries);
      } else {
        const html = name && PRERENDERED_ROUTES.has(name) ? await prerender(boot.prerender) : null;
        if (html) page = withPrerendered(page, html);
      }
    }
    // The page carries the visitor's settings, session and language: never stored by a cache, not even the browser's.
    reply
      .status(isKnownPage(path) ? 200 : 404)
      .header('cache-control', 'private, no-store')
      .type('text/html; charset=utf-8');
    return sendCompressed(request, reply, page);
  });
}

/** The web app's code behind its small entry script (main.tsx imports it after the first paint). */
export const APP_SOURCE = 'src/app/start.tsx';

/**
 * What only a member's pages show (apps/web/src/app/shell/member-shell.tsx: the members' navigation, banners, chat
 * and likes in the background): a chunk of its own, which a visitor's page does not load and a member's page
 * preloads; the app's boot waits for it on a member's page.
 */
export const MEMBER_SHELL_SOURCE = 'src/app/shell/member-shell.tsx';

/**
 * The lazy page module of the most visited pages (apps/web/src/app/routes.tsx), by route name: the page's
 * chunk is preloaded with the HTML instead of being asked for after the entry script ran.
 */
export const ROUTE_PAGE_SOURCES: Partial<Record<keyof typeof ROUTES, string>> = {
  members: 'src/features/members/members-page.tsx',
  'members-id': 'src/app/pages/member-page.tsx',
  'likes-m-id': 'src/app/pages/member-page.tsx',
  likes: 'src/features/likes/pages/likes-page.tsx',
  'likes-type': 'src/features/likes/pages/likes-page.tsx',
  'swipe-game': 'src/features/swipe-game/swipe-game-page.tsx',
  'match-finder': 'src/features/match-finder/match-finder-page.tsx',
  profile: 'src/features/profiles/pages/own-profile-page.tsx',
  login: 'src/features/auth/pages/login-page.tsx',
  settings: 'src/features/auth/pages/settings-page.tsx',
};

interface ManifestChunk {
  file: string;
  src?: string;
  isEntry?: boolean;
  imports?: string[];
  css?: string[];
  assets?: string[];
}

/**
 * The preload links of a page, from the build's manifest (apps/web/dist/.vite/manifest.json): the text font's
 * file (the Latin subset, which every language of ours needs first), on a member's page the member parts of the
 * shell (MEMBER_SHELL_SOURCE) and, on a page of ROUTE_PAGE_SOURCES, the page's chunk with the chunks it imports
 * that the entry does not already load. No manifest, no links.
 */
export function routePreloads(dist: string): (path: string, member?: boolean) => string {
  const manifestPath = join(dist, '.vite', 'manifest.json');
  if (!existsSync(manifestPath)) return () => '';
  const manifest = JSON.parse(readFileSync(manifestPath, 'utf8')) as Record<string, ManifestChunk>;
  const entry = Object.values(manifest).find((chunk) => chunk.isEntry);
  const loaded = new Set<string>();
  const walk = (key: string, into: Set<string>) => {
    const chunk = manifest[key];
    if (!chunk || into.has(chunk.file)) return;
    into.add(chunk.file);
    for (const imported of chunk.imports ?? []) walk(imported, into);
  };
  for (const [key, chunk] of Object.entries(manifest)) if (chunk === entry) walk(key, loaded);
  const fonts = [...new Set(Object.values(manifest).flatMap((chunk) => chunk.assets ?? []))].filter((file) =>
    /-latin-(?!ext)[^/]*\.woff2$/.test(file),
  );
  // The app itself (apps/web/src/app/start.tsx), which the small entry imports: fetched with the page, its styles
  // before the first paint, as if the entry imported it.
  const appKey = Object.keys(manifest).find((k) => manifest[k].src === APP_SOURCE);
  const appFiles = new Set<string>();
  if (appKey) walk(appKey, appFiles);
  const entryCss = new Set(entry?.css ?? []);
  const appCss = new Set<string>();
  for (const key of Object.keys(manifest))
    if (appFiles.has(manifest[key].file)) for (const css of manifest[key].css ?? []) if (!entryCss.has(css)) appCss.add(css);
  const appLinks = [...appCss]
    .map((file) => `<link rel="stylesheet" crossorigin href="/${file}">`)
    .concat([...appFiles].filter((file) => !loaded.has(file)).map((file) => `<link rel="modulepreload" crossorigin href="/${file}">`))
    .join('');
  for (const file of appFiles) loaded.add(file);
  const fontLinks = appLinks + fonts.map((file) => `<link rel="preload" href="/${file}" as="font" type="font/woff2" crossorigin>`).join('');
  const loadedCss = new Set([...entryCss, ...appCss]);
  /** A lazy module's chunk, the chunks it imports and its styles, less what every page already loads. */
  const linksOf = (source: string, except: Set<string> = new Set()) => {
    const key = Object.keys(manifest).find((k) => manifest[k].src === source);
    if (!key) return null;
    const files = new Set<string>();
    walk(key, files);
    return [...files]
      .filter((file) => !loaded.has(file) && !except.has(file))
      .map((file) => `<link rel="modulepreload" crossorigin href="/${file}">`)
      .concat(
        (manifest[key].css ?? [])
          .filter((file) => !loadedCss.has(file))
          .map((file) => `<link rel="stylesheet" crossorigin href="/${file}">`),
      )
      .join('');
  };
  const memberFiles = new Set<string>();
  const memberKey = Object.keys(manifest).find((k) => manifest[k].src === MEMBER_SHELL_SOURCE);
  if (memberKey) walk(memberKey, memberFiles);
  const memberLinks = linksOf(MEMBER_SHELL_SOURCE) ?? '';
  const byRoute = Object.entries(ROUTE_PAGE_SOURCES).flatMap(([name, source]) => {
    const pattern = patternOf(ROUTES[name as keyof typeof ROUTES]);
    const links = linksOf(source);
    // On a member's page the member parts' chunks are linked already.
    const memberPageLinks = linksOf(source, memberFiles);
    return links === null || memberPageLinks === null ? [] : [{ pattern, links, memberPageLinks }];
  });
  return (path, member = false) => {
    const { rest } = splitLocalePath(path);
    const route = byRoute.find((r) => r.pattern.test(rest));
    if (!member) return fontLinks + (route?.links ?? '');
    return fontLinks + memberLinks + (route?.memberPageLinks ?? '');
  };
}

/** The pages rendered on the server for visitors, by route name: the landing page, where a visitor arrives first. */
export const PRERENDERED_ROUTES: ReadonlySet<keyof typeof ROUTES> = new Set(['index']);

/**
 * The pages rendered on the server for a logged-in member, with the answers they show: the search, a profile and
 * the swipe game, where members spend their visits. Never kept: each is that member's own.
 */
export const MEMBER_PRERENDERED_ROUTES: ReadonlySet<keyof typeof ROUTES> = new Set(['members', 'members-id', 'swipe-game']);

interface PrerenderInput {
  url: string;
  locale: Locale;
  settings: unknown;
  messages: Record<string, unknown>;
  cookies: string;
}
type Prerender = (input: PrerenderInput) => Promise<string | null>;
type PrerenderMember = (input: PrerenderInput & MemberPrerenderRequest) => Promise<{ html: string; queries: unknown } | null>;

/** A rendered member's page: its HTML, and the answers it shows as script-safe JSON for the page. */
export interface RenderedMemberPage {
  html: string;
  queries: string;
}

/** The renderer of visitors' pages, and `member` for members' pages. */
export type Prerenderer = ((input: PrerenderRequest) => Promise<string | null>) & {
  member: (input: PrerenderRequest) => Promise<RenderedMemberPage | null>;
};

/** At most this many rendered first screens are kept (one per address, language and settings). */
const PRERENDER_CACHE_SIZE = 200;
/**
 * How long a render is kept: the page shows the year (the footer's copyright), and a render that failed is tried
 * again after this.
 */
const PRERENDER_TTL_MS = 10 * 60_000;
/** Renders of pages not kept yet, per second at most (each costs ~10–25 ms of this process's time). */
const PRERENDERS_PER_SECOND = 20;

/**
 * The server render of the web build (dist/ssr/entry-server.js, written by the web app's build), loaded at the
 * first page that needs it; its answers are kept per address and settings (a visitor's page is the same for
 * every visitor with the same settings). Null without that file. A render that fails leaves the page as it was
 * (the app renders it in the browser) and is logged once per address.
 */
export function prerenderer(dist: string, log: FastifyInstance['log'], now: () => number = Date.now): Prerenderer | null {
  const entry = join(dist, 'ssr', 'entry-server.js');
  if (!existsSync(entry)) return null;
  let module: Promise<{ prerender: Prerender; prerenderMember?: PrerenderMember }> | null = null;
  const load = () => {
    module ??= import(pathToFileURL(entry).href).catch((error: unknown) => {
      module = null;
      throw error;
    });
    return module;
  };
  const cache = new Map<string, { html: string | null; at: number }>();
  let budget = { second: 0, left: PRERENDERS_PER_SECOND };
  /** Whether a render not kept may run now (PRERENDERS_PER_SECOND): beyond that the browser renders the page. */
  const mayRender = () => {
    const second = Math.floor(now() / 1000);
    if (budget.second !== second) budget = { second, left: PRERENDERS_PER_SECOND };
    if (budget.left <= 0) return false;
    budget.left -= 1;
    return true;
  };
  const member = async (input: PrerenderRequest): Promise<RenderedMemberPage | null> => {
    if (!input.member || !mayRender()) return null;
    try {
      const { prerenderMember } = await load();
      if (!prerenderMember) return null;
      const rendered = await prerenderMember({
        url: input.url,
        locale: input.locale,
        settings: JSON.parse(input.settingsJson),
        messages: input.messages,
        cookies: input.cookies,
        ...input.member,
      });
      if (!rendered) return null;
      // With the layout it was rendered for, which the app's first render must take too.
      return { html: rendered.html, queries: scriptSafe(JSON.stringify({ phone: input.member.phone, state: rendered.queries })) };
    } catch (error) {
      log.warn({ err: error, url: input.url }, "the server render of a member's page failed; it is rendered in the browser");
      return null;
    }
  };
  const visitor = async (input: PrerenderRequest): Promise<string | null> => {
    const key = `${input.url}\n${input.locale}\n${input.cookies}\n${input.settingsJson}`;
    const known = cache.get(key);
    if (known && now() - known.at < PRERENDER_TTL_MS) {
      // Most recently used last.
      cache.delete(key);
      cache.set(key, known);
      return known.html;
    }
    // Renders of pages not kept yet, per second: beyond that the page goes out as before (the browser renders it).
    if (!mayRender()) return null;
    let html: string | null;
    try {
      const render = (await load()).prerender;
      html = await render({
        url: input.url,
        locale: input.locale,
        settings: JSON.parse(input.settingsJson),
        messages: input.messages,
        cookies: input.cookies,
      });
      // React's marker of a part it gave up on: the browser renders that page itself.
      if (html?.includes('<!--$!-->')) {
        log.warn({ url: input.url }, 'the server render of a page failed; it is rendered in the browser');
        html = null;
      }
    } catch (error) {
      log.warn({ err: error, url: input.url }, 'the server render of a page failed; it is rendered in the browser');
      html = null;
    }
    cache.delete(key);
    cache.set(key, { html, at: now() });
    if (cache.size > PRERENDER_CACHE_SIZE) cache.delete(cache.keys().next().value as string);
    return html;
  };
  return Object.assign(visitor, { member });
}

/** The resource hints React writes before a rendered tree (an image's preload): they belong in the head. */
const LEADING_HINTS = /^(?:<link [^>]*\/?>)+/;

const MODULE_PRELOADS = /<link rel="modulepreload" [^>]*>/g;

/**
 * The page with the rendered first screen in its root element and React's hints in its head; on a member's page
 * also the answers it was rendered from (`queries`, script-safe JSON), which the app starts from.
 */
export function withPrerendered(page: string, html: string, queries?: string): string {
  const hints = LEADING_HINTS.exec(html)?.[0] ?? '';
  const answers = queries ? `<script type="application/json" id="${BOOT_QUERIES_ID}">${queries}</script>` : '';
  return (
    page
      .replace('</head>', () => `${hints}</head>`)
      .replace('<div id="root"></div>', () => `<div id="root">${html.slice(hints.length)}</div>${answers}`)
      // The first screen no longer waits for the app's code: the styles, the font and the images go first. The
      // small entry script comes with them; the app's code is asked for by the entry once the page has painted
      // (main.tsx), so on a slow line it does not share the first round trips with what the paint needs.
      .replaceAll('<script type="module" ', '<script type="module" fetchpriority="low" ')
      .replace(MODULE_PRELOADS, '')
  );
}

/** The route name of a page path (any language prefix), if the app has one. */
function routeNameOf(path: string): keyof typeof ROUTES | undefined {
  const { rest } = splitLocalePath(path);
  return routePatterns.find(([, re]) => re.test(rest))?.[0];
}
const routePatterns = (Object.entries(ROUTES) as [keyof typeof ROUTES, string][]).map(
  ([name, pattern]) => [name, patternOf(pattern)] as const,
);

/**
 * The page compressed for the browser (Brotli at a fast level, else gzip): it is made per request, unlike the
 * static files, whose copies the build compressed.
 */
function sendCompressed(request: FastifyRequest, reply: FastifyReply, page: string) {
  const accepts = String(request.headers['accept-encoding'] ?? '');
  reply.header('vary', 'Accept-Encoding');
  if (/\bbr\b/.test(accepts)) {
    return reply.header('content-encoding', 'br').send(brotliCompressSync(page, { params: { [zlib.BROTLI_PARAM_QUALITY]: 5 } }));
  }
  if (/\bgzip\b/.test(accepts)) return reply.header('content-encoding', 'gzip').send(gzipSync(page, { level: 6 }));
  return reply.send(page);
}

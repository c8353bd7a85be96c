import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { BOOT_QUERIES_ID, type Locale, type ROUTES } from '@amora/contracts';
import { loadCatalogue } from '@amora/i18n';
import type { FastifyInstance } from 'fastify';
import { scriptSafeJson as scriptSafe } from '../lib/script-json';
import type { MemberPrerenderRequest, PrerenderRequest } from '../lib/served-page';

// The server's render of the web app's pages (apps/web/src/entry-server.tsx, built to dist/ssr): a visitor's
// landing page, kept per address, and a member's page whose route declares its data, never kept.

/** The pages rendered on the server for visitors, by route name: the landing page, where a visitor arrives first. */
export const PRERENDERED_ROUTES: ReadonlySet<keyof typeof ROUTES> = new Set(['index']);

interface PrerenderInput {
  url: string;
  locale: Locale;
  settings: unknown;
  messages: Record<string, unknown>;
  catalogues?: Record<string, unknown>;
  cookies: string;
}
type Prerender = (input: PrerenderInput) => Promise<string | null>;
type PrerenderMember = (
  input: PrerenderInput & MemberPrerenderRequest,
) => Promise<{ html: string; queries: unknown; undeclared?: string[] } | null>;
type PrerenderLander = (
  input: PrerenderInput & { user: unknown; api: MemberPrerenderRequest['api'] },
) => Promise<{ html: string; queries: unknown } | null>;
/** The render's module (apps/web/src/entry-server.tsx as the web build writes it). */
interface RenderModule {
  prerender: Prerender;
  prerenderMember?: PrerenderMember;
  prerenderLander?: PrerenderLander;
  /** Whether a member's page at this address is rendered: its route declares the data it shows (apps/web's routes.tsx). */
  rendersForMember?: (url: string, locale: Locale) => boolean;
}

/** A rendered member's page: its HTML, and the answers it shows as script-safe JSON for the page. */
interface RenderedMemberPage {
  html: string;
  queries: string;
}

/** A rendered lander: its HTML, and the answers it shows as script-safe JSON (null when it was not rendered). */
interface RenderedLander {
  html: string | null;
  queries: string | null;
}

/** The renderer of visitors' pages, `member` for members' pages and `lander` for the landers' own page. */
export type Prerenderer = ((input: PrerenderRequest) => Promise<string | null>) & {
  member: (input: PrerenderRequest) => Promise<RenderedMemberPage | null>;
  lander: (input: PrerenderRequest, options: { catalogues: Record<string, unknown>; isLoggedIn: boolean }) => Promise<RenderedLander>;
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
  let module: Promise<RenderModule> | null = null;
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
    if (!input.member) return null;
    try {
      const { prerenderMember, rendersForMember } = await load();
      // Only pages whose route declares the data they show; the budget is spent on those alone.
      if (!prerenderMember || !rendersForMember?.(input.url, input.locale) || !mayRender()) return null;
      const rendered = await prerenderMember({
        url: input.url,
        locale: input.locale,
        settings: JSON.parse(input.settingsJson),
        messages: input.messages,
        // A member's pages use the pages' and the payments' words too (the app loads them as it takes the page over).
        catalogues: { pages: loadCatalogue(input.locale, 'pages'), payments: loadCatalogue(input.locale, 'payments') },
        cookies: input.cookies,
        ...input.member,
      });
      if (!rendered) return null;
      // A query the page shows that its route's data did not load: it ships loading (entry-server.test.tsx fails on it).
      if (rendered.undeclared?.length) {
        log.warn({ url: input.url, queries: rendered.undeclared }, "a member's page asked for data its route does not declare");
      }
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
  /**
   * A lander (plugins/lander-pages.ts), for anyone: kept like a visitor's page, per address, language, cookies the
   * page depends on, settings (which carry the visitor's country, which orders the profiles) and whether a member
   * asks; the answers go with it.
   */
  const landerCache = new Map<string, { rendered: RenderedLander; at: number }>();
  const lander = async (
    input: PrerenderRequest,
    { catalogues, isLoggedIn }: { catalogues: Record<string, unknown>; isLoggedIn: boolean },
  ): Promise<RenderedLander> => {
    const none = { html: null, queries: null };
    const key = `${input.url}\n${input.locale}\n${input.cookies}\n${isLoggedIn}\n${input.settingsJson}`;
    const known = landerCache.get(key);
    if (known && now() - known.at < PRERENDER_TTL_MS) {
      landerCache.delete(key);
      landerCache.set(key, known);
      return known.rendered;
    }
    if (!input.api || !mayRender()) return none;
    let rendered: RenderedLander = none;
    try {
      const { prerenderLander } = await load();
      const result = prerenderLander
        ? await prerenderLander({
            url: input.url,
            locale: input.locale,
            settings: JSON.parse(input.settingsJson),
            messages: input.messages,
            catalogues,
            cookies: input.cookies,
            user: input.member?.user ?? null,
            api: input.api,
          })
        : null;
      if (result && !result.html.includes('<!--$!-->')) {
        rendered = { html: result.html, queries: scriptSafe(JSON.stringify(result.queries)) };
      } else if (result) {
        log.warn({ url: input.url }, 'the server render of a lander failed; it is rendered in the browser');
      }
    } catch (error) {
      log.warn({ err: error, url: input.url }, 'the server render of a lander failed; it is rendered in the browser');
    }
    landerCache.delete(key);
    landerCache.set(key, { rendered, at: now() });
    if (landerCache.size > PRERENDER_CACHE_SIZE) landerCache.delete(landerCache.keys().next().value as string);
    return rendered;
  };
  return Object.assign(visitor, { member, lander });
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

import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { LANDER_DATA_ID, type Locale, localizePath, splitLocalePath } from '@amora/contracts';
import { loadCatalogue, translate } from '@amora/i18n';
import type { FastifyRequest } from 'fastify';
import { scriptSafeJson } from '../lib/script-json';
import type { PrerenderRequest } from '../lib/served-page';
import { MEMBER_LANDING_PREFIX, memberLandingLayoutOfPath, memberLandingSource, queryOf } from './member-landing-pages';
import type { Prerenderer } from './prerender';

// The landers' own page (docs/ARCHITECTURE.md, "A lander's path"): /landers/… is served from the web build's
// lander.html (apps/web/src/lander-main.tsx: React, i18next and the lander, nothing of the app's router, query
// cache or Bootstrap), with the lander rendered by the server from its declared data, its design's chunk and styles
// linked from the build manifest, and the landers catalogue and the render's answers in a data block of its own.

/** The web build's lander page and the design modules the server links by a lander's name. */
const LANDER_HTML = 'lander.html';
const designSource = (name: string) =>
  name.startsWith(MEMBER_LANDING_PREFIX)
    ? memberLandingSource(name.slice(MEMBER_LANDING_PREFIX.length))
    : `src/features/landers/designs/${name}.tsx`;

interface ManifestChunk {
  file: string;
  src?: string;
  isEntry?: boolean;
  imports?: string[];
  css?: string[];
}

/** A lander's name from its path (any language prefix): `/landers/tinderswipe`, `/landers/video`, `/landers/video/eng`. */
function landerNameOf(path: string): string | null {
  const match = /^\/landers\/([^/]+)(?:\/[^/]+)?\/?$/.exec(splitLocalePath(path).rest);
  if (match) return match[1];
  // A profile's landing is served as a lander too (member-landing-pages.ts): `member-landing2`.
  const layout = memberLandingLayoutOfPath(path);
  return layout ? `${MEMBER_LANDING_PREFIX}${layout}` : null;
}

export interface LanderPages {
  /** The lander page of `path` for this request: its template in the page's language, filled in. */
  page(
    request: FastifyRequest,
    path: string,
    boot: { locale: Locale; script: string; prerender?: PrerenderRequest; member?: boolean },
  ): Promise<string>;
}

/**
 * The landers' pages from the web build (dist/lander.html and the manifest), or null when the build has none.
 * `localize` puts a template into one language (web.ts localizedIndex).
 */
export function landerPages(
  dist: string,
  prerender: Prerenderer | null,
  localize: (template: string, locale: Locale) => string,
): LanderPages | null {
  const templatePath = join(dist, LANDER_HTML);
  const manifestPath = join(dist, '.vite', 'manifest.json');
  if (!existsSync(templatePath) || !existsSync(manifestPath)) return null;
  const template = readFileSync(templatePath, 'utf8');
  const manifest = JSON.parse(readFileSync(manifestPath, 'utf8')) as Record<string, ManifestChunk>;
  const entryCss = new Set(manifest[LANDER_HTML]?.css ?? []);
  /** The styles of a chunk and of what it imports. */
  const cssOf = (key: string, into: Set<string>, seen = new Set<string>()): Set<string> => {
    const chunk = manifest[key];
    if (!chunk || seen.has(key)) return into;
    seen.add(key);
    for (const file of chunk.css ?? []) into.add(file);
    for (const imported of chunk.imports ?? []) cssOf(imported, into, seen);
    return into;
  };
  /**
   * A stylesheet of the build, put into the page (a few KB): the first paint then waits on no request but the
   * page's own, which on a slow phone line saves a round trip or two (a new connection each) before anything shows.
   */
  const inlineStyle = (file: string): string | null =>
    existsSync(join(dist, file)) ? `<style>${readFileSync(join(dist, file), 'utf8').replaceAll('</style', '<\\/style')}</style>` : null;
  /**
   * A design's styles, which the server's render paints with, inline. Not its code: the page's start
   * (lander-main.tsx) fetches it with the rest of the lander's code once the first screen is on the screen. The
   * design's stylesheet is also named by a disabled link, which the browser does not fetch: the code's loader
   * (Vite's preload helper) skips a stylesheet the page already links, so it is not fetched again at the takeover.
   */
  const designLinks = new Map<string, string>();
  const linksOf = (name: string): string => {
    let links = designLinks.get(name);
    if (links === undefined) {
      links = [...cssOf(designSource(name), new Set())]
        .filter((file) => !entryCss.has(file))
        .map((file) => {
          const style = inlineStyle(file);
          return style
            ? `${style}<link rel="stylesheet" crossorigin href="/${file}" disabled>`
            : `<link rel="stylesheet" crossorigin href="/${file}">`;
        })
        .join('');
      designLinks.set(name, links);
    }
    return links;
  };
  // The page's own base styles (app/lander/lander.css), inline too.
  const inlinedTemplate = template.replace(/<link rel="stylesheet" crossorigin href="\/([^"]+\.css)">/g, (link, file: string) =>
    entryCss.has(file) ? (inlineStyle(file) ?? link) : link,
  );
  /**
   * Each language's common catalogue as the build ships it (a hashed, cached JSON file). A lander's page names it
   * instead of carrying it: the catalogue (33 KB, 11 KB gzipped: half the page) is for the code that takes the
   * page over, which fetches it with itself, not for the first paint (the server rendered the text). The page
   * then fits a new connection's first round trip on a phone line (about 14 KB).
   */
  const commonUrls = new Map<string, string>();
  for (const [key, chunk] of Object.entries(manifest)) {
    const locale = /\/packages\/i18n\/locales\/([a-z]{2})\/common\.json$/.exec(key)?.[1];
    if (locale) commonUrls.set(locale, `/${chunk.file}`);
  }
  const templates = new Map<Locale, string>();
  const templateOf = (locale: Locale) => {
    let localized = templates.get(locale);
    if (!localized) {
      localized = localize(inlinedTemplate, locale);
      templates.set(locale, localized);
    }
    return localized;
  };

  return {
    async page(request, path, boot) {
      const name = landerNameOf(path) ?? 'tinderswipe';
      const catalogue = loadCatalogue(boot.locale, 'landers');
      const niche = request.site?.niche ?? 1;
      const title = `${translate(boot.locale, `niche.${niche}.headline`, {}, 'landers')} | ${request.site?.name ?? ''}`;
      let rendered: Awaited<ReturnType<Prerenderer['lander']>> = { html: null, queries: null };
      if (prerender && boot.prerender && boot.script) {
        // The lander's address in the page's language; the query only for what the lander's data depends on.
        const query = request.query as Record<string, unknown>;
        const forced = typeof query.forced_country === 'string' ? `?forced_country=${encodeURIComponent(query.forced_country)}` : '';
        // A profile's landing keeps the whole query: its call to action carries it on to the signup.
        const kept = name.startsWith(MEMBER_LANDING_PREFIX) ? queryOf(request.url) : forced;
        const url = `${localizePath(splitLocalePath(path).rest, boot.locale).replace(/\/$/, '')}${kept}`;
        rendered = await prerender.lander(
          { ...boot.prerender, url },
          { catalogues: { landers: catalogue }, isLoggedIn: Boolean(boot.member) },
        );
      }
      // Without boot data (a query settings.php refuses) the page still gets its language's common catalogue here.
      const common = boot.script
        ? ''
        : `,"locale":"${boot.locale}","common":${scriptSafeJson(JSON.stringify(loadCatalogue(boot.locale, 'common')))}`;
      // The boot data's catalogue (its last member) left for the code to fetch, where the build has the file.
      let script = boot.script;
      const commonUrl = commonUrls.get(boot.locale);
      const messagesAt = script.lastIndexOf(',"messages":{');
      const named = Boolean(commonUrl && messagesAt > 0 && script.endsWith('}</script>'));
      if (named) script = `${script.slice(0, messagesAt)}}</script>`;
      const commonLink = named ? `,"commonUrl":"${commonUrl}"` : '';
      const block = `<script type="application/json" id="${LANDER_DATA_ID}">{"landers":${scriptSafeJson(JSON.stringify(catalogue))},"queries":${rendered.queries ?? 'null'}${common}${commonLink}}</script>`;
      const hints = rendered.html ? (/^(?:<link [^>]*\/?>)+/.exec(rendered.html)?.[0] ?? '') : '';
      return (
        templateOf(boot.locale)
          .replace(/<title>[^<]*<\/title>/, () => `<title>${escapeHtml(title)}</title>`)
          .replace('</head>', () => `${hints}${linksOf(name)}${script}${block}</head>`)
          .replace('<div id="root"></div>', () => `<div id="root">${rendered.html ? rendered.html.slice(hints.length) : ''}</div>`)
          // The lander paints from its HTML and styles: its code is fetched after what the first paint needs.
          .replaceAll('<script type="module" ', '<script type="module" fetchpriority="low" ')
          .replaceAll('<link rel="modulepreload" ', '<link rel="modulepreload" fetchpriority="low" ')
      );
    },
  };
}

const escapeHtml = (value: string) => value.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);

/** Whether a page path is a lander's (the landers' own page serves it, once isKnownPage says it exists). */
export function isLanderPath(path: string): boolean {
  return landerNameOf(path) !== null;
}

import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { brotliCompressSync, gzipSync, constants as zlib } from 'node:zlib';
import { LOCALES, type Locale, splitLocalePath } from '@amora/contracts';
import { translate } from '@amora/i18n';
import fastifyStatic from '@fastify/static';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { LandingShown, PageData, PageVisit } from '../lib/served-page';
import { LANDER_COOKIE, landerOfPath } from '../lib/tracking';
import { isLanderPath, landerPages } from './lander-pages';
import { memberLandingIdOf } from './member-landing-pages';
import { routePreloads } from './page-preloads';
import { isKnownPage, routeNameOf, sluggedPageRedirect } from './page-routes';
import { PRERENDERED_ROUTES, prerenderer, withPrerendered } from './prerender';
import { isConsolePage } from './security-headers';

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
export async function registerWeb(
  app: FastifyInstance,
  options: { pageData?: PageData; countVisit?: PageVisit; isLandingShown?: LandingShown } = {},
): Promise<void> {
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
  const landers = template ? landerPages(dist, prerender, localizedIndex) : null;

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
    // The operator console (apps/web's features/console): the bare app, in English until it knows who signs in.
    // No member's data, settings or cookies, never rendered here: its page knows staff only, by their own cookie.
    if (isConsolePage(path)) {
      reply.status(200).header('cache-control', 'private, no-store').type('text/html; charset=utf-8');
      return sendCompressed(request, reply, pages.get('en') as string);
    }
    // A page whose lander slug names another language or niche: to its own address, the query kept (page-routes.ts).
    const redirect = request.site ? sluggedPageRedirect(path, request.site.niche) : null;
    if (redirect) {
      const query = request.url.includes('?') ? request.url.slice(request.url.indexOf('?')) : '';
      return reply.header('cache-control', 'private, no-store').redirect(`${redirect}${query}`, 302);
    }
    // A page is one of §2 the app has (page-routes.ts), and a member landing's profile one a landing may show.
    const landingId = memberLandingIdOf(path);
    const isPage =
      isKnownPage(path) && (landingId === null || !options.isLandingShown || (await options.isLandingShown(request, landingId)));
    const boot = await pageData(request, reply, path);
    // A visitor's page of a site is a visit (once per browser and day): counted here, for every page served,
    // whether its render below is made, kept from before or left out.
    if (options.countVisit && request.method === 'GET' && request.site && !boot.member && isPage) {
      await options.countVisit(request, reply, path);
    }
    // The lander a visitor lands on (a lander, a profile's landing), kept for their signup (lib/tracking.ts).
    const landing = request.site && !boot.member && isPage ? landerOfPath(path) : null;
    if (landing) {
      reply.setCookie(LANDER_COOKIE, JSON.stringify(landing), {
        path: '/',
        maxAge: 30 * 86_400,
        httpOnly: true,
        sameSite: 'lax',
        secure: app.ctx.config.isProduction,
      });
    }
    // A lander: the landers' own small page, rendered with its data (plugins/lander-pages.ts).
    if (landers && isLanderPath(path) && isPage) {
      reply.status(200).header('cache-control', 'private, no-store').type('text/html; charset=utf-8');
      return sendCompressed(request, reply, await landers.page(request, path, boot));
    }
    // A function as the replacement: the data holds members' text, where `$&` or `$'` must stay as written.
    let page = (pages.get(boot.locale) as string).replace('</head>', () => `${preloads?.(path, boot.member) ?? ''}${boot.script}</head>`);
    if (boot.prerender && prerender && boot.script) {
      if (boot.prerender.member) {
        // Rendered when the page's route declares the data it shows (apps/web's routes.tsx, entry-server.tsx).
        const rendered = await prerender.member(boot.prerender);
        if (rendered) page = withPrerendered(page, rendered.html, rendered.queries);
      } else {
        const name = routeNameOf(path);
        const html = name && PRERENDERED_ROUTES.has(name) ? await prerender(boot.prerender) : null;
        if (html) page = withPrerendered(page, html);
      }
    }
    // The page carries the visitor's settings, session and language: never stored by a cache, not even the browser's.
    reply
      .status(isPage ? 200 : 404)
      .header('cache-control', 'private, no-store')
      .type('text/html; charset=utf-8');
    return sendCompressed(request, reply, page);
  });
}

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

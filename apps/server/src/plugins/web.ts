import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { LANDERS, LOCALES, type Locale, ROUTES, STATIC_PAGES, splitLocalePath, TOKEN_PAGES } from '@amora/contracts';
import { translate } from '@amora/i18n';
import fastifyStatic from '@fastify/static';
import type { FastifyInstance } from 'fastify';

const knownPatterns: RegExp[] = [
  ...Object.entries(ROUTES)
    .filter(([name]) => name !== 'token' && !name.startsWith('pages-'))
    .map(([, pattern]) => pattern),
  ...Object.keys(STATIC_PAGES).map((page) => `/pages/${page}`),
  ...TOKEN_PAGES.map((token) => `/${token}`),
  '/landers/tinderswipe',
  ...LANDERS.map((lander) => `/landers/${lander}/:slug?`),
].map(
  (pattern) =>
    new RegExp(
      `^${pattern
        .replace(/\/:[a-z]+\?/g, '(?:/[^/]+)?')
        .replace(/:[a-z]+/g, '[^/]+')
        .replace(/\//g, '\\/')}\\/?$`,
    ),
);

/** Whether the SPA has a page at this path; anything else is served the app with status 404. */
export function isKnownPage(path: string): boolean {
  const { rest } = splitLocalePath(path);
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
    .replace(/<noscript>[^<]*<\/noscript>/, `<noscript>${escapeHtml(translate(locale, 'errors.noScript'))}</noscript>`);
}

/**
 * Serves the built web app: hashed assets with a year of caching, compressed at build time, and index.html
 * (in the language of the path's locale prefix) for every page route. Unknown API paths get JSON 404s.
 */
export async function registerWeb(app: FastifyInstance): Promise<void> {
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
      // @fastify/static 10 passes the Fastify reply here, not the raw response.
      setHeaders(reply, path) {
        reply.header('cache-control', path.includes('/assets/') ? 'public, max-age=31536000, immutable' : 'public, max-age=3600');
      },
    });
  }
  const template = hasBuild ? readFileSync(indexPath, 'utf8') : null;
  const pages = template ? new Map(LOCALES.map((locale) => [locale, localizedIndex(template, locale)])) : null;

  app.setNotFoundHandler((request, reply) => {
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
    const html = pages.get(splitLocalePath(path).locale);
    return reply
      .status(isKnownPage(path) ? 200 : 404)
      .header('cache-control', 'no-cache')
      .type('text/html; charset=utf-8')
      .send(html);
  });
}

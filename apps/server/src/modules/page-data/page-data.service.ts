import {
  ENTRY_WARNING_STORAGE_KEY,
  isLocale,
  LOCALE_COOKIE,
  type Locale,
  localeFromTag,
  localizePath,
  SERVER_KNOWN_DISMISSALS,
  SESSION_COOKIE,
  settingsQuerySchema,
  sluggedPath,
  splitLocalePath,
  TIME_ZONE_COOKIE,
} from '@amora/contracts';
import { loadCatalogue } from '@amora/i18n';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { scriptSafeJson } from '../../lib/script-json';
import type { PageData, PrerenderRequest } from '../../lib/served-page';
import { presentMember } from '../auth/auth.service';
import { findAuth } from '../sessions/sessions.service';
import { settingsAnswerer } from '../settings/settings.service';

/** The id of the data block in the page (apps/web/src/lib/boot-data.ts reads it). */
export const BOOT_DATA_ID = 'boot-data';

const catalogues = new Map<Locale, Record<string, unknown>>();
function catalogueOf(locale: Locale): Record<string, unknown> {
  let catalogue = catalogues.get(locale);
  if (!catalogue) {
    catalogue = loadCatalogue(locale, 'common') as Record<string, unknown>;
    catalogues.set(locale, catalogue);
  }
  return catalogue;
}

/** The common catalogue of each language, once, as script-safe JSON. */
const messagesJson = new Map<Locale, string>();
function messagesOf(locale: Locale): string {
  let json = messagesJson.get(locale);
  if (json === undefined) {
    json = scriptSafeJson(JSON.stringify(catalogueOf(locale)));
    messagesJson.set(locale, json);
  }
  return json;
}

/**
 * What the web app's boot (apps/web/src/app/boot.ts) would otherwise ask for before its first paint, so the
 * page paints without waiting for three calls: the settings as settings.php answers them (with its cookies),
 * the member as GET user.php answers (null for a visitor, and for a session of another site) and the common
 * catalogue, in the language the app will show: the path's, or for a path without a language prefix the
 * remembered one, as the app's redirect picks it. Written as a data block (`type="application/json"`: never run,
 * so the CSP stays as it is), escaped so no text in it can end the element. A page query settings.php would
 * refuse gets no block: the app then asks, and gets the 400.
 */
export function pageDataMaker(app: FastifyInstance, { isChange }: { isChange: IsChange }) {
  const settingsAnswer = settingsAnswerer(app);
  return async (request: FastifyRequest, reply: FastifyReply, path: string): ReturnType<PageData> => {
    const split = splitLocalePath(path);
    const { site } = request;
    if (!site) return { locale: split.locale, script: '' };
    // The app's redirect: a path without a prefix goes to the remembered language, which settings.php sets
    // from the site's domain language on a first visit. Not a page with a lander slug: its slug names its language.
    let locale = split.locale;
    if (!split.prefixed && !sluggedPath(split.rest)) {
      const cookie = request.cookies[LOCALE_COOKIE];
      const domain = localeFromTag(site.domainLanguage);
      const remembered = isLocale(cookie) ? cookie : cookie === undefined && domain && site.languages.includes(domain) ? domain : null;
      if (remembered && remembered !== locale && site.languages.includes(remembered)) locale = remembered;
    }
    const query = settingsQuerySchema.safeParse({ ...(request.query as object), lang: locale });
    if (!query.success) return { locale, script: '' };
    const settings = settingsAnswer(request, reply, query.data);
    // Pages pass the request gate without a session lookup (only API calls need one): the page looks itself.
    const token = request.cookies[SESSION_COOKIE];
    if (token && !request.auth) request.auth = await findAuth(app.ctx, token, site.id, false);
    const { auth } = request;
    const user = auth ? scriptSafeJson(JSON.stringify(await presentMember(app.ctx, site, auth.user, auth.profile))) : 'null';
    const json = `{"locale":"${locale}","settings":${scriptSafeJson(settings)},"user":${user},"messages":${messagesOf(locale)}}`;
    const script = `<script type="application/json" id="${BOOT_DATA_ID}">${json}</script>`;
    // A visitor's page in the language the app shows, at the address the app will be at (its redirect included).
    // Without its query: the rendered page does not depend on it (what the query changes is in the settings), and
    // a render per made-up query would cost the server a render per request.
    const dismissed = request.cookies[ENTRY_WARNING_STORAGE_KEY];
    const prerender: PrerenderRequest = {
      url: localizePath(split.rest, locale),
      locale,
      settingsJson: settings,
      messages: catalogueOf(locale),
      // Whether it is there, not its value: the app asks no more of it.
      cookies: dismissed === undefined ? '' : `${ENTRY_WARNING_STORAGE_KEY}=1`,
    };
    // A page rendered for anyone with its data (a lander) reads it through the API as this request would.
    prerender.api = memberApi(app, request, isChange);
    // A member's page with its query: the search's filters are in it.
    if (auth) {
      const query = request.url.includes('?') ? request.url.slice(request.url.indexOf('?')) : '';
      prerender.url = `${prerender.url}${query}`;
      prerender.member = { user: JSON.parse(user), api: memberApi(app, request, isChange), phone: isPhone(request) };
      // The members-area banners a member dismissed (kept in cookies too, apps/web/src/lib/dismissals.ts).
      // The browser's time zone, which the app keeps in a cookie (times on the page read as the app shows them).
      const timeZone = request.cookies[TIME_ZONE_COOKIE];
      prerender.cookies = [ENTRY_WARNING_STORAGE_KEY, ...SERVER_KNOWN_DISMISSALS]
        .filter((key) => request.cookies[key] !== undefined)
        .map((key) => `${key}=1`)
        .concat(timeZone && /^[A-Za-z0-9_+/-]{1,64}$/.test(timeZone) ? [`${TIME_ZONE_COOKIE}=${timeZone}`] : [])
        .join('; ');
    }
    return { locale, script, prerender, member: Boolean(auth) };
  };
}

/**
 * Whether an API call may change something (plugins/auth.ts `isChange`: any write, and the spec's GETs that change
 * something, logout.php, auto-like.php and the activation link). Given by app.ts, so this module imports no plugin.
 */
export type IsChange = (method: string, path: string) => boolean;

/**
 * The API as the member of `request` reaches it, for the data their page's route declares (apps/web's
 * entry-server.tsx loads it before the one render; nothing else reaches the API there): the server's own routes
 * (Fastify's inject, never the network), with their cookies, site and address, and reads that change nothing only.
 */
function memberApi(app: FastifyInstance, request: FastifyRequest, isChange: IsChange) {
  const geoHeader = app.ctx.config.geoCountryHeader?.toLowerCase() ?? null;
  return async (path: string, init: RequestInit): Promise<Response> => {
    const method = init.method ?? 'GET';
    if (method !== 'GET' || !path.startsWith('/api/') || isChange(method, path.split('?')[0])) {
      throw new Error(`not called while rendering: ${method} ${path}`);
    }
    const answer = await app.inject({
      method: 'GET',
      url: path,
      remoteAddress: request.ip,
      headers: {
        host: request.headers.host ?? '',
        cookie: request.headers.cookie ?? '',
        accept: 'application/json',
        'accept-language': request.headers['accept-language'] ?? '',
        'user-agent': request.headers['user-agent'] ?? '',
        // The visitor's country, where the proxy tells it (settings.service geoipCountry reads it only then).
        ...(geoHeader && typeof request.headers[geoHeader] === 'string' ? { [geoHeader]: request.headers[geoHeader] as string } : {}),
        ...(init.headers as Record<string, string>),
      },
    });
    return new Response(answer.body, {
      status: answer.statusCode,
      headers: { 'content-type': String(answer.headers['content-type'] ?? '') },
    });
  };
}

/**
 * Whether the browser is a phone, for the layout of its first screen: its client hint (Chromium sends
 * Sec-CH-UA-Mobile with every request), else its user agent. A wrong guess costs one re-render in the browser.
 */
function isPhone(request: FastifyRequest): boolean {
  const hint = request.headers['sec-ch-ua-mobile'];
  if (hint === '?1') return true;
  if (hint === '?0') return false;
  return /\b(?:Mobi|iPhone|Android.+Mobile)/.test(String(request.headers['user-agent'] ?? ''));
}

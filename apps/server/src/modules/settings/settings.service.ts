import {
  isLocale,
  LOCALE_COOKIE,
  LOCALE_COOKIE_DAYS,
  localeFromTag,
  type Settings,
  type settingsQuerySchema,
  settingsSchema,
  TRACKING_COOKIE,
  TRACKING_KEYS,
} from '@amora/contracts';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { z } from 'zod';
import type { AppContext } from '../../context';
import { hasKeys } from '../../lib/objects';
import { regionsOf } from '../content/content.service';
import { vapidPublicKey } from '../push/push.service';
import type { Site } from '../sites/sites.service';
import { presentSettings } from './settings.presenter';

/** What geoipCountry reads: the server's config. */
export interface GeoConfig {
  isProduction: boolean;
  trustProxy: boolean;
  geoCountryHeader: string | null;
}

/**
 * The visitor's country from the one geo header the reverse proxy sets (GEO_COUNTRY_HEADER), read only when the
 * proxy is trusted (TRUST_PROXY): any other geo header, and this one without a trusted proxy, is the client's own
 * word and ignored. Null without one. Outside production `forced_country` overrides it.
 */
export function geoipCountry(request: FastifyRequest, config: GeoConfig): string | null {
  const query = request.query as Record<string, unknown> | undefined;
  const forced = typeof query?.forced_country === 'string' ? query.forced_country.toUpperCase() : null;
  if (!config.isProduction && forced && /^[A-Z]{2}$/.test(forced)) return forced;
  if (!config.trustProxy || !config.geoCountryHeader) return null;
  const header = request.headers[config.geoCountryHeader];
  const fromHeader = typeof header === 'string' ? header.toUpperCase() : null;
  return fromHeader && /^[A-Z]{2}$/.test(fromHeader) ? fromHeader : null;
}

export function selectedCountry(site: Site, geoip: string | null): string {
  return geoip && site.countries.includes(geoip) ? geoip : site.defaultCountry;
}

function trackingFromQuery(query: Record<string, unknown>): Record<string, string> | null {
  // Most calls carry no query string: then there is no traffic source to read from it.
  if (!hasKeys(query)) return null;
  const tracking: Record<string, string> = {};
  for (const key of TRACKING_KEYS) {
    const value = query[key];
    if (typeof value === 'string' && value.length > 0) tracking[key] = value.slice(0, 100);
  }
  return Object.keys(tracking).length > 0 ? tracking : null;
}

/**
 * Serialized settings per site and request facts. Keyed by the site object itself: when the site directory
 * reloads, its sites are new objects, so the answers made from the old ones are dropped with them.
 */
class SettingsCache {
  private perSite = new WeakMap<Site, Map<string, string>>();
  get(site: Site, key: string): string | undefined {
    return this.perSite.get(site)?.get(key);
  }
  set(site: Site, key: string, json: string): void {
    let entries = this.perSite.get(site);
    if (!entries || entries.size > 2_000) {
      entries = new Map();
      this.perSite.set(site, entries);
    }
    entries.set(key, json);
  }
}

/** The query of settings.php, as its schema reads it. */
export type SettingsQuery = z.infer<typeof settingsQuerySchema>;

/**
 * The settings answer of a request as JSON (what GET /api/settings.php sends), with its cookies: the language
 * cookie from the site's domain language when there is none yet, the traffic-source cookie from the query.
 * Each maker keeps its own cache of answers. The served page (modules/page-data) embeds the same answer.
 */
export function settingsAnswerer(app: FastifyInstance): (request: FastifyRequest, reply: FastifyReply, query: SettingsQuery) => string {
  const cache = new SettingsCache();
  return (request, reply, query) => {
    const { site } = request;
    const { config } = app.ctx;

    // Spec §7: with no locale cookie yet, the site's domain language decides it.
    const cookieLocale = request.cookies[LOCALE_COOKIE];
    const validCookieLocale = isLocale(cookieLocale) ? cookieLocale : null;
    // The domain language is needed only when no valid locale cookie decides the language.
    const domainLocale = validCookieLocale ? null : localeFromTag(site.domainLanguage);
    if (!cookieLocale) {
      if (domainLocale && site.languages.includes(domainLocale)) {
        reply.setCookie(LOCALE_COOKIE, domainLocale, {
          path: '/',
          maxAge: LOCALE_COOKIE_DAYS * 86_400,
          sameSite: 'lax',
          secure: config.isProduction,
        });
      }
    }

    const tracking = trackingFromQuery(query as Record<string, unknown>);
    if (tracking) {
      reply.setCookie(TRACKING_COOKIE, JSON.stringify(tracking), {
        path: '/',
        maxAge: 30 * 86_400,
        httpOnly: true,
        sameSite: 'lax',
        secure: config.isProduction,
      });
    }

    const geoip = geoipCountry(request, config);
    const locale = query.lang ?? validCookieLocale ?? domainLocale ?? 'en';
    const isTrafficsource = Boolean(tracking || request.cookies[TRACKING_COOKIE]);
    // The object depends only on these facts, so each process keeps its JSON until the sites reload. The
    // common visitor (no geo header, no traffic source) is keyed by the locale alone.
    const key = geoip === null && !isTrafficsource ? locale : `${locale}|${geoip}|${isTrafficsource}`;
    const cached = cache.get(site, key);
    if (cached) return cached;
    const country = selectedCountry(site, geoip);
    const json = JSON.stringify(
      settingsSchema.parse(
        presentSettings(site, {
          locale,
          geoipCountry: geoip,
          selectedCountry: country,
          regions: regionsOf(country),
          isTrafficsource,
          isProduction: config.isProduction,
          pushPublicKey: vapidPublicKey(app.ctx),
        }),
      ),
    );
    cache.set(site, key, json);
    return json;
  };
}

/**
 * The settings a visitor of `site` gets in `locale` as settings.php answers them, without a geo header or a traffic
 * source: what the landing page is drawn from. The console's preview gives a site with its unsaved settings.
 */
export function visitorSettings(ctx: AppContext, site: Site, locale: string): Settings {
  const country = selectedCountry(site, null);
  return settingsSchema.parse(
    presentSettings(site, {
      locale,
      geoipCountry: null,
      selectedCountry: country,
      regions: regionsOf(country),
      isTrafficsource: false,
      isProduction: ctx.config.isProduction,
      pushPublicKey: vapidPublicKey(ctx),
    }),
  );
}

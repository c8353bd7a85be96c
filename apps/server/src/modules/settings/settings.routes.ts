import {
  isLocale,
  LOCALE_COOKIE,
  LOCALE_COOKIE_DAYS,
  localeFromTag,
  settingsQuerySchema,
  settingsSchema,
  TRACKING_COOKIE,
} from '@amora/contracts';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { regionsOf } from '../content/regions';
import type { Site } from '../sites/sites.repository';
import { presentSettings } from './settings.presenter';
import { geoipCountry, selectedCountry, trackingFromQuery } from './settings.service';

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

export const settingsRoutes: FastifyPluginAsyncZod = async (app) => {
  const cache = new SettingsCache();
  app.get(
    '/api/settings.php',
    {
      schema: {
        tags: ['site'],
        summary: 'Settings of the site picked by the request host (spec §3)',
        querystring: settingsQuerySchema,
        response: { 200: settingsSchema },
      },
    },
    // Not async: the answer is usually ready in memory, and a promise per call would cost more than the rest.
    (request, reply) => {
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

      const tracking = trackingFromQuery(request.query as Record<string, unknown>);
      if (tracking) {
        reply.setCookie(TRACKING_COOKIE, JSON.stringify(tracking), {
          path: '/',
          maxAge: 30 * 86_400,
          httpOnly: true,
          sameSite: 'lax',
          secure: config.isProduction,
        });
      }

      const geoip = geoipCountry(request, config.isProduction);
      const locale = request.query.lang ?? validCookieLocale ?? domainLocale ?? 'en';
      const isTrafficsource = Boolean(tracking || request.cookies[TRACKING_COOKIE]);
      reply.header('cache-control', 'private, no-store').type('application/json; charset=utf-8');
      // The object depends only on these facts, so each process keeps its JSON until the sites reload. The
      // common visitor (no geo header, no traffic source) is keyed by the locale alone.
      const key = geoip === null && !isTrafficsource ? locale : `${locale}|${geoip}|${isTrafficsource}`;
      const cached = cache.get(site, key);
      if (cached) {
        reply.send(cached as never);
        return;
      }
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
            pushPublicKey: null,
          }),
        ),
      );
      cache.set(site, key, json);
      reply.send(json as never);
    },
  );
};

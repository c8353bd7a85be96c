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
import { presentSettings } from './settings.presenter';
import { geoipCountry, selectedCountry, trackingFromQuery } from './settings.service';

/** Serialized settings per request facts, dropped whenever the site directory reloads. */
class SettingsCache {
  private entries = new Map<string, string>();
  private generation = -1;
  get(key: string, generation: number): string | undefined {
    if (generation !== this.generation) {
      this.entries.clear();
      this.generation = generation;
    }
    return this.entries.get(key);
  }
  set(key: string, json: string, generation: number): void {
    if (generation !== this.generation || this.entries.size > 2_000) this.entries.clear();
    this.generation = generation;
    this.entries.set(key, json);
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
    async (request, reply) => {
      const { site } = request;
      const { config } = app.ctx;

      // Spec §7: with no locale cookie yet, the site's domain language decides it.
      const cookieLocale = request.cookies[LOCALE_COOKIE];
      const domainLocale = localeFromTag(site.domainLanguage);
      if (!cookieLocale) {
        const locale = domainLocale;
        if (locale && site.languages.includes(locale)) {
          reply.setCookie(LOCALE_COOKIE, locale, {
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
      const locale = request.query.lang ?? (isLocale(cookieLocale) ? cookieLocale : (domainLocale ?? 'en'));
      const isTrafficsource = Boolean(tracking || request.cookies[TRACKING_COOKIE]);
      reply.header('cache-control', 'private, no-store').type('application/json; charset=utf-8');
      // The object depends only on these facts, so each process keeps its JSON until the sites reload.
      const key = `${site.id}|${locale}|${geoip}|${isTrafficsource}`;
      const cached = cache.get(key, app.ctx.sites.generation);
      if (cached) return reply.send(cached as never);
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
      cache.set(key, json, app.ctx.sites.generation);
      return reply.send(json as never);
    },
  );
};

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

export const settingsRoutes: FastifyPluginAsyncZod = async (app) => {
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
      const country = selectedCountry(site, geoip);
      reply.header('cache-control', 'private, no-store');
      return presentSettings(site, {
        geoipCountry: geoip,
        selectedCountry: country,
        regions: regionsOf(country),
        locale: request.query.lang ?? (isLocale(cookieLocale) ? cookieLocale : (domainLocale ?? 'en')),
        isTrafficsource: Boolean(tracking || request.cookies[TRACKING_COOKIE]),
        isProduction: config.isProduction,
        pushPublicKey: null,
      });
    },
  );
};

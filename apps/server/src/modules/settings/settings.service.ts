import { COUNTRY_LANGUAGES, TRACKING_KEYS } from '@amora/contracts';
import type { FastifyRequest } from 'fastify';
import { hasKeys } from '../../lib/objects';
import { regionsOf } from '../content/regions';
import type { Site } from '../sites/sites.repository';

/**
 * The visitor's country from the geo header a CDN or load balancer sets (`CF-IPCountry`, `X-Country-Code`);
 * null without one. Outside production `forced_country` overrides it.
 */
export function geoipCountry(request: FastifyRequest, isProduction: boolean): string | null {
  const query = request.query as Record<string, unknown> | undefined;
  const forced = typeof query?.forced_country === 'string' ? query.forced_country.toUpperCase() : null;
  if (!isProduction && forced && /^[A-Z]{2}$/.test(forced)) return forced;
  const header = request.headers['cf-ipcountry'] ?? request.headers['x-country-code'];
  const fromHeader = typeof header === 'string' ? header.toUpperCase() : null;
  return fromHeader && /^[A-Z]{2}$/.test(fromHeader) ? fromHeader : null;
}

export function selectedCountry(site: Site, geoip: string | null): string {
  return geoip && site.countries.includes(geoip) ? geoip : site.defaultCountry;
}

export function trackingFromQuery(query: Record<string, unknown>): Record<string, string> | null {
  // Most calls carry no query string: then there is no traffic source to read from it.
  if (!hasKeys(query)) return null;
  const tracking: Record<string, string> = {};
  for (const key of TRACKING_KEYS) {
    const value = query[key];
    if (typeof value === 'string' && value.length > 0) tracking[key] = value.slice(0, 100);
  }
  return Object.keys(tracking).length > 0 ? tracking : null;
}

export { COUNTRY_LANGUAGES, regionsOf };

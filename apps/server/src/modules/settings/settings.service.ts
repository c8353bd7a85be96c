import { COUNTRY_LANGUAGES, TARGET_COUNTRIES, TRACKING_KEYS } from '@amora/contracts';
import type { FastifyRequest } from 'fastify';
import { regionsOf } from '../content/regions';
import type { Site } from '../sites/sites.repository';

const isTarget = (code: string | null | undefined): code is string =>
  !!code && (TARGET_COUNTRIES as readonly string[]).includes(code);

/**
 * The visitor's country: a proxy's geo header (CDN or load balancer), else the region of the browser's
 * first language when it is a target country. Outside production `forced_country` overrides both.
 */
export function geoipCountry(request: FastifyRequest, isProduction: boolean): string | null {
  const query = request.query as Record<string, unknown> | undefined;
  const forced = typeof query?.forced_country === 'string' ? query.forced_country.toUpperCase() : null;
  if (!isProduction && forced && /^[A-Z]{2}$/.test(forced)) return forced;
  const header = request.headers['cf-ipcountry'] ?? request.headers['x-country-code'];
  const fromHeader = typeof header === 'string' ? header.toUpperCase() : null;
  if (fromHeader && /^[A-Z]{2}$/.test(fromHeader)) return fromHeader;
  const language = request.headers['accept-language']?.split(',')[0] ?? '';
  const region = /^[a-z]{2,3}-([A-Za-z]{2})\b/.exec(language)?.[1]?.toUpperCase();
  return isTarget(region) ? region : null;
}

export function selectedCountry(site: Site, geoip: string | null): string {
  return geoip && site.countries.includes(geoip) ? geoip : site.defaultCountry;
}

export function trackingFromQuery(query: Record<string, unknown>): Record<string, string> | null {
  const tracking: Record<string, string> = {};
  for (const key of TRACKING_KEYS) {
    const value = query[key];
    if (typeof value === 'string' && value.length > 0) tracking[key] = value.slice(0, 100);
  }
  return Object.keys(tracking).length > 0 ? tracking : null;
}

export { COUNTRY_LANGUAGES, regionsOf };

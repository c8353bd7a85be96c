import { COUNTRY_LANGUAGES, type Country, type Locale, type Settings } from '@amora/contracts/core';

/**
 * The language menu offers the site's languages that fit the visitor's country (spec §9: CH shows de, it,
 * fr, en), always including the current one; the lang-config page lists them all.
 */
export function visibleLocales(settings: Settings, current: Locale): Locale[] {
  const country = settings.geoip_country as Country | null;
  const preferred = country && COUNTRY_LANGUAGES[country] ? COUNTRY_LANGUAGES[country] : null;
  const list = preferred ? settings.languages.filter((l) => preferred.includes(l)) : [...settings.languages];
  if (!list.includes(current)) list.unshift(current);
  return list;
}

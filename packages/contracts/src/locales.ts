export const LOCALES = ['da', 'de', 'en', 'es', 'fi', 'fr', 'it', 'nl', 'no', 'pl', 'sv'] as const;
export type Locale = (typeof LOCALES)[number];
export const DEFAULT_LOCALE: Locale = 'en';
export const FALLBACK_LOCALE: Locale = 'it';

export const LOCALE_INFO: Record<Locale, { iso: string; name: string }> = {
  da: { iso: 'da-DK', name: 'Dansk' },
  de: { iso: 'de-DE', name: 'Deutsch' },
  en: { iso: 'en-GB', name: 'English' },
  es: { iso: 'es-ES', name: 'Español' },
  fi: { iso: 'fi-FI', name: 'Suomi' },
  fr: { iso: 'fr-FR', name: 'Français' },
  it: { iso: 'it-IT', name: 'Italiano' },
  nl: { iso: 'nl-NL', name: 'Nederlands' },
  no: { iso: 'nb-NO', name: 'Norsk' },
  pl: { iso: 'pl-PL', name: 'Polski' },
  sv: { iso: 'sv-SE', name: 'Svenska' },
};

export function isLocale(value: unknown): value is Locale {
  return typeof value === 'string' && (LOCALES as readonly string[]).includes(value);
}

/** The first two letters of a language tag, when they name a supported locale. */
export function localeFromTag(tag: string | null | undefined): Locale | null {
  const two = (tag ?? '').slice(0, 2).toLowerCase();
  if (two === 'nb' || two === 'nn') return 'no';
  return isLocale(two) ? two : null;
}

export const TARGET_COUNTRIES = ['NL', 'BE', 'FR', 'IT', 'ES', 'DE', 'AT', 'IE', 'GB', 'US', 'CA', 'PL', 'AU', 'NZ', 'CH'] as const;
export type Country = (typeof TARGET_COUNTRIES)[number];

/** Which locales the language menu offers to a visitor from each country (spec §9). */
export const COUNTRY_LANGUAGES: Record<Country, Locale[]> = {
  NL: ['nl', 'en'],
  BE: ['nl', 'fr', 'de', 'en'],
  FR: ['fr', 'en'],
  IT: ['it', 'en'],
  ES: ['es', 'en'],
  DE: ['de', 'en'],
  AT: ['de', 'en'],
  IE: ['en'],
  GB: ['en'],
  US: ['en', 'es'],
  CA: ['en', 'fr'],
  PL: ['pl', 'en'],
  AU: ['en'],
  NZ: ['en'],
  CH: ['de', 'it', 'fr', 'en'],
};

/** Splits a path into its locale prefix and the rest: '/de/members' → ['de', '/members']. */
export function splitLocalePath(path: string): { locale: Locale; rest: string; prefixed: boolean } {
  const match = /^\/([a-z]{2})(\/.*)?$/.exec(path);
  if (match && isLocale(match[1]) && match[1] !== DEFAULT_LOCALE) {
    return { locale: match[1], rest: match[2] ?? '/', prefixed: true };
  }
  return { locale: DEFAULT_LOCALE, rest: path || '/', prefixed: false };
}

export function localizePath(path: string, locale: Locale): string {
  const clean = path.startsWith('/') ? path : `/${path}`;
  if (locale === DEFAULT_LOCALE) return clean;
  return clean === '/' ? `/${locale}` : `/${locale}${clean}`;
}

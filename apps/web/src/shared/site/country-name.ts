const cache = new Map<string, Intl.DisplayNames>();

/** Country names in the page's language, from the browser's own CLDR data (no bundle cost). */
export function countryName(code: string, locale: string): string {
  let names = cache.get(locale);
  if (!names) {
    names = new Intl.DisplayNames([locale === 'no' ? 'nb' : locale], { type: 'region' });
    cache.set(locale, names);
  }
  return names.of(code) ?? code;
}

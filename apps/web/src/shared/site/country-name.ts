const cache = new Map<string, Intl.DisplayNames>();
const names = new Map<string, string>();

/**
 * Country names in the page's language, from the browser's own CLDR data (no bundle cost). Each name is asked of
 * Intl once per language: a phone spends a millisecond or more on every lookup, and a search page shows dozens.
 */
export function countryName(code: string, locale: string): string {
  const key = `${locale}:${code}`;
  const known = names.get(key);
  if (known !== undefined) return known;
  let display = cache.get(locale);
  if (!display) {
    display = new Intl.DisplayNames([locale === 'no' ? 'nb' : locale], { type: 'region' });
    cache.set(locale, display);
  }
  const name = display.of(code) ?? code;
  names.set(key, name);
  return name;
}

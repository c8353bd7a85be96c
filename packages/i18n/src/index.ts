import { readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

export const NAMESPACES = ['common', 'pages', 'emails', 'payments', 'console', 'landers'] as const;
export type Namespace = (typeof NAMESPACES)[number];
export type Catalogue = { [key: string]: string | Catalogue };

export const localesDir = join(dirname(fileURLToPath(import.meta.url)), '..', 'locales');

const cache = new Map<string, Catalogue>();

/** Server side: a locale's catalogue for one namespace, read once. */
export function loadCatalogue(locale: string, ns: Namespace = 'common'): Catalogue {
  const key = `${locale}/${ns}`;
  let catalogue = cache.get(key);
  if (!catalogue) {
    catalogue = JSON.parse(readFileSync(join(localesDir, locale, `${ns}.json`), 'utf8')) as Catalogue;
    cache.set(key, catalogue);
  }
  return catalogue;
}

export function lookup(catalogue: Catalogue, key: string): string | undefined {
  let node: string | Catalogue | undefined = catalogue;
  for (const part of key.split('.')) {
    if (!node || typeof node === 'string') return undefined;
    node = node[part];
  }
  return typeof node === 'string' ? node : undefined;
}

/** Fills ICU-style `{name}` placeholders. */
function format(text: string, values: Record<string, string | number> = {}): string {
  return text.replace(/\{(\w+)\}/g, (whole, name: string) => (name in values ? String(values[name]) : whole));
}

/** The suffixes of a plural family (`key_one`, `key_few`, …), CLDR's categories as i18next names them. */
export const PLURAL_CATEGORIES = ['zero', 'one', 'two', 'few', 'many', 'other'] as const;
export type PluralCategory = (typeof PLURAL_CATEGORIES)[number];

const pluralRules = new Map<string, Intl.PluralRules>();

function rulesOf(locale: string): Intl.PluralRules {
  let rules = pluralRules.get(locale);
  if (!rules) {
    rules = new Intl.PluralRules(locale);
    pluralRules.set(locale, rules);
  }
  return rules;
}

/** The plural forms a locale's texts need, as Intl.PluralRules (CLDR) lists them: pl → one, few, many, other. */
export function pluralCategoriesOf(locale: string): PluralCategory[] {
  const categories = rulesOf(locale).resolvedOptions().pluralCategories as PluralCategory[];
  return PLURAL_CATEGORIES.filter((category) => categories.includes(category));
}

/**
 * A text of the catalogue, in the plural form for `count` when it has one: `key_<category>` (the category
 * Intl.PluralRules gives the locale for that number), then `key`, then `key_other`, the order i18next looks in.
 */
function lookupPlural(catalogue: Catalogue, locale: string, key: string, count: number): string | undefined {
  return lookup(catalogue, `${key}_${rulesOf(locale).select(count)}`) ?? lookup(catalogue, key) ?? lookup(catalogue, `${key}_other`);
}

/**
 * Translate on the server with the spec's fallback chain: locale → it → en. A numeric `count` picks the
 * plural form, by the rules of the language the text comes from.
 */
export function translate(locale: string, key: string, values?: Record<string, string | number>, ns: Namespace = 'common'): string {
  const count = values?.count;
  for (const candidate of [locale, 'it', 'en']) {
    try {
      const catalogue = loadCatalogue(candidate, ns);
      const text = typeof count === 'number' ? lookupPlural(catalogue, candidate, key, count) : lookup(catalogue, key);
      if (text !== undefined) return format(text, values);
    } catch {
      // a missing catalogue file (or a tag Intl cannot read) falls through to the next locale
    }
  }
  return key;
}

export function flattenKeys(catalogue: Catalogue, prefix = ''): string[] {
  return Object.entries(catalogue).flatMap(([k, v]) => (typeof v === 'string' ? [prefix + k] : flattenKeys(v, `${prefix}${k}.`)));
}

import { readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

export const NAMESPACES = ['common', 'pages', 'emails'] as const;
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
export function format(text: string, values: Record<string, string | number> = {}): string {
  return text.replace(/\{(\w+)\}/g, (whole, name: string) => (name in values ? String(values[name]) : whole));
}

/** Translate on the server with the spec's fallback chain: locale → it → en. */
export function translate(locale: string, key: string, values?: Record<string, string | number>, ns: Namespace = 'common'): string {
  for (const candidate of [locale, 'it', 'en']) {
    try {
      const text = lookup(loadCatalogue(candidate, ns), key);
      if (text !== undefined) return format(text, values);
    } catch {
      // a missing catalogue file falls through to the next locale
    }
  }
  return key;
}

export function flattenKeys(catalogue: Catalogue, prefix = ''): string[] {
  return Object.entries(catalogue).flatMap(([k, v]) => (typeof v === 'string' ? [prefix + k] : flattenKeys(v, `${prefix}${k}.`)));
}

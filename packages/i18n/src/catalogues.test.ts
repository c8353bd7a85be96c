import { readdirSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { type Catalogue, flattenKeys, loadCatalogue, localesDir, lookup, NAMESPACES } from './index';

const LOCALES = ['da', 'de', 'en', 'es', 'fi', 'fr', 'it', 'nl', 'no', 'pl', 'sv'];
const placeholders = (text: string) => [...new Set([...text.matchAll(/\{(\w+)\}/g)].map((m) => m[1]))].sort();

describe('message catalogues', () => {
  it('exist for every locale and nothing else', () => {
    expect(readdirSync(localesDir).sort()).toEqual(LOCALES);
  });

  for (const ns of NAMESPACES) {
    const english = loadCatalogue('en', ns);
    const keys = flattenKeys(english);
    for (const locale of LOCALES.filter((l) => l !== 'en')) {
      it(`${locale}/${ns} has every key with the same placeholders, translated`, () => {
        const catalogue: Catalogue = loadCatalogue(locale, ns);
        const missing = keys.filter((k) => lookup(catalogue, k) === undefined);
        expect(missing, `missing in ${locale}/${ns}`).toEqual([]);
        const extra = flattenKeys(catalogue).filter((k) => lookup(english, k) === undefined);
        expect(extra, `unknown keys in ${locale}/${ns}`).toEqual([]);
        const wrong = keys.filter((k) => placeholders(lookup(catalogue, k) ?? '').join() !== placeholders(lookup(english, k) ?? '').join());
        expect(wrong, `placeholders differ in ${locale}/${ns}`).toEqual([]);
        const untranslated = keys.filter((k) => {
          const text = lookup(english, k) ?? '';
          return text.length > 25 && /\s/.test(text) && lookup(catalogue, k) === text;
        });
        expect(untranslated, `left in English in ${locale}/${ns}`).toEqual([]);
      });
    }
  }
});

import { readdirSync } from 'node:fs';
import { MIN_AGE } from '@amora/contracts/core';
import { describe, expect, it } from 'vitest';
import { type Catalogue, flattenKeys, loadCatalogue, localesDir, lookup, NAMESPACES, PLURAL_CATEGORIES, pluralCategoriesOf } from './index';

const LOCALES = ['da', 'de', 'en', 'es', 'fi', 'fr', 'it', 'nl', 'no', 'pl', 'sv'];
const placeholders = (text: string) => [...new Set([...text.matchAll(/\{(\w+)\}/g)].map((m) => m[1]))].sort();
const PLURAL_KEY = new RegExp(`^(.+)_(${PLURAL_CATEGORIES.join('|')})$`);

/** A catalogue's texts by family: a plural family (`key_one`, `key_other`, …) under its base key, any other text under its own key. */
function families(catalogue: Catalogue): Map<string, Map<string, string>> {
  const byBase = new Map<string, Map<string, string>>();
  for (const key of flattenKeys(catalogue)) {
    const match = PLURAL_KEY.exec(key);
    const [base, form] = match ? [match[1], match[2]] : [key, ''];
    if (!byBase.has(base)) byBase.set(base, new Map());
    byBase.get(base)?.set(form, lookup(catalogue, key) ?? '');
  }
  return byBase;
}

const isPlural = (forms: Map<string, string>) => !forms.has('');

/**
 * Placeholders the code fills with a number that counts something ("{minutes} minutes"): the noun's form
 * depends on the number (1 Mitglied, 2 Mitglieder; pl 2 minuty, 5 minut), so such a text must be a plural
 * family counting `{count}`.
 */
const COUNTED = /^(count|limit|\w*(minutes|hours|days|weeks|months|credits|likes|photos|members|messages|results|languages))$/i;

/** Numbers that count nothing in the sentence: a page number, a year, a percentage (with %), "Likes left today: 3", "3 of 25". */
const LABELS = new Set(['page', 'year', 'percent', 'left', 'used', 'max']);

/**
 * Ages: numbers with a known range whose texts may put "years" after them ("{age} ans") only where every
 * number of the range takes the same plural form in that language; in Polish 18–21 take `many` (lat) but
 * 22–24 take `few` (lata), so a Polish text shows an age without a noun.
 */
const AGE_RANGES: Record<string, number[]> = {
  age: Array.from({ length: 99 - MIN_AGE + 1 }, (_, i) => MIN_AGE + i),
  minAge: [MIN_AGE],
};

/** The plural form the texts with `{minAge}` were written for (pl "18 lat", fr "18 ans"); a new MIN_AGE must be checked against them. */
const MIN_AGE_FORM: Record<string, string> = { pl: 'many' };

const chamberOfCommerce =
  /chamber of commerce|handelskammer|kauppakamari|handelskammar|kamer van koophandel|izb[ay] handlow|c[áa]mara de comercio|chambre de commerce|camera di commercio/i;

/** Whether a text has words of its own beside its placeholders (`{a} · {b}` is the same in every language). */
const hasWords = (text: string) => /\p{L}/u.test(text.replace(/\{\w+\}/g, ''));

describe('message catalogues', () => {
  it('exist for every locale and nothing else', () => {
    expect(readdirSync(localesDir).sort()).toEqual(LOCALES);
  });

  for (const ns of NAMESPACES) {
    const english = families(loadCatalogue('en', ns));
    for (const locale of LOCALES.filter((l) => l !== 'en')) {
      it(`${locale}/${ns} has every key with the same placeholders, translated`, () => {
        const own = families(loadCatalogue(locale, ns));
        const missing = [...english.keys()].filter((k) => !own.has(k));
        expect(missing, `missing in ${locale}/${ns}`).toEqual([]);
        const extra = [...own.keys()].filter((k) => !english.has(k));
        expect(extra, `unknown keys in ${locale}/${ns}`).toEqual([]);
        const shape = [...english].filter(([k, forms]) => isPlural(forms) !== isPlural(own.get(k) ?? forms)).map(([k]) => k);
        expect(shape, `plural in one language and not in the other, ${locale}/${ns}`).toEqual([]);
        const wrong = [...own].flatMap(([k, forms]) => {
          const expected = placeholders([...(english.get(k)?.values() ?? [])][0] ?? '').join();
          return [...forms].filter(([, text]) => placeholders(text).join() !== expected).map(([form]) => (form ? `${k}_${form}` : k));
        });
        expect(wrong, `placeholders differ in ${locale}/${ns}`).toEqual([]);
        const untranslated = [...english].flatMap(([k, forms]) =>
          [...forms]
            .filter(([form, text]) => text.length > 25 && /\s/.test(text) && hasWords(text) && own.get(k)?.get(form) === text)
            .map(([form]) => (form ? `${k}_${form}` : k)),
        );
        expect(untranslated, `left in English in ${locale}/${ns}`).toEqual([]);
      });
    }
  }
});

describe('plural forms (Intl.PluralRules: CLDR categories of each language)', () => {
  it('are the categories i18next and the server pick from', () => {
    expect(Object.fromEntries(LOCALES.map((l) => [l, pluralCategoriesOf(l).join()]))).toEqual({
      da: 'one,other',
      de: 'one,other',
      en: 'one,other',
      es: 'one,many,other',
      fi: 'one,other',
      fr: 'one,many,other',
      it: 'one,many,other',
      nl: 'one,other',
      no: 'one,other',
      pl: 'one,few,many,other',
      sv: 'one,other',
    });
  });

  for (const locale of LOCALES) {
    for (const ns of NAMESPACES) {
      it(`${locale}/${ns}: every text that shows a count has the forms ${locale} needs`, () => {
        const needed = pluralCategoriesOf(locale);
        const problems: string[] = [];
        for (const [key, forms] of families(loadCatalogue(locale, ns))) {
          if (isPlural(forms)) {
            const has = PLURAL_CATEGORIES.filter((c) => forms.has(c));
            if (has.join() !== needed.join()) problems.push(`${key}: has ${has.join(', ')}; ${locale} needs ${needed.join(', ')}`);
            for (const [form, text] of forms) if (!text.includes('{count}')) problems.push(`${key}_${form}: does not show {count}`);
            continue;
          }
          const text = forms.get('') ?? '';
          for (const name of placeholders(text)) {
            if (LABELS.has(name)) continue;
            if (COUNTED.test(name)) {
              problems.push(
                `${key}: {${name}} counts something; make it a plural family (${needed.map((c) => `_${c}`).join(', ')}) and pass the number as count`,
              );
            } else if (name in AGE_RANGES && new RegExp(`\\{${name}\\}[\\s\\u00a0]*\\p{L}`, 'u').test(text)) {
              const forms = new Set(AGE_RANGES[name].map((n) => new Intl.PluralRules(locale).select(n)));
              if (forms.size > 1)
                problems.push(`${key}: a noun after {${name}} takes different forms in ${locale} (${[...forms].join(', ')})`);
            }
          }
        }
        expect(problems).toEqual([]);
      });
    }
  }

  it(`the texts with {minAge} were written for ${MIN_AGE}: a new minimum age needs them checked`, () => {
    for (const locale of LOCALES) expect(new Intl.PluralRules(locale).select(MIN_AGE), locale).toBe(MIN_AGE_FORM[locale] ?? 'other');
  });
});

describe('language details', () => {
  it('French puts a narrow no-break space (U+202F) before ? ! : ;', () => {
    const problems: string[] = [];
    for (const ns of NAMESPACES) {
      const catalogue = loadCatalogue('fr', ns);
      for (const key of flattenKeys(catalogue)) {
        const text = lookup(catalogue, key) ?? '';
        for (const m of text.matchAll(/[?!:;]/g)) {
          const at = m.index ?? 0;
          const before = text.slice(Math.max(0, at - 2), at);
          const isUrl = m[0] === ':' && text.startsWith('//', at + 1);
          const isTime = m[0] === ':' && /\d$/.test(before) && /^\d/.test(text.slice(at + 1));
          const isPair = /[?!]$/.test(before) && /[?!]/.test(m[0]);
          if (isUrl || isTime || isPair) continue;
          const isNarrow = text[at - 1] === '\u202f' && (at < 2 || !/[\s\u00a0\u202f]/.test(text[at - 2]));
          if (!isNarrow) problems.push(`${ns}:${key}: …${JSON.stringify(text.slice(Math.max(0, at - 15), at + 1))}`);
        }
      }
    }
    expect(problems).toEqual([]);
  });

  it('the company registration number is the trade register number, never a chamber of commerce', () => {
    const problems: string[] = [];
    for (const locale of LOCALES) {
      for (const ns of NAMESPACES) {
        const catalogue = loadCatalogue(locale, ns);
        for (const key of flattenKeys(catalogue)) {
          const text = lookup(catalogue, key) ?? '';
          const isRegistrationText = key === 'footer.kvk' || text.includes('{companyKvk}');
          if (isRegistrationText && chamberOfCommerce.test(text)) problems.push(`${locale}/${ns}:${key}`);
        }
      }
    }
    expect(problems).toEqual([]);
  });

  it('Italian names the swipe game in Italian', () => {
    const problems = NAMESPACES.flatMap((ns) => {
      const catalogue = loadCatalogue('it', ns);
      return flattenKeys(catalogue).filter((key) => /swipe game/i.test(lookup(catalogue, key) ?? ''));
    });
    expect(problems).toEqual([]);
  });
});

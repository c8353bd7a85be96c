import { describe, expect, it } from 'vitest';
import { DEFAULT_LOCALE, isLocale, LOCALES, localeFromTag, localizePath, splitLocalePath } from './locales';

describe('splitLocalePath', () => {
  it('splits a locale prefix from the rest of the path', () => {
    expect(splitLocalePath('/de/members')).toEqual({ locale: 'de', rest: '/members', prefixed: true });
    expect(splitLocalePath('/nl/members/42/chat')).toEqual({ locale: 'nl', rest: '/members/42/chat', prefixed: true });
  });

  it('treats a bare locale as its home page', () => {
    expect(splitLocalePath('/de')).toEqual({ locale: 'de', rest: '/', prefixed: true });
    expect(splitLocalePath('/de/')).toEqual({ locale: 'de', rest: '/', prefixed: true });
  });

  it('answers the default locale for an unprefixed path', () => {
    expect(splitLocalePath('/members')).toEqual({ locale: 'en', rest: '/members', prefixed: false });
    expect(splitLocalePath('/')).toEqual({ locale: 'en', rest: '/', prefixed: false });
    expect(splitLocalePath('')).toEqual({ locale: 'en', rest: '/', prefixed: false });
  });

  it('does not take the default locale as a prefix', () => {
    expect(splitLocalePath('/en/members')).toEqual({ locale: 'en', rest: '/en/members', prefixed: false });
    expect(splitLocalePath('/en')).toEqual({ locale: 'en', rest: '/en', prefixed: false });
  });

  it('does not take other two-letter segments or longer words as a prefix', () => {
    expect(splitLocalePath('/xx/members')).toMatchObject({ locale: 'en', rest: '/xx/members', prefixed: false });
    expect(splitLocalePath('/DE/members')).toMatchObject({ locale: 'en', prefixed: false });
    expect(splitLocalePath('/dev/mailbox')).toMatchObject({ locale: 'en', rest: '/dev/mailbox', prefixed: false });
    expect(splitLocalePath('/detail')).toMatchObject({ locale: 'en', rest: '/detail', prefixed: false });
  });
});

describe('localizePath', () => {
  it('prefixes every locale but the default', () => {
    expect(localizePath('/members', 'de')).toBe('/de/members');
    expect(localizePath('/members', 'en')).toBe('/members');
    expect(localizePath('/', 'de')).toBe('/de');
    expect(localizePath('/', 'en')).toBe('/');
    expect(localizePath('members', 'fr')).toBe('/fr/members');
  });

  it('is undone by splitLocalePath for every locale', () => {
    for (const locale of LOCALES) {
      for (const path of ['/', '/members', '/pages/terms', '/members/7/chat']) {
        const split = splitLocalePath(localizePath(path, locale));
        expect(split.locale).toBe(locale);
        expect(split.rest).toBe(path);
        expect(split.prefixed).toBe(locale !== DEFAULT_LOCALE);
      }
    }
  });
});

describe('localeFromTag', () => {
  it.each([
    ['de-DE', 'de'],
    ['de', 'de'],
    ['DE-at', 'de'],
    ['en-GB', 'en'],
    ['nb-NO', 'no'],
    ['nn-NO', 'no'],
    ['no', 'no'],
    ['sv-SE', 'sv'],
  ])('maps %s to %s', (tag, locale) => {
    expect(localeFromTag(tag)).toBe(locale);
  });

  it.each(['xx', 'pt-BR', 'ja', '', 'd'])('answers null for the unsupported tag %j', (tag) => {
    expect(localeFromTag(tag)).toBeNull();
  });

  it('answers null for no tag', () => {
    expect(localeFromTag(null)).toBeNull();
    expect(localeFromTag(undefined)).toBeNull();
  });
});

describe('isLocale', () => {
  it('accepts supported locales only', () => {
    expect(isLocale('de')).toBe(true);
    expect(isLocale('xx')).toBe(false);
    expect(isLocale('DE')).toBe(false);
    expect(isLocale(undefined)).toBe(false);
    expect(isLocale(7)).toBe(false);
  });
});

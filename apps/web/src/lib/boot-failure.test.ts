import { LOCALES } from '@amora/contracts/core';
import { loadCatalogue, lookup } from '@amora/i18n';
import { describe, expect, it } from 'vitest';
import { bootFailureLocale, showBootFailure } from './boot-failure';

const text = (locale: string, key: string) => lookup(loadCatalogue(locale, 'common'), key);

describe('the boot-failure page (the app could not start, so no catalogue was loaded)', () => {
  it('speaks the language of the path, else the remembered one, else the browser’s, else English', () => {
    expect(bootFailureLocale('/de/members', null, ['fr-FR'])).toBe('de');
    expect(bootFailureLocale('/pl', 'sv', [])).toBe('pl');
    expect(bootFailureLocale('/members', 'sv', ['fr-FR'])).toBe('sv');
    expect(bootFailureLocale('/members', null, ['xx', 'nb-NO', 'fr'])).toBe('no');
    expect(bootFailureLocale('/', 'xx', ['ja-JP'])).toBe('en');
  });

  for (const locale of LOCALES) {
    it(`shows its message and the way home in ${locale}`, () => {
      const root = document.createElement('div');
      showBootFailure(root, locale);
      expect(root.querySelector('h1')?.textContent).toBe(text(locale, 'boot.failed'));
      const home = root.querySelector('a');
      expect(home?.textContent).toBe(text(locale, 'boot.home'));
      expect(home?.getAttribute('href')).toBe(locale === 'en' ? '/' : `/${locale}`);
      expect(root.querySelector('.status')?.textContent).toBe('500');
      expect(document.documentElement.lang).toBe(locale);
    });
  }

  it('picks the language from the address when the app calls it', () => {
    window.history.replaceState(null, '', '/it/members');
    const root = document.createElement('div');
    showBootFailure(root);
    expect(root.textContent).toContain('Torna alla home page');
    expect(root.textContent).not.toContain('Back to the home page');
  });
});

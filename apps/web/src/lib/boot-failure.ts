import { DEFAULT_LOCALE, isLocale, LOCALE_COOKIE, type Locale, localeFromTag, localizePath, splitLocalePath } from '@amora/contracts/core';
import { readCookie } from './cookies';

interface BootTexts {
  failed: string;
  home: string;
}

/**
 * The boot-failure page shows when the app could not start, often because its catalogue or code did not load,
 * so its two texts come with the entry script: the small `boot` section of every language's common catalogue,
 * picked out at build time (the rest of the catalogues stays in their own files; ~0.6 KB gzipped in all).
 */
const bootTexts = import.meta.glob<BootTexts>('../../../../packages/i18n/locales/*/common.json', { import: 'boot', eager: true });

function textsOf(locale: Locale): BootTexts {
  const of = (l: Locale) => bootTexts[`../../../../packages/i18n/locales/${l}/common.json`];
  return of(locale) ?? of(DEFAULT_LOCALE);
}

/**
 * The language of the boot-failure page: the path's locale prefix, else the remembered language (the
 * cookie the app would have redirected by), else the browser's first language we have, else the default.
 */
export function bootFailureLocale(pathname: string, cookie: string | null, languages: readonly string[]): Locale {
  const path = splitLocalePath(pathname);
  if (path.prefixed) return path.locale;
  if (isLocale(cookie)) return cookie;
  for (const tag of languages) {
    const locale = localeFromTag(tag);
    if (locale) return locale;
  }
  return path.locale;
}

/** Replaces the page with a small error page (status 500 and a link home) in the visitor's language. */
export function showBootFailure(
  root: HTMLElement | null = document.getElementById('root'),
  locale: Locale = bootFailureLocale(window.location.pathname, readCookie(LOCALE_COOKIE), navigator.languages ?? []),
): void {
  if (!root) return;
  const texts = textsOf(locale);
  document.documentElement.lang = locale;
  const main = document.createElement('main');
  main.className = 'error-page container';
  const status = document.createElement('p');
  status.className = 'status';
  status.textContent = '500';
  const heading = document.createElement('h1');
  heading.className = 'h4';
  heading.textContent = texts.failed;
  const home = document.createElement('a');
  home.href = localizePath('/', locale);
  home.textContent = texts.home;
  main.append(status, heading, home);
  root.replaceChildren(main);
}

import { LOCALE_COOKIE, LOCALE_COOKIE_DAYS, type Locale, localizePath, splitLocalePath } from '@amora/contracts/core';
import { writeCookie } from '@/lib/cookies';

/** Spec §4: a locale change stores the cookie (365 days); the same page opens in the new language. */
export function pathInLocale(pathname: string, search: string, locale: Locale): string {
  const { rest } = splitLocalePath(pathname);
  return localizePath(rest, locale) + search;
}

export function rememberLocale(locale: Locale): void {
  writeCookie(LOCALE_COOKIE, locale, LOCALE_COOKIE_DAYS);
}

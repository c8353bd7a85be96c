import { type Locale, localizePath, splitLocalePath } from '@amora/contracts/core';
import { useCallback } from 'react';
import { useLocation } from 'react-router';

export function useLocale(): Locale {
  return splitLocalePath(useLocation().pathname).locale;
}

/** Builds paths in the current locale: '/members' → '/de/members' on German pages. */
export function useLocalePath(): (path: string) => string {
  const locale = useLocale();
  return useCallback((path: string) => localizePath(path, locale), [locale]);
}

import { type Locale, type Settings, splitLocalePath } from '@amora/contracts/core';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { useLocation } from 'react-router';
import { api } from '@/lib/api-client';

export const settingsQueryKey = (locale: Locale) => ['settings', locale] as const;

/** Settings for this host in one language; the route query goes along (forced host, tracking data, lb). */
export function fetchSettings(locale: Locale, search: string = window.location.search): Promise<Settings> {
  const query = { ...Object.fromEntries(new URLSearchParams(search)), lang: locale };
  return api('GET /api/settings.php', { query });
}

/** Loaded before the first render (main.tsx) and again, in the background, after a change of language. */
export function useSettings(): Settings {
  const locale = splitLocalePath(useLocation().pathname).locale;
  const { data } = useQuery({
    queryKey: settingsQueryKey(locale),
    queryFn: () => fetchSettings(locale),
    staleTime: Number.POSITIVE_INFINITY,
    placeholderData: keepPreviousData,
  });
  return data as Settings;
}

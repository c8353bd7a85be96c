import type { SearchQuery } from '@amora/contracts';
import type { SearchWidening, Settings, User } from '@amora/contracts/core';
import { infiniteQueryOptions } from '@tanstack/react-query';
import { api } from '@/lib/api-client';
import { rememberProfileCards } from '@/shared/profiles/card-cache';

export const FILTERS = ['gender', 'country', 'countryregion', 'min_age', 'max_age'] as const;
export type Filters = Partial<Record<(typeof FILTERS)[number], string>>;
/** Where the next page starts, and the area the first page searched. */
type NextPage = { cursor: string; widened: SearchWidening | null };

/** The member's search defaults, as far as the site searches by them. */
function defaultFilters(defaults: User['search_defaults'] | undefined, fields: readonly string[]): Filters {
  if (!defaults) return {};
  const filters: Filters = {};
  if (defaults.gender && fields.includes('gender')) filters.gender = defaults.gender;
  if (fields.includes('country')) {
    filters.country = defaults.country;
    if (defaults.countryregion && fields.includes('countryregion')) filters.countryregion = defaults.countryregion;
  }
  return filters;
}

/** What /members searches for at an address: its filters, and whether it is the member's own default search. */
export interface Search {
  /** The filters the site searches by (settings.search_fields), in the order of FILTERS. */
  fields: (typeof FILTERS)[number][];
  filters: Filters;
  /** Whether the address had any filter (an empty one too: a search with every filter cleared shows everyone). */
  hasFilters: boolean;
  isDefaultSearch: boolean;
}

/**
 * The search of an address: its filters; an address without any starts from the member's search defaults (spec §3
 * search state: whom they want to meet, their country and region, from /complete-signup). The member's own
 * default search widens on the server when their area finds fewer than a screenful; a search they set themselves
 * answers as asked.
 */
export function searchOf(params: URLSearchParams, user: User | null, settings: Settings): Search {
  const fields = FILTERS.filter((f) => settings.search_fields.includes(f));
  const hasFilters = FILTERS.some((f) => params.has(f));
  const filters: Filters = hasFilters
    ? Object.fromEntries(FILTERS.filter((f) => params.get(f)).map((f) => [f, params.get(f) as string]))
    : defaultFilters(user?.search_defaults, fields);
  const isDefaultSearch = !hasFilters && Boolean(user) && Boolean(filters.country);
  return { fields, filters, hasFilters, isDefaultSearch };
}

/**
 * search.php, page by page (keyset: each page's cursor). The cards found are remembered
 * (shared/profiles/card-cache), so the profile page opened from one paints at once.
 */
export function searchQuery({ filters, isDefaultSearch }: Pick<Search, 'filters' | 'isDefaultSearch'>) {
  return infiniteQueryOptions({
    queryKey: ['search', filters, isDefaultSearch ? 'default' : 'asked'],
    queryFn: async ({ pageParam, client }) => {
      // The next pages go on in the area the first page answered (widened or not).
      const widen = pageParam ? (pageParam.widened ?? undefined) : isDefaultSearch ? 'auto' : undefined;
      // The address's filters as they are written: the server checks them (a made-up value is its 400, the page's error).
      const query = { ...filters, widen, cursor: pageParam?.cursor } as SearchQuery;
      const page = await api('GET /api/search.php', { query });
      rememberProfileCards(client, [...page.results, ...page.similar_results]);
      return page;
    },
    initialPageParam: null as NextPage | null,
    getNextPageParam: (last): NextPage | null => (last.next_cursor ? { cursor: last.next_cursor, widened: last.widened } : null),
    staleTime: 60_000,
  });
}

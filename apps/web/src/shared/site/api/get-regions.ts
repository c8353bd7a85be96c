import { queryOptions, useQuery } from '@tanstack/react-query';
import { api } from '@/lib/api-client';

const regionsQueryKey = ['regions'] as const;

/** The regions of all the site's countries, in one call (spec §7: loaded once, then cached). */
export const regionsQuery = () =>
  queryOptions({
    queryKey: regionsQueryKey,
    queryFn: () => api('GET /api/regions.php'),
    staleTime: Number.POSITIVE_INFINITY,
    gcTime: Number.POSITIVE_INFINITY,
  });

/**
 * The regions of one of the site's countries. The regions of all its countries come in one call, loaded once
 * and cached (spec §7), so changing the country asks nothing more.
 */
export function useRegions(country: string | null | undefined, { enabled = true }: { enabled?: boolean } = {}) {
  return useQuery({ ...regionsQuery(), select: (data) => (country ? (data.regions[country] ?? []) : []), enabled });
}

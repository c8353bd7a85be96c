import type { RegionsResponse } from '@amora/contracts/core';
import { useQuery } from '@tanstack/react-query';
import { api } from '@/lib/api-client';

const regionsQueryKey = ['regions'] as const;

/**
 * The regions of one of the site's countries. The regions of all its countries come in one call, loaded once
 * and cached (spec §7), so changing the country asks nothing more.
 */
export function useRegions(country: string | null | undefined, { enabled = true }: { enabled?: boolean } = {}) {
  return useQuery({
    queryKey: regionsQueryKey,
    queryFn: () => api<RegionsResponse>('/api/regions.php'),
    select: (data) => (country ? (data.regions[country] ?? []) : []),
    enabled,
    staleTime: Number.POSITIVE_INFINITY,
    gcTime: Number.POSITIVE_INFINITY,
  });
}

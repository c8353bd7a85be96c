import { queryOptions, useQuery } from '@tanstack/react-query';
import { api } from '@/lib/api-client';

const interestsQueryKey = ['interests'] as const;

/** interests.php: the interests a member of this site can pick, in the site's order (spec §7: loaded once, then cached). */
export const interestsQuery = () =>
  queryOptions({
    queryKey: interestsQueryKey,
    queryFn: () => api('GET /api/interests.php'),
    staleTime: Number.POSITIVE_INFINITY,
    gcTime: Number.POSITIVE_INFINITY,
  });

/** The interests a member of this site can pick, in the site's order. */
export function useInterests() {
  return useQuery({ ...interestsQuery(), select: (data) => data.interests });
}

import type { InterestsResponse } from '@amora/contracts/core';
import { useQuery } from '@tanstack/react-query';
import { api } from '@/lib/api-client';

const interestsQueryKey = ['interests'] as const;

/** The interests a member of this site can pick, in the site's order (spec §7: loaded once, then cached). */
export function useInterests() {
  return useQuery({
    queryKey: interestsQueryKey,
    queryFn: () => api<InterestsResponse>('/api/interests.php'),
    select: (data) => data.interests,
    staleTime: Number.POSITIVE_INFINITY,
    gcTime: Number.POSITIVE_INFINITY,
  });
}

import type { MatchFinderResponse } from '@amora/contracts/core';
import { useQuery } from '@tanstack/react-query';
import { api } from '@/lib/api-client';

export const suggestionQueryKey = ['match-finder'] as const;

/** The one suggestion the match-finder shows (null when there is nobody left to suggest). */
export function useSuggestion(isEnabled: boolean) {
  return useQuery({
    queryKey: suggestionQueryKey,
    queryFn: () => api<MatchFinderResponse>('/api/match-finder.php'),
    enabled: isEnabled,
    retry: false,
  });
}

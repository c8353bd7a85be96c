import { queryOptions, useQuery } from '@tanstack/react-query';
import { api } from '@/lib/api-client';

export const suggestionQueryKey = ['match-finder'] as const;

/** match-finder.php: the one suggestion the match-finder shows (null when there is nobody left to suggest). */
export const suggestionQuery = () =>
  queryOptions({ queryKey: suggestionQueryKey, queryFn: () => api('GET /api/match-finder.php'), retry: false });

export function useSuggestion(isEnabled: boolean) {
  return useQuery({ ...suggestionQuery(), enabled: isEnabled });
}

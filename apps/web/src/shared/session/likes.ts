import { POLL } from '@amora/contracts/core';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { api } from '@/lib/api-client';
import { usePollInterval } from './polling';
import { useUser } from './user';

export const likesQueryKey = ['likes'] as const;

/** likes.php: whom I liked and who liked me. */
export const likesQuery = () =>
  queryOptions({ queryKey: likesQueryKey, queryFn: () => api('GET /api/likes.php'), staleTime: POLL.intervalMs });

/**
 * Whom I liked (`profiles`) and who liked me (`liked_by`, with like_new), for members only; polled like the
 * user: from 5 s after load every 60 s, 300 s when push-subscribed (spec §9).
 */
export function useLikes() {
  const user = useUser();
  const interval = usePollInterval();
  return useQuery({
    ...likesQuery(),
    enabled: user !== null,
    refetchInterval: (query) => (query.state.data ? interval : false),
  });
}

/** New likes of the logged-in member (0 for visitors and while loading). */
export function useNewLikes(): number {
  return useLikes().data?.new_likes ?? 0;
}

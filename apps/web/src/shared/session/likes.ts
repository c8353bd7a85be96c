import { type LikesResponse, POLL } from '@amora/contracts/core';
import { useQuery } from '@tanstack/react-query';
import { useEffect, useState } from 'react';
import { api } from '@/lib/api-client';
import { useUser } from './user';

export const likesQueryKey = ['likes'] as const;

const fetchLikes = () => api<LikesResponse>('/api/likes.php');

/**
 * Whom I liked (`profiles`) and who liked me (`liked_by`, with like_new), for members only; polled every 60 s
 * from 5 s after load, like the user (spec §9).
 */
export function useLikes() {
  const user = useUser();
  const [isPolling, setIsPolling] = useState(false);
  useEffect(() => {
    const id = window.setTimeout(() => setIsPolling(true), POLL.startDelayMs);
    return () => window.clearTimeout(id);
  }, []);
  return useQuery({
    queryKey: likesQueryKey,
    queryFn: fetchLikes,
    enabled: user !== null,
    staleTime: POLL.intervalMs,
    refetchInterval: (query) => (isPolling && query.state.data ? POLL.intervalMs : false),
  });
}

/** New likes of the logged-in member (0 for visitors and while loading). */
export function useNewLikes(): number {
  return useLikes().data?.new_likes ?? 0;
}

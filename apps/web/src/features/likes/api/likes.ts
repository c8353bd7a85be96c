import { type AutoLikeResponse, type ClientLikeSource, type LikeResponse, type LikesResponse, POLL } from '@amora/contracts/core';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useEffect, useState } from 'react';
import { useUser } from '@/features/auth/api/user';
import { api } from '@/lib/api-client';

export const likesQueryKey = ['likes'] as const;

export const fetchLikes = () => api<LikesResponse>('/api/likes.php');

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

function useLikesMutation<TInput, TResult>(call: (input: TInput) => Promise<TResult>) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: call,
    onSettled: () => queryClient.invalidateQueries({ queryKey: likesQueryKey }),
  });
}

export const useLike = () =>
  useLikesMutation((input: { profileId: number; source: ClientLikeSource }) =>
    api<LikeResponse>('/api/like.php', { method: 'POST', body: { profile_id: input.profileId, source: input.source } }),
  );

export const useUnlike = () =>
  useLikesMutation((profileId: number) => api('/api/like.php', { method: 'DELETE', body: { profile_id: profileId } }));

/** I opened the profile of someone who liked me: their like is no longer new. */
export const useMarkSeen = () =>
  useLikesMutation((profileId: number) => api('/api/likes-seen.php', { method: 'POST', body: { profile_id: profileId } }));

export const fetchAutoLike = () => api<AutoLikeResponse>('/api/auto-like.php');

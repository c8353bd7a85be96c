import type { AutoLikeResponse, ClientLikeSource, LikeResponse } from '@amora/contracts/core';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '@/lib/api-client';
import { likesQueryKey } from '@/shared/session/likes';

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

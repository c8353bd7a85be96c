import type { ClientLikeSource } from '@amora/contracts/core';
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
    api('POST /api/like.php', { body: { profile_id: input.profileId, source: input.source } }),
  );

export const useUnlike = () => useLikesMutation((profileId: number) => api('DELETE /api/like.php', { body: { profile_id: profileId } }));

/** I opened the profile of someone who liked me: their like is no longer new. */
export const useMarkSeen = () =>
  useLikesMutation((profileId: number) => api('POST /api/likes-seen.php', { body: { profile_id: profileId } }));

export const fetchAutoLike = () => api('GET /api/auto-like.php');

import type { DiscoveryAction, SwipeGameResponse } from '@amora/contracts/core';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { ApiRequestError, api } from '@/lib/api-client';
import { likesQueryKey } from '@/shared/session/likes';
import { swipeGameQueryKey } from './get-swipe-game';

/** The likes left as the server counts them, from an answer or from the 429 of a fifth like. */
function setLikesLeft(queryClient: ReturnType<typeof useQueryClient>, likesLeft: number, resetAt: string): void {
  queryClient.setQueryData<SwipeGameResponse>(swipeGameQueryKey, (game) =>
    game ? { ...game, likes_left: likesLeft, likes_reset_at: resetAt } : game,
  );
}

/** A like (counts against the day's 4) or a skip of one card. */
export function useSwipe() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (input: { profileId: number; action: DiscoveryAction }) =>
      api('POST /api/swipe-game.php', { body: { profile_id: input.profileId, action: input.action } }),
    onSuccess: (result, input) => {
      setLikesLeft(queryClient, result.likes_left, result.likes_reset_at);
      if (input.action === 'like') void queryClient.invalidateQueries({ queryKey: likesQueryKey });
    },
    onError: (error) => {
      if (error instanceof ApiRequestError && error.code === 'swipe_limit') {
        setLikesLeft(queryClient, 0, String(error.body.likes_reset_at ?? ''));
      }
    },
  });
}

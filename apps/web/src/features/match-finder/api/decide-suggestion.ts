import type { DiscoveryAction, MatchFinderResponse } from '@amora/contracts/core';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '@/lib/api-client';
import { likesQueryKey } from '@/shared/session/likes';
import { suggestionQueryKey } from './get-suggestion';

/** Like or skip the shown suggestion; the answer carries the next one, which takes its place. */
export function useDecideSuggestion() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (input: { profileId: number; action: DiscoveryAction }) =>
      api('POST /api/match-finder.php', { body: { profile_id: input.profileId, action: input.action } }),
    onSuccess: (result, input) => {
      queryClient.setQueryData<MatchFinderResponse>(suggestionQueryKey, { profile: result.next });
      if (input.action === 'like') void queryClient.invalidateQueries({ queryKey: likesQueryKey });
    },
  });
}

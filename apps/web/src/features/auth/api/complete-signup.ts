import type { CompleteSignupInput } from '@amora/contracts/core';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '@/lib/api-client';
import { userQueryKey } from '@/shared/session/user';

/**
 * The answers of /complete-signup. What follows from them is asked again: the user (country, search defaults),
 * the own profile, the suggestions and any search made before.
 */
export function useCompleteSignup() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async (input: CompleteSignupInput) => (await api('PUT /api/complete-signup.php', { body: input })).profile,
    onSuccess: async () => {
      await queryClient.invalidateQueries({ queryKey: userQueryKey });
      queryClient.removeQueries({ queryKey: ['signup-matches'] });
      queryClient.removeQueries({ queryKey: ['search'] });
      queryClient.removeQueries({ queryKey: ['own-profile'] });
    },
  });
}

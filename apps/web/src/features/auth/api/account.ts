import type {
  DeleteAccountInput,
  LoginInput,
  MailChangeRequestInput,
  ResetDoInput,
  SignupInput,
  UserResponse,
} from '@amora/contracts/core';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '@/lib/api-client';
import { forgetPushSubscription } from '@/shared/push/push';
import { endSessionHere, forgetMemberData, setSessionUser, userQueryKey } from '@/shared/session/user';

/**
 * Mutations that return the member put it straight into the cache: the whole app sees the new state. Another
 * member than the cached one (a login after a session ended) drops what the one before was shown.
 */
function useUserMutation<TInput>(call: (input: TInput) => Promise<UserResponse>) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: call,
    onSuccess: (data) => setSessionUser(queryClient, data.user),
  });
}

export const useLogin = () => useUserMutation((input: LoginInput) => api('POST /api/user.php', { body: input }));
export const useSignup = () => useUserMutation((input: SignupInput) => api('POST /api/signup.php', { body: input }));
export const useResetPassword = () => useUserMutation((input: ResetDoInput) => api('PUT /api/password-reset.php', { body: input }));
export const useReactivate = () => useUserMutation((token: string) => api('POST /api/reactivate.php', { body: { token } }));

export function useLogout() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: () =>
      endSessionHere(async () => {
        // Before the session ends: pushes for this member stop reaching this browser.
        await forgetPushSubscription();
        return api('GET /api/logout.php');
      }),
    onSettled: () => {
      queryClient.setQueryData(userQueryKey, null);
      forgetMemberData(queryClient);
    },
  });
}

export const requestPasswordReset = (email: string) => api('POST /api/password-reset.php', { body: { email } });
export const resendActivation = () => api('POST /api/activation.php');
export const requestMailChange = (input: MailChangeRequestInput) => api('POST /api/mail-change.php', { body: input });
export const confirmMailChange = (token: string) => api('PUT /api/mail-change.php', { body: { token } });
/** The site's delete discount, asked for with the password of the deletion form (once per member). */
export const offerDeleteDiscount = (password: string) => api('POST /api/delete-discount.php', { body: { password } });
export const deleteAccount = (input: DeleteAccountInput) => endSessionHere(() => api('DELETE /api/user.php', { body: input }));

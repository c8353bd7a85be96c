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
import { forgetMemberData, setSessionUser, userQueryKey } from '@/shared/session/user';

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

export const useLogin = () => useUserMutation((input: LoginInput) => api<UserResponse>('/api/user.php', { method: 'POST', body: input }));
export const useSignup = () =>
  useUserMutation((input: SignupInput) => api<UserResponse>('/api/signup.php', { method: 'POST', body: input }));
export const useResetPassword = () =>
  useUserMutation((input: ResetDoInput) => api<UserResponse>('/api/password-reset.php', { method: 'PUT', body: input }));
export const useReactivate = () =>
  useUserMutation((token: string) => api<UserResponse>('/api/reactivate.php', { method: 'POST', body: { token } }));

export function useLogout() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: () => api('/api/logout.php'),
    onSettled: () => {
      queryClient.setQueryData(userQueryKey, null);
      forgetMemberData(queryClient);
    },
  });
}

export const requestPasswordReset = (email: string) => api('/api/password-reset.php', { method: 'POST', body: { email } });
export const resendActivation = () => api('/api/activation.php', { method: 'POST' });
export const requestMailChange = (input: MailChangeRequestInput) => api('/api/mail-change.php', { method: 'POST', body: input });
export const confirmMailChange = (token: string) =>
  api<{ ok: true; email: string }>('/api/mail-change.php', { method: 'PUT', body: { token } });
/** The site's delete discount, asked for with the password of the deletion form (once per member). */
export const offerDeleteDiscount = (password: string) =>
  api<{ code: string; value_percentage: number; expires: string }>('/api/delete-discount.php', { method: 'POST', body: { password } });
export const deleteAccount = (input: DeleteAccountInput) =>
  api<{ ok: true; reactivation_days: number }>('/api/user.php', { method: 'DELETE', body: input });

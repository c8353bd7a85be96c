import type { EndpointResponse, NotificationChannel, NotificationsDisabledReason, NotificationType } from '@amora/contracts/core';
import { queryOptions, useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '@/lib/api-client';

export type NotificationSettings = EndpointResponse<'GET /api/notifications.php'>;

const notificationSettingsQueryKey = ['notifications'] as const;

/** notifications.php: my choices per type and channel, why mail stopped (if it did), and my address. */
export const notificationSettingsQuery = () =>
  queryOptions({ queryKey: notificationSettingsQueryKey, queryFn: () => api('GET /api/notifications.php') });

/**
 * One choice changed (PUT notifications.php): shown at once, put back if the call fails; the answer is the
 * settings as they are now.
 */
export function useSavePreference() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (change: { type: NotificationType; channel: NotificationChannel; enabled: boolean }) =>
      api('PUT /api/notifications.php', { body: { preferences: [change] } }),
    onMutate: async (change) => {
      await queryClient.cancelQueries({ queryKey: notificationSettingsQueryKey });
      const before = queryClient.getQueryData<NotificationSettings>(notificationSettingsQueryKey);
      if (before) {
        queryClient.setQueryData<NotificationSettings>(notificationSettingsQueryKey, {
          ...before,
          preferences: before.preferences.map((p) =>
            p.type === change.type && p.channel === change.channel ? { ...p, enabled: change.enabled } : p,
          ),
        });
      }
      return { before };
    },
    onError: (_error, _change, context) => {
      if (context?.before) queryClient.setQueryData(notificationSettingsQueryKey, context.before);
    },
    onSuccess: (settings) => queryClient.setQueryData(notificationSettingsQueryKey, settings),
  });
}

/** Mail again for these reasons (POST notifications.php); the member's `notifications_disabled` changes with it. */
export function useResumeMail(onResumed: (settings: NotificationSettings) => void) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (reasons: NotificationsDisabledReason[]) => api('POST /api/notifications.php', { body: { reasons } }),
    onSuccess: (settings) => {
      queryClient.setQueryData(notificationSettingsQueryKey, settings);
      onResumed(settings);
    },
  });
}

/** What an unsubscribe link stops (GET unsubscribe.php); changes nothing. */
export const unsubscribeQuery = (token: string) =>
  queryOptions({ queryKey: ['unsubscribe', token], queryFn: () => api('GET /api/unsubscribe.php', { query: { t: token } }), retry: false });

/** The unsubscribe page's choice (PUT unsubscribe.php): this type of mail, or all that is not essential. */
export const chooseUnsubscribe = ({ token, scope }: { token: string; scope: 'type' | 'all' }) =>
  api('PUT /api/unsubscribe.php', { query: { t: token }, body: { scope } });

import type { EndpointBody } from '@amora/contracts/core';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { api } from '@/lib/api-client';

const noticesQueryKey = ['moderation-notices'] as const;

/** moderation.php: a moderator's warning to acknowledge, and my reports handled since I last looked. */
export function useModerationNotices() {
  return useQuery({ queryKey: noticesQueryKey, queryFn: ({ signal }) => api('GET /api/moderation.php', { signal }), staleTime: 60_000 });
}

/** I have read the warning, or the notice of my handled reports: it goes at once, and the server keeps that. */
export function useAcknowledgeNotices() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (body: EndpointBody<'POST /api/moderation.php'>) => api('POST /api/moderation.php', { body }),
    onSettled: () => queryClient.invalidateQueries({ queryKey: noticesQueryKey }),
  });
}

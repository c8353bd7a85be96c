import { CLIENT_HEADER, CLIENT_HEADER_VALUE, type EndpointBody, type EndpointResponse } from '@amora/contracts/core';
import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { ApiRequestError, api } from '@/lib/api-client';

/** Every query of the inbox (the list and the conversations): what the live channel's notices read again. */
export const inboxQueryKey = ['console', 'inbox'] as const;

/**
 * What waits, a page of it. It changes while the page is open (members write, other operators claim and answer):
 * the live channel says when (inbox-live.ts), and the list is read again every 2 minutes anyway, every 30 s while
 * the channel is down.
 */
export function useInbox(filters: { site?: number; page: number }, live: boolean) {
  return useQuery({
    queryKey: [...inboxQueryKey, 'list', filters],
    queryFn: ({ signal }) => api('GET /api/console/inbox', { signal, query: filters }),
    placeholderData: keepPreviousData,
    refetchInterval: live ? 120_000 : 30_000,
  });
}

export function useInboxConversation(conversationId: number) {
  return useQuery({
    queryKey: [...inboxQueryKey, 'conversation', conversationId],
    queryFn: ({ signal }) => api('GET /api/console/inbox/:conversationId', { signal, params: { conversationId } }),
  });
}

/** Older messages of a conversation (before a sequence). */
export function fetchOlder(conversationId: number, before: number) {
  return api('GET /api/console/inbox/:conversationId', { params: { conversationId }, query: { before } });
}

/** Claim (or renew), release, and answer; the inbox and the conversation are read again after each. */
export function useInboxActions(conversationId: number) {
  const queryClient = useQueryClient();
  const refresh = () => queryClient.invalidateQueries({ queryKey: inboxQueryKey });
  const params = { conversationId };
  return {
    claim: useMutation({ mutationFn: () => api('POST /api/console/inbox/:conversationId/claim', { params }), onSettled: refresh }),
    release: useMutation({ mutationFn: () => api('DELETE /api/console/inbox/:conversationId/claim', { params }), onSettled: refresh }),
    answer: useMutation({
      mutationFn: (text: string) => api('POST /api/console/inbox/:conversationId/messages', { params, body: { text } }),
      onSettled: refresh,
    }),
  };
}

export function useFictionalProfiles(filters: { site?: number; page: number }) {
  return useQuery({
    queryKey: ['console', 'fictional', filters],
    queryFn: ({ signal }) => api('GET /api/console/fictional-profiles', { signal, query: filters }),
    placeholderData: keepPreviousData,
  });
}

export type FictionalProfileBody = EndpointBody<'POST /api/console/fictional-profiles'>;
export type FictionalProfileEdit = EndpointBody<'PUT /api/console/fictional-profiles/:id'>;

export function useSaveFictionalProfile() {
  const queryClient = useQueryClient();
  const refresh = () => queryClient.invalidateQueries({ queryKey: ['console', 'fictional'] });
  return {
    photo: useMutation({
      mutationFn: async ({ id, file }: { id: number; file: File }) => {
        const form = new FormData();
        form.append('photo', file);
        const res = await fetch(`/api/console/fictional-profiles/${id}/photos`, {
          method: 'POST',
          body: form,
          headers: { [CLIENT_HEADER]: CLIENT_HEADER_VALUE },
          credentials: 'same-origin',
        });
        const body = await res.json().catch(() => ({ error: 'internal_error', message: 'Upload failed' }));
        if (!res.ok) throw new ApiRequestError(res.status, body);
        return body as EndpointResponse<'POST /api/console/fictional-profiles/:id/photos'>;
      },
      onSuccess: refresh,
    }),
    create: useMutation({
      mutationFn: (body: FictionalProfileBody) => api('POST /api/console/fictional-profiles', { body }),
      onSuccess: refresh,
    }),
    edit: useMutation({
      mutationFn: ({ id, body }: { id: number; body: FictionalProfileEdit }) =>
        api('PUT /api/console/fictional-profiles/:id', { params: { id }, body }),
      onSuccess: refresh,
    }),
  };
}

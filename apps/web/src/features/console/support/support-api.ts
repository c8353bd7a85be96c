import type { EndpointBody } from '@amora/contracts/core';
import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { api } from '@/lib/api-client';

/** Member support's calls (GET /api/console/members…): search, one member, their ledger and the actions. */

export function useMemberSearch(q: string, page: number) {
  return useQuery({
    queryKey: ['console', 'members', q, page],
    queryFn: ({ signal }) => api('GET /api/console/members', { signal, query: { q, page } }),
    enabled: q.length > 0,
    placeholderData: keepPreviousData,
  });
}

const memberKey = (userId: number) => ['console', 'member', userId] as const;

export function useMember(userId: number) {
  return useQuery({
    queryKey: memberKey(userId),
    queryFn: ({ signal }) => api('GET /api/console/members/:userId', { signal, params: { userId } }),
  });
}

export function useMemberLedger(userId: number, page: number) {
  return useQuery({
    queryKey: [...memberKey(userId), 'ledger', page],
    queryFn: ({ signal }) => api('GET /api/console/members/:userId/ledger', { signal, params: { userId }, query: { page } }),
    placeholderData: keepPreviousData,
  });
}

/** The console-only address of a member's photo (the console's cookie goes with it). */
export function memberPhotoUrl(userId: number, photoId: number, variant: 'large' | 'thumb'): string {
  return `/api/console/members/${userId}/photos/${photoId}?v=${variant}`;
}

export type SupportAction =
  | { kind: 'resend-activation' }
  | { kind: 'clear-lockout' }
  | { kind: 'credits'; body: EndpointBody<'POST /api/console/members/:userId/credits'> }
  | { kind: 'refund'; orderId: number; body: EndpointBody<'POST /api/console/members/:userId/orders/:orderId/refund'> }
  | { kind: 'unblock-direct-debit'; reason: string }
  | { kind: 'delete'; reason: string }
  | { kind: 'erase'; reason: string };

function run(userId: number, action: SupportAction): Promise<unknown> {
  const params = { userId };
  switch (action.kind) {
    case 'resend-activation':
      return api('POST /api/console/members/:userId/resend-activation', { params });
    case 'clear-lockout':
      return api('POST /api/console/members/:userId/clear-lockout', { params });
    case 'credits':
      return api('POST /api/console/members/:userId/credits', { params, body: action.body });
    case 'refund':
      return api('POST /api/console/members/:userId/orders/:orderId/refund', {
        params: { userId, orderId: action.orderId },
        body: action.body,
      });
    case 'unblock-direct-debit':
      return api('POST /api/console/members/:userId/unblock-direct-debit', { params, body: { reason: action.reason } });
    case 'delete':
      return api('POST /api/console/members/:userId/delete', { params, body: { reason: action.reason } });
    case 'erase':
      return api('POST /api/console/members/:userId/erase', { params, body: { reason: action.reason } });
  }
}

/** One of support's actions on the member; the member's page is read again after it. */
export function useSupportAction(userId: number) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (action: SupportAction) => run(userId, action),
    onSettled: () => queryClient.invalidateQueries({ queryKey: memberKey(userId) }),
  });
}

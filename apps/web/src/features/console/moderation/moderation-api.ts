import type { ModerationKind, ModerationQueueQuery } from '@amora/contracts';
import type { EndpointBody } from '@amora/contracts/core';
import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { api } from '@/lib/api-client';

/** The queue's filters and page, as the address holds them. */
export type QueueFilters = Partial<Omit<ModerationQueueQuery, 'page' | 'status'>> & Pick<ModerationQueueQuery, 'page' | 'status'>;

export function useModerationQueue(filters: QueueFilters) {
  return useQuery({
    queryKey: ['console', 'moderation', 'queue', filters],
    queryFn: ({ signal }) => api('GET /api/console/moderation/queue', { signal, query: filters }),
    placeholderData: keepPreviousData,
  });
}

const itemKey = (kind: ModerationKind, id: number) => ['console', 'moderation', 'item', kind, id] as const;

export function useModerationItem(kind: ModerationKind, id: number) {
  return useQuery({
    queryKey: itemKey(kind, id),
    queryFn: ({ signal }) => api('GET /api/console/moderation/items/:kind/:id', { signal, params: { kind, id } }),
  });
}

export type ModerationActionBody = EndpointBody<'POST /api/console/moderation/items/:kind/:id/actions'>;

/** An action on the item; the item and the queue are read again after it. */
export function useModerationAction(kind: ModerationKind, id: number) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (body: ModerationActionBody) => api('POST /api/console/moderation/items/:kind/:id/actions', { params: { kind, id }, body }),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: ['console', 'moderation'] }),
  });
}

export function useUndoSanction() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (id: number) => api('POST /api/console/moderation/sanctions/:id/undo', { params: { id } }),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: ['console', 'moderation'] }),
  });
}

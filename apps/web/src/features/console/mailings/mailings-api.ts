import type { Mailing } from '@amora/contracts';
import type { EndpointBody } from '@amora/contracts/core';
import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { api } from '@/lib/api-client';

/** News and promotions in the console: GET/POST/PUT /api/console/mailings… (admins write; support reads). */

const MAILINGS = ['console', 'mailings'] as const;

export function useMailings(query: { page: number; site?: number }) {
  return useQuery({
    queryKey: [...MAILINGS, 'list', query],
    queryFn: ({ signal }) => api('GET /api/console/mailings', { signal, query }),
    placeholderData: keepPreviousData,
    // The list shows how far each sending got.
    refetchInterval: (q) => (q.state.data?.mailings.some((m) => m.status === 'sending' || m.status === 'scheduled') ? 5_000 : false),
  });
}

/** While a mailing is scheduled or going out, its progress is asked for every few seconds. */
const isUnderWay = (mailing: Mailing | undefined) =>
  mailing?.status === 'scheduled' || mailing?.status === 'sending' || (mailing?.progress.queued ?? 0) > 0;

export function useMailing(id: number | null) {
  return useQuery({
    queryKey: [...MAILINGS, id],
    queryFn: ({ signal }) => api('GET /api/console/mailings/:id', { signal, params: { id: id as number } }),
    enabled: id !== null,
    refetchInterval: (q) => (isUnderWay(q.state.data) ? 3_000 : false),
  });
}

/** The site a mailing is written for: its languages (the same query as the sites pages'). */
export function useMailingSite(id: number | null) {
  return useQuery({
    queryKey: ['console', 'sites', id],
    queryFn: ({ signal }) => api('GET /api/console/sites/:id', { signal, params: { id: id as number } }),
    enabled: id !== null,
  });
}

export type MailingBody = EndpointBody<'POST /api/console/mailings'>;

/** Saves the draft: a new one (no id) or a change; answers the mailing as stored. */
export function useSaveMailing() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ id, body }: { id: number | null; body: MailingBody }) =>
      id === null ? api('POST /api/console/mailings', { body }) : api('PUT /api/console/mailings/:id', { params: { id }, body }),
    onSuccess: (mailing) => stored(queryClient, mailing),
  });
}

function stored(queryClient: ReturnType<typeof useQueryClient>, mailing: Mailing) {
  queryClient.setQueryData([...MAILINGS, mailing.id], mailing);
  return queryClient.invalidateQueries({ queryKey: [...MAILINGS, 'list'] });
}

export function usePreviewMailing() {
  return useMutation({
    mutationFn: (body: EndpointBody<'POST /api/console/mailings/preview'>) => api('POST /api/console/mailings/preview', { body }),
  });
}

export function useTestMailing() {
  return useMutation({
    mutationFn: ({ id, locale }: { id: number; locale: EndpointBody<'POST /api/console/mailings/:id/test'>['locale'] }) =>
      api('POST /api/console/mailings/:id/test', { params: { id }, body: { locale } }),
  });
}

export function useSendMailing() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ id, sendAt }: { id: number; sendAt: string | null }) =>
      api('POST /api/console/mailings/:id/send', { params: { id }, body: { send_at: sendAt } }),
    onSuccess: (mailing) => stored(queryClient, mailing),
  });
}

export function useCancelMailing() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (id: number) => api('POST /api/console/mailings/:id/cancel', { params: { id } }),
    onSuccess: (mailing) => stored(queryClient, mailing),
  });
}

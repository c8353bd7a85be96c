import type { Staff } from '@amora/contracts';
import type { EndpointBody } from '@amora/contracts/core';
import { keepPreviousData, queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { api } from '@/lib/api-client';

/** Who is signed in to the console (null: nobody): GET /api/console/me. */
export const meQueryKey = ['console', 'me'] as const;
export const meQuery = queryOptions({
  queryKey: meQueryKey,
  queryFn: async ({ signal }) => (await api('GET /api/console/me', { signal })).staff,
  staleTime: Number.POSITIVE_INFINITY,
});

/** The signed-in staff member (the console's layout renders its pages only for one). */
export function useMe(): Staff {
  const { data } = useQuery(meQuery);
  if (!data) throw new Error('The console shows its pages to signed-in staff only');
  return data;
}

export function useSignOut() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: () => api('POST /api/console/logout'),
    onSettled: () => {
      // Nothing of the staff member stays in the page: their lists go with them.
      queryClient.removeQueries({ predicate: (query) => query.queryKey[0] === 'console' && query.queryKey[1] !== 'me' });
      queryClient.setQueryData(meQueryKey, null);
    },
  });
}

const sessionsQueryKey = ['console', 'sessions'] as const;
export function useSessions() {
  return useQuery({ queryKey: sessionsQueryKey, queryFn: ({ signal }) => api('GET /api/console/sessions', { signal }) });
}
export function useEndSession() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (id: string) => api('DELETE /api/console/sessions/:id', { params: { id } }),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: sessionsQueryKey }),
  });
}

const staffQueryKey = ['console', 'staff'] as const;
export function useStaffList() {
  return useQuery({ queryKey: staffQueryKey, queryFn: ({ signal }) => api('GET /api/console/staff', { signal }) });
}

export function useAddStaff() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (body: NewStaff) => api('POST /api/console/staff', { body }),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: staffQueryKey }),
  });
}

type NewStaff = EndpointBody<'POST /api/console/staff'>;
type StaffChange = EndpointBody<'PUT /api/console/staff/:id'>;

export function useChangeStaff() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ id, change }: { id: number; change: StaffChange }) =>
      api('PUT /api/console/staff/:id', { params: { id }, body: change }),
    onSuccess: (changed) => {
      queryClient.setQueryData(staffQueryKey, (list: { staff: Staff[] } | undefined) =>
        list ? { staff: list.staff.map((one) => (one.id === changed.id ? changed : one)) } : list,
      );
      // Their own language or name, changed by themselves, shows at once.
      queryClient.setQueryData(meQueryKey, (me: Staff | null | undefined) => (me && me.id === changed.id ? changed : me));
    },
  });
}

export interface AuditFilters {
  page: number;
  object_type?: string;
  object_id?: string;
  staff_id?: number;
}
export function useAuditLog(filters: AuditFilters) {
  return useQuery({
    queryKey: ['console', 'audit', filters],
    queryFn: ({ signal }) => api('GET /api/console/audit', { signal, query: filters }),
    placeholderData: keepPreviousData,
  });
}

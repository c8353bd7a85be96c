import type { ReportQuery } from '@amora/contracts';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { api } from '@/lib/api-client';

export function useReport(query: ReportQuery) {
  return useQuery({
    queryKey: ['console', 'reports', query],
    queryFn: ({ signal }) => api('GET /api/console/reports', { signal, query }),
    placeholderData: keepPreviousData,
  });
}

/** The sites to pick from (admins read the sites' list). */
export function useReportSites() {
  return useQuery({
    queryKey: ['console', 'reports', 'sites'],
    queryFn: async ({ signal }) => (await api('GET /api/console/sites', { signal })).sites,
    staleTime: 60_000,
  });
}

/** The CSV download's address for the same query. */
export function csvUrl(query: ReportQuery): string {
  const params = new URLSearchParams();
  if (query.site) params.set('site', String(query.site));
  if (query.from) params.set('from', query.from);
  if (query.to) params.set('to', query.to);
  const search = params.toString();
  return `/api/console/reports.csv${search ? `?${search}` : ''}`;
}

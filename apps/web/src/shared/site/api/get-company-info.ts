import type { CompanyInfo } from '@amora/contracts/core';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { api } from '@/lib/api-client';
import { companyOf } from '../company-of';
import { useSettings } from './get-settings';

const companyInfoQueryKey = ['companyinfo'] as const;

/** companyinfo.php (spec §7: loaded once, then cached). */
export const companyInfoQuery = () =>
  queryOptions({
    queryKey: companyInfoQueryKey,
    queryFn: () => api('GET /api/companyinfo.php'),
    staleTime: Number.POSITIVE_INFINITY,
    gcTime: Number.POSITIVE_INFINITY,
  });

/**
 * The company behind the site and its support contacts, from companyinfo.php (spec §7: loaded once, then cached).
 * Until it answers, the same fields of the settings object stand in, so the footer paints at once and does not move.
 */
export function useCompanyInfo(): CompanyInfo {
  const settings = useSettings();
  const { data } = useQuery(companyInfoQuery());
  return data ?? companyOf(settings);
}

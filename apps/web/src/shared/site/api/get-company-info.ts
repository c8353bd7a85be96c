import { type CompanyInfo, dialablePhone, type Settings } from '@amora/contracts/core';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { api } from '@/lib/api-client';
import { useSettings } from './get-settings';

const companyInfoQueryKey = ['companyinfo'] as const;

/** The company fields the settings object carries (spec §3), in the shape of companyinfo.php. */
function companyOf(settings: Settings): CompanyInfo {
  return {
    company_id: settings.company_id,
    name: settings.company_name,
    address: settings.company_address,
    city: settings.company_city,
    country: settings.company_country,
    kvk: settings.company_kvk,
    vat_numbers: settings.company_vat_numbers,
    tradenames: settings.company_tradenames,
    added: settings.company_added,
    support_email: settings.support_email,
    support_phone: settings.support_phone,
    support_phone_dial: dialablePhone(settings.support_phone),
  };
}

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

import type { EndpointBody, Locale } from '@amora/contracts/core';
import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { api } from '@/lib/api-client';

/** Sites, companies and prices in the console (admins only): GET/PUT /api/console/sites… and discount codes. */

const SITES = ['console', 'sites'] as const;

export function useSites() {
  return useQuery({ queryKey: SITES, queryFn: ({ signal }) => api('GET /api/console/sites', { signal }) });
}

export function useSite(id: number) {
  return useQuery({ queryKey: [...SITES, id], queryFn: ({ signal }) => api('GET /api/console/sites/:id', { signal, params: { id } }) });
}

export function useSaveSite(id: number) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (body: EndpointBody<'PUT /api/console/sites/:id'>) => api('PUT /api/console/sites/:id', { params: { id }, body }),
    onSuccess: (site) => {
      queryClient.setQueryData([...SITES, id], site);
      return queryClient.invalidateQueries({ queryKey: SITES, exact: true });
    },
  });
}

export function useCompany(id: number) {
  return useQuery({
    queryKey: ['console', 'companies', id],
    queryFn: ({ signal }) => api('GET /api/console/companies/:id', { signal, params: { id } }),
  });
}

export function useSaveCompany(id: number) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (body: EndpointBody<'PUT /api/console/companies/:id'>) => api('PUT /api/console/companies/:id', { params: { id }, body }),
    onSuccess: (company) => {
      queryClient.setQueryData(['console', 'companies', id], company);
      return queryClient.invalidateQueries({ queryKey: SITES });
    },
  });
}

const packagesKey = (siteId: number) => [...SITES, siteId, 'packages'] as const;

export function usePackages(siteId: number) {
  return useQuery({
    queryKey: packagesKey(siteId),
    queryFn: ({ signal }) => api('GET /api/console/sites/:id/packages', { signal, params: { id: siteId } }),
  });
}

export type PackageBody = EndpointBody<'POST /api/console/sites/:id/packages'>;

/** Adds a package (no id) or changes one. */
export function useSavePackage(siteId: number) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ packageId, body }: { packageId: number | null; body: PackageBody }) =>
      packageId === null
        ? api('POST /api/console/sites/:id/packages', { params: { id: siteId }, body })
        : api('PUT /api/console/sites/:id/packages/:packageId', { params: { id: siteId, packageId }, body }),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: packagesKey(siteId) }),
  });
}

const methodsKey = (siteId: number) => [...SITES, siteId, 'payment-methods'] as const;

export function usePaymentMethods(siteId: number) {
  return useQuery({
    queryKey: methodsKey(siteId),
    queryFn: ({ signal }) => api('GET /api/console/sites/:id/payment-methods', { signal, params: { id: siteId } }),
  });
}

export function useSavePaymentMethods(siteId: number) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (body: EndpointBody<'PUT /api/console/sites/:id/payment-methods'>) =>
      api('PUT /api/console/sites/:id/payment-methods', { params: { id: siteId }, body }),
    onSuccess: (methods) => queryClient.setQueryData(methodsKey(siteId), methods),
  });
}

const CODES = ['console', 'discount-codes'] as const;

export function useDiscountCodes(query: { site_id?: number; all: '0' | '1'; page: number }) {
  return useQuery({
    queryKey: [...CODES, query],
    queryFn: ({ signal }) => api('GET /api/console/discount-codes', { signal, query }),
    placeholderData: keepPreviousData,
  });
}

export type DiscountCodeBody = EndpointBody<'POST /api/console/discount-codes'>;

/** Adds a code (no id) or changes one. */
export function useSaveDiscountCode() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ id, body }: { id: number | null; body: DiscountCodeBody }) => {
      if (id === null) return api('POST /api/console/discount-codes', { body });
      const { site_id: _site, ...change } = body;
      return api('PUT /api/console/discount-codes/:id', { params: { id }, body: change });
    },
    onSuccess: () => queryClient.invalidateQueries({ queryKey: CODES }),
  });
}

/**
 * The landing page drawn from the form's unsaved settings (POST …/preview, which stores nothing): asked again when
 * the draft, the language or the visit changes, the last page shown meanwhile.
 */
export function useSitePreview(id: number, draft: EndpointBody<'PUT /api/console/sites/:id'>, lang: Locale, firstVisit: boolean) {
  return useQuery({
    queryKey: [...SITES, id, 'preview', lang, firstVisit, draft],
    queryFn: ({ signal }) =>
      api('POST /api/console/sites/:id/preview', {
        signal,
        params: { id },
        query: { lang, first_visit: firstVisit ? '1' : '0' },
        body: draft,
      }),
    placeholderData: keepPreviousData,
    staleTime: Number.POSITIVE_INFINITY,
    gcTime: 0,
    retry: false,
  });
}

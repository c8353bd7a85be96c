import { keepPreviousData, queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useEffect } from 'react';
import { api } from '@/lib/api-client';
import { userQueryKey } from '@/shared/session/user';
import type { DiscountCodeView, OrderStatus, StartPaymentInput, TransactionResponse, TransactionsResponse } from './types';

const paymentsQueryKey = ['payments'] as const;

const fetchPackages = (discountcode?: string) => api('GET /api/packages.php', { query: { discountcode } });
const fetchPaymentMethods = (pkg: number, discountcode?: string) =>
  api('GET /api/paymentmethods.php', { query: { package: pkg, discountcode } });
const fetchPricing = (country?: string) => api('GET /api/pricing.php', { query: { country } });
/** transactions.php answers my orders and movements, or with an id that one order (one schema for both). */
const fetchTransactions = async (): Promise<TransactionsResponse> => {
  const answer = await api('GET /api/transactions.php');
  if ('order' in answer) throw new Error('transactions.php answered one order to the list');
  return answer;
};
const fetchTransaction = async (id: number): Promise<TransactionResponse> => {
  const answer = await api('GET /api/transactions.php', { query: { id } });
  if (!('order' in answer)) throw new Error('transactions.php answered the list to an order');
  return answer;
};
/** A code checked against an order: the discount it gives (a code that gives none fails with its error). */
export const checkDiscountCode = async (query: {
  code: string;
  package: number;
  method?: string;
}): Promise<{ discount: DiscountCodeView }> => {
  const { discount } = await api('GET /api/discountcode.php', { query });
  if (!discount) throw new Error('discountcode.php answered no discount to a code');
  return { discount };
};

/** packages.php: the packages of the member's payment country, the active discount applied. */
export const packagesQuery = () => queryOptions({ queryKey: [...paymentsQueryKey, 'packages'], queryFn: () => fetchPackages() });

/**
 * The packages of the member's payment country, with the active discount (time bonus, else the welcome discount)
 * applied. When that discount runs out while the page is open, the packages are asked for again, so no struck-through
 * price outlives its discount.
 */
export function usePackages(enabled = true) {
  const query = useQuery({ ...packagesQuery(), enabled });
  const validity = query.data?.discount?.validity;
  const { refetch } = query;
  useEffect(() => {
    if (!validity || validity <= 0) return;
    // A day at most: setTimeout's limit is about 24.8 days, and a page is not open that long.
    const id = window.setTimeout(() => void refetch(), Math.min(validity, 86_400) * 1000 + 500);
    return () => window.clearTimeout(id);
  }, [validity, refetch]);
  return query;
}

export function usePaymentMethods(pkg: number, discountcode: string | undefined) {
  return useQuery({
    queryKey: [...paymentsQueryKey, 'methods', pkg, discountcode ?? ''],
    queryFn: () => fetchPaymentMethods(pkg, discountcode),
    placeholderData: keepPreviousData,
  });
}

export function usePricing(country: string | undefined) {
  return useQuery({
    queryKey: [...paymentsQueryKey, 'pricing', country ?? ''],
    queryFn: () => fetchPricing(country),
    placeholderData: keepPreviousData,
  });
}

export function useTransactions() {
  return useQuery({ queryKey: [...paymentsQueryKey, 'transactions'], queryFn: fetchTransactions });
}

/** An order still waiting for the provider's word: the return page keeps asking. */
export const OPEN_STATUSES: OrderStatus[] = ['created', 'open', 'pending', 'authorized'];
const POLL_MS = 2_000;

/**
 * One order and its receipt (the return page of spec §4): asked for every 2 s while the provider has not decided,
 * and no more once it has. When it is paid the member is fetched again, so the credits and the premium badge show
 * everywhere at once.
 */
export function useTransaction(id: number) {
  const queryClient = useQueryClient();
  const query = useQuery({
    queryKey: [...paymentsQueryKey, 'transaction', id],
    queryFn: () => fetchTransaction(id),
    enabled: Number.isSafeInteger(id) && id > 0,
    refetchInterval: (q) => (q.state.data && OPEN_STATUSES.includes(q.state.data.order.status) ? POLL_MS : false),
    refetchIntervalInBackground: true,
  });
  const status = query.data?.order.status;
  useEffect(() => {
    if (status === 'paid') {
      void queryClient.invalidateQueries({ queryKey: userQueryKey });
      void queryClient.invalidateQueries({ queryKey: [...paymentsQueryKey, 'packages'] });
      void queryClient.invalidateQueries({ queryKey: [...paymentsQueryKey, 'transactions'] });
    }
  }, [status, queryClient]);
  return query;
}

export function useStartPayment() {
  return useMutation({
    mutationFn: (input: StartPaymentInput) => api('POST /api/payments.php', { body: input }),
  });
}

export function useRepeatOrder() {
  return useMutation({
    mutationFn: (requestId: string) => api('POST /api/repeat-order.php', { body: { request_id: requestId } }),
  });
}

/** Leaving for the provider's checkout page (an object, so a test can watch it instead of leaving). */
export const checkoutRedirect = {
  go(url: string): void {
    window.location.assign(url);
  },
};

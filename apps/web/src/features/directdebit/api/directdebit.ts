import type { DirectDebitConfirmed, DirectDebitRequest, DirectDebitStatus, DirectDebitVerification } from '@amora/contracts';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { api } from '@/lib/api-client';
import { userQueryKey } from '@/shared/session/user';

const directDebitQueryKey = ['directdebit'] as const;

const fetchDirectDebit = () => api('GET /api/directdebit.php');

/** My mandate, whether I am blocked, and my open direct debits against the limit. */
export function useDirectDebitStatus() {
  return useQuery({ queryKey: directDebitQueryKey, queryFn: fetchDirectDebit });
}

type Details = Extract<DirectDebitRequest, { step: 'details' }>;

type StepAnswer = DirectDebitVerification | DirectDebitConfirmed;

/** Steps details and resend answer the code's verification, step otp the mandate (one schema for the three). */
function verificationOf(answer: StepAnswer): DirectDebitVerification {
  if ('mandate' in answer) throw new Error('directdebit.php answered a mandate to a step that sends a code');
  return answer;
}
function confirmationOf(answer: StepAnswer): DirectDebitConfirmed {
  if (!('mandate' in answer)) throw new Error('directdebit.php answered a code to step otp');
  return answer;
}

const sendDetails = async (body: Details) => verificationOf(await api('POST /api/directdebit.php', { body }));
const resendCode = async (verification: number) =>
  verificationOf(await api('POST /api/directdebit.php', { body: { step: 'resend', verification } }));
const confirmCode = async (verification: number, otp: string) =>
  confirmationOf(await api('POST /api/directdebit.php', { body: { step: 'otp', verification, otp } }));

export function useSendDetails() {
  return useMutation({ mutationFn: sendDetails });
}

export function useResendCode() {
  return useMutation({ mutationFn: resendCode });
}

/** The code; once the mandate is made, my direct-debit status is asked for again. */
export function useConfirmCode() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ verification, otp }: { verification: number; otp: string }) => confirmCode(verification, otp),
    onSuccess: ({ mandate }) => {
      // The page shows the new account at once, before the status is asked for again.
      queryClient.setQueryData<DirectDebitStatus>(directDebitQueryKey, (old) => (old ? { ...old, mandate } : old));
      return queryClient.invalidateQueries({ queryKey: directDebitQueryKey });
    },
  });
}

/** The package the member came for (from /credits): its credits and price, when it is one of their country's. */
export function usePackage(id: number | null) {
  return useQuery({
    queryKey: ['payments', 'packages'],
    queryFn: () => api('GET /api/packages.php'),
    enabled: id !== null,
    select: (data) => {
      const pkg = data.packages.find((p) => p.id === id);
      return pkg ? { ...pkg, currency: pkg.currency || data.currency } : null;
    },
  });
}

/**
 * Starts the payment of a package by direct debit with the member's mandate (no checkout): the order is pending
 * until the bank collects it. `requestId` is the attempt's id: a retry answers the same order.
 */
export function useStartDirectDebitPayment() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ pkg, requestId }: { pkg: number; requestId: string }) =>
      api('POST /api/payments.php', { body: { package: pkg, method: 'directdebit', request_id: requestId } }),
    onSuccess: () => {
      void queryClient.invalidateQueries({ queryKey: directDebitQueryKey });
      void queryClient.invalidateQueries({ queryKey: userQueryKey });
    },
  });
}

import { DISCOUNT_ERRORS } from '@amora/contracts';
import { useTranslation } from 'react-i18next';
import { ApiRequestError } from '@/lib/api-client';
import { errorText } from '@/lib/error-text';

/** The codes of a refusal the page explains in its own words (payments: checkout.errors.*). */
const KNOWN_ERRORS = new Set<string>([
  ...DISCOUNT_ERRORS,
  'package_not_found',
  'method_unavailable',
  'direct_debit_blocked',
  'direct_debit_limit',
  'mandate_required',
  'payment_provider_unavailable',
  'discount_reserved',
]);

/** The member's own order still open at the provider that holds the discount (a discount_reserved refusal). */
export function heldOrderOf(error: unknown): { id: number; checkoutUrl: string | null } | null {
  if (!(error instanceof ApiRequestError) || error.code !== 'discount_reserved') return null;
  const { order_id: id, checkout_url: url } = error.body as { order_id?: unknown; checkout_url?: unknown };
  if (typeof id !== 'number' || !Number.isSafeInteger(id)) return null;
  return { id, checkoutUrl: typeof url === 'string' && url ? url : null };
}

export function usePaymentErrorText(): (error: unknown) => string {
  const { t } = useTranslation('payments');
  const { t: tCommon } = useTranslation();
  return (error: unknown) =>
    error instanceof ApiRequestError && KNOWN_ERRORS.has(error.code) ? t(`checkout.errors.${error.code}`) : errorText(tCommon, error);
}

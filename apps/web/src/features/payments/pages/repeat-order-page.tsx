import { useEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Button, buttonClass } from '@/components/ui/button';
import { EmptyState } from '@/components/ui/empty-state';
import { ApiRequestError } from '@/lib/api-client';
import { errorText } from '@/lib/error-text';
import { LocalLink } from '@/shared/site/local-link';
import { usePageTitle } from '@/shared/site/use-page-title';
import { useRepeatOrder } from '../api/payments';
import { useContinuePayment } from '../components/continue-payment';
import { MembersOnly } from '../components/members-only';
import { CoinIcon } from '../components/parts';
import '../components/payments.css';

const OWN_ERRORS = new Set([
  'direct_debit_blocked',
  'direct_debit_limit',
  'method_unavailable',
  'package_not_found',
  'mandate_required',
  'payment_provider_unavailable',
]);

/**
 * /credits/repeat-order (spec §2): the last order again in one step, with the same package and method, then on
 * to the provider's checkout (or the result, for a payment with a mandate). A retry after a failure sends the
 * same request id, so it can never make two orders.
 */
function RepeatOrderPage() {
  const { t } = useTranslation('payments');
  const { t: tCommon } = useTranslation();
  usePageTitle(t('checkout.repeat.title'));
  const repeat = useRepeatOrder();
  const continuePayment = useContinuePayment();
  const [requestId] = useState(() => crypto.randomUUID());
  const started = useRef(false);
  const run = () => repeat.mutate(requestId, { onSuccess: continuePayment });
  // biome-ignore lint/correctness/useExhaustiveDependencies: once, when the page opens
  useEffect(() => {
    if (started.current) return;
    started.current = true;
    run();
  }, []);

  const error = repeat.error;
  if (error instanceof ApiRequestError && error.code === 'no_previous_order') {
    return (
      <main id="main" className="container pay-page py-4">
        <h1 className="visually-hidden">{t('checkout.repeat.title')}</h1>
        <EmptyState
          title={t('checkout.repeat.none')}
          text={t('checkout.repeat.noneText')}
          icon={<CoinIcon size={32} />}
          titleAs="h2"
          testId="no-previous-order"
          action={
            <LocalLink to="/credits" className={buttonClass()}>
              {t('checkout.toPackages')}
            </LocalLink>
          }
        />
      </main>
    );
  }
  return (
    <main id="main" className="container pay-page py-4">
      <div className="pay-result" data-testid="repeat-order-page">
        <h1 className="h4">{t('checkout.repeat.title')}</h1>
        {error ? (
          <>
            <p className="alert alert-danger" role="alert" data-testid="repeat-error">
              {t('checkout.repeat.failed')}{' '}
              {error instanceof ApiRequestError && OWN_ERRORS.has(error.code)
                ? t(`checkout.errors.${error.code}`)
                : errorText(tCommon, error)}
            </p>
            <div className="d-flex flex-wrap gap-2 justify-content-center">
              <Button onClick={run} isLoading={repeat.isPending}>
                {t('checkout.repeat.retry')}
              </Button>
              <LocalLink to="/credits" className={buttonClass({ variant: 'outline-primary' })}>
                {t('checkout.toPackages')}
              </LocalLink>
            </div>
          </>
        ) : (
          <p className="d-flex align-items-center justify-content-center gap-2 mb-0" role="status">
            <span className="spinner-border spinner-border-sm text-primary" aria-hidden="true" />
            {repeat.isSuccess && repeat.data.checkout_url ? t('checkout.redirecting') : t('checkout.repeat.working')}
          </p>
        )}
      </div>
    </main>
  );
}

export function Component() {
  return (
    <MembersOnly>
      <RepeatOrderPage />
    </MembersOnly>
  );
}

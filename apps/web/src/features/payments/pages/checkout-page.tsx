import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate, useParams } from 'react-router';
import { Button, buttonClass } from '@/components/ui/button';
import { EmptyState } from '@/components/ui/empty-state';
import { Skeleton, SkeletonRegion } from '@/components/ui/skeleton';
import { ApiRequestError } from '@/lib/api-client';
import { useIsPhone } from '@/lib/use-media-query';
import { LocalLink } from '@/shared/site/local-link';
import { useLocalePath } from '@/shared/site/use-locale';
import { usePageTitle } from '@/shared/site/use-page-title';
import { checkDiscountCode, checkoutRedirect, usePackages, usePaymentMethods, useStartPayment } from '../api/payments';
import type { CreditPackage } from '../api/types';
import { useContinuePayment } from '../components/continue-payment';
import { DiscountField } from '../components/discount-field';
import { MembersOnly } from '../components/members-only';
import { MethodList } from '../components/method-list';
import { useMoney } from '../components/money';
import { CoinIcon, useMethodName } from '../components/parts';
import { heldOrderOf, usePaymentErrorText } from '../components/payment-errors';
import '../components/payments.css';

function Checkout({
  pkg,
  initialMethod,
  activeDiscount,
}: {
  pkg: CreditPackage;
  initialMethod: string | null;
  /** The member's active discount (time bonus, else welcome), applied from the start. */
  activeDiscount: { code: string; percent: number } | null;
}) {
  const { t } = useTranslation('payments');
  const money = useMoney();
  const methodName = useMethodName();
  const navigate = useNavigate();
  const localize = useLocalePath();
  const paymentError = usePaymentErrorText();
  const isPhone = useIsPhone();
  const [code, setCode] = useState<{ code: string; percent: number } | null>(null);
  const [isActiveOn, setIsActiveOn] = useState(activeDiscount !== null);
  const applied = code ?? (isActiveOn ? activeDiscount : null);
  const codeToSend = applied?.code;
  const methods = usePaymentMethods(pkg.id, codeToSend);
  const [selected, setSelected] = useState<string | null>(initialMethod);
  const list = methods.data?.methods ?? [];
  const method = list.find((m) => m.name === selected) ?? null;
  const start = useStartPayment();
  const continuePayment = useContinuePayment();
  // One id per attempt: a retry of the same choice is the same order; another choice is a new attempt.
  const [requestId, setRequestId] = useState(() => crypto.randomUUID());
  // biome-ignore lint/correctness/useExhaustiveDependencies: a new attempt whenever the choice changes
  useEffect(() => {
    setRequestId(crypto.randomUUID());
    start.reset();
  }, [selected, codeToSend]);

  // Back from the provider's checkout, a page kept by the browser (back/forward cache) still shows "redirecting":
  // Pay can be pressed again (the same choice continues the same payment).
  // biome-ignore lint/correctness/useExhaustiveDependencies: reset is stable
  useEffect(() => {
    const shown = (event: PageTransitionEvent) => {
      if (event.persisted) start.reset();
    };
    window.addEventListener('pageshow', shown);
    return () => window.removeEventListener('pageshow', shown);
  }, []);

  // Only one method: nothing to choose.
  useEffect(() => {
    if (!selected && list.length === 1) setSelected(list[0].name);
  }, [list, selected]);

  const select = (name: string) => {
    setSelected(name);
    navigate(localize(`/credits/${pkg.id}/${name}`), { replace: true, preventScrollReset: true });
  };

  const applyCode = async (value: string): Promise<string | null> => {
    try {
      const { discount } = await checkDiscountCode({ code: value, package: pkg.id, method: selected ?? undefined });
      setCode({ code: discount.code, percent: discount.value_percentage });
      return null;
    } catch (error) {
      return paymentError(error);
    }
  };

  const pay = () => {
    if (!method) return;
    if (method.name === 'directdebit' && method.needs_mandate) {
      navigate(localize(`/directdebit?package=${pkg.id}`));
      return;
    }
    start.mutate(
      { package: pkg.id, method: method.name, discountcode: codeToSend, request_id: requestId },
      {
        onSuccess: continuePayment,
        onError: (error) => {
          if (error instanceof ApiRequestError && error.code === 'mandate_required') navigate(localize(`/directdebit?package=${pkg.id}`));
          if (error instanceof ApiRequestError && error.code === 'method_unavailable') void methods.refetch();
        },
      },
    );
  };

  const amount = method?.amount ?? pkg.discounted_price ?? pkg.price;
  const fee = method?.fee ?? 0;
  const discountMinor = Math.max(0, pkg.price + fee - amount);
  const isLeaving = start.isSuccess && start.data.checkout_url !== null;
  const heldOrder = start.isError ? heldOrderOf(start.error) : null;

  const payBlock = (
    <>
      {start.isError && (
        <div className="alert alert-danger py-2" role="alert" data-testid="pay-error">
          {paymentError(start.error)}
          {heldOrder?.checkoutUrl && (
            <a
              href={heldOrder.checkoutUrl}
              className={buttonClass({ variant: 'outline-primary', size: 'sm', isBlock: true, className: 'mt-2' })}
              onClick={(event) => {
                event.preventDefault();
                if (heldOrder.checkoutUrl) checkoutRedirect.go(heldOrder.checkoutUrl);
              }}
              data-testid="continue-held"
            >
              {t('checkout.continueHeld')}
            </a>
          )}
          {heldOrder && !heldOrder.checkoutUrl && (
            <LocalLink
              to={`/transactions/${heldOrder.id}`}
              className={buttonClass({ variant: 'outline-primary', size: 'sm', isBlock: true, className: 'mt-2' })}
              data-testid="continue-held"
            >
              {t('checkout.continueHeld')}
            </LocalLink>
          )}
        </div>
      )}
      <Button
        isBlock
        size="lg"
        onClick={pay}
        disabled={!method || methods.isFetching}
        isLoading={start.isPending || isLeaving}
        data-testid="pay-button"
      >
        {method
          ? method.name === 'directdebit' && method.needs_mandate
            ? t('checkout.payWith', { method: methodName(method.name) })
            : t('checkout.pay', { amount: money(amount, method.currency) })
          : t('checkout.chooseMethod')}
      </Button>
      {isLeaving && (
        <p className="small text-body-secondary mt-2 mb-0" role="status">
          {t('checkout.redirecting')}
        </p>
      )}
    </>
  );

  return (
    <div className="pay-checkout-wrap">
      <div className="pay-checkout">
        <div className="pay-checkout-main">
          <section className="pay-panel pay-chosen" data-testid="chosen-package">
            <span className="pay-chosen-icon" aria-hidden="true">
              <CoinIcon size={26} />
            </span>
            <div className="me-auto">
              <span className="d-block small text-body-secondary">{t('checkout.package')}</span>
              <strong className="fs-5">{t('credits.packageCredits', { count: pkg.credits })}</strong>
            </div>
            <LocalLink to="/credits" className="small">
              {t('checkout.back')}
            </LocalLink>
          </section>
          {methods.isPending ? (
            <SkeletonRegion label={t('checkout.methodsLoading')} className="pay-methods">
              {[0, 1, 2].map((i) => (
                <div className="pay-method" key={i} aria-hidden="true">
                  <Skeleton shape="rect" width={48} height={32} />
                  <Skeleton width="40%" />
                </div>
              ))}
            </SkeletonRegion>
          ) : methods.isError ? (
            <div className="alert alert-danger" role="alert">
              {paymentError(methods.error)}
            </div>
          ) : list.length === 0 ? (
            <div className="alert alert-info" role="status" data-testid="no-methods">
              {t('checkout.noMethods')}
            </div>
          ) : (
            <MethodList methods={list} selected={method ? method.name : null} onSelect={select} />
          )}
        </div>
        <aside className="pay-checkout-side">
          <section className="pay-panel" aria-labelledby="pay-summary-title" data-testid="summary">
            <h2 className="h6" id="pay-summary-title">
              {t('checkout.summary')}
            </h2>
            <dl className="pay-summary">
              <div>
                <dt>{t('checkout.price')}</dt>
                <dd>{money(pkg.price, pkg.currency)}</dd>
              </div>
              {discountMinor > 0 && (
                <div className="text-success">
                  <dt>{t('checkout.discount')}</dt>
                  <dd data-testid="summary-discount">−{money(discountMinor, pkg.currency)}</dd>
                </div>
              )}
              {fee > 0 && (
                <div>
                  <dt>{t('checkout.feeLine')}</dt>
                  <dd data-testid="summary-fee">{money(fee, pkg.currency)}</dd>
                </div>
              )}
              <div className="pay-summary-total">
                <dt>{t('checkout.total')}</dt>
                <dd data-testid="summary-total">{money(amount, method?.currency ?? pkg.currency)}</dd>
              </div>
            </dl>
            <div className="mb-3">
              <DiscountField
                applied={applied}
                standing={applied ? null : (activeDiscount?.code ?? null)}
                onApply={applyCode}
                onRemove={() => {
                  setCode(null);
                  setIsActiveOn(false);
                }}
              />
            </div>
            {!isPhone && payBlock}
            <p className="small text-body-secondary mt-3 mb-0">{t('checkout.terms')}</p>
          </section>
        </aside>
      </div>
      {isPhone && (
        <div className="pay-sticky" data-testid="pay-bar">
          {payBlock}
        </div>
      )}
    </div>
  );
}

/**
 * /credits/{id}/{paymentmethod?} (spec §2): the methods the provider offers for this package (logo, fee), the
 * discount code, the total, and Pay, which starts the order and leaves for the provider's checkout. A method in
 * the address is chosen already; choosing one puts it there.
 */
function CheckoutPage() {
  const { t } = useTranslation('payments');
  usePageTitle(t('checkout.title'));
  const params = useParams();
  const id = Number(params.id);
  const packages = usePackages();
  const pkg = packages.data?.packages.find((p) => p.id === id);
  const active = packages.data?.discount;
  return (
    <main id="main" className="container pay-page py-3 py-md-4">
      <h1 className="h3 mb-3">{t('checkout.title')}</h1>
      {packages.isPending && (
        <SkeletonRegion label={t('checkout.methodsLoading')} className="pay-checkout">
          <div className="pay-checkout-main">
            <Skeleton shape="rect" height={72} className="mb-3" />
            <Skeleton shape="rect" height={200} />
          </div>
          <div className="pay-checkout-side">
            <Skeleton shape="rect" height={260} />
          </div>
        </SkeletonRegion>
      )}
      {packages.isError && (
        <div className="alert alert-danger" role="alert">
          {t('credits.loadError')}
        </div>
      )}
      {packages.isSuccess && !pkg && (
        <EmptyState
          title={t('checkout.notFound')}
          icon={<CoinIcon size={32} />}
          testId="package-not-found"
          action={
            <LocalLink to="/credits" className={buttonClass()}>
              {t('checkout.toPackages')}
            </LocalLink>
          }
        />
      )}
      {pkg && (
        <Checkout
          key={pkg.id}
          pkg={pkg}
          initialMethod={params.paymentmethod ?? null}
          activeDiscount={
            active && !active.expired && pkg.discounted_price !== null ? { code: active.code, percent: active.value_percentage } : null
          }
        />
      )}
    </main>
  );
}

export function Component() {
  return (
    <MembersOnly>
      <CheckoutPage />
    </MembersOnly>
  );
}

import type { DirectDebitMandate, DirectDebitStatus, DirectDebitVerification } from '@amora/contracts';
import { LOCALE_INFO } from '@amora/contracts/core';
import { type ReactNode, useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Navigate, useLocation, useNavigate, useSearchParams } from 'react-router';
import { Button, buttonClass } from '@/components/ui/button';
import { Skeleton, SkeletonRegion, SkeletonText } from '@/components/ui/skeleton';
import { useToast } from '@/components/ui/toast';
import { ApiRequestError } from '@/lib/api-client';
import { useUser } from '@/shared/session/user';
import { useSettings } from '@/shared/site/api/get-settings';
import { LocalLink } from '@/shared/site/local-link';
import { useLocale, useLocalePath } from '@/shared/site/use-locale';
import { usePageTitle } from '@/shared/site/use-page-title';
import { useDirectDebitStatus, usePackage, useStartDirectDebitPayment } from '../api/directdebit';
import { CodeStep } from '../components/code-step';
import { DetailsForm } from '../components/details-form';
import '../components/directdebit.css';

type Phase = { step: 'overview' } | { step: 'form' } | { step: 'code'; verification: DirectDebitVerification };

/** The package id of `?package=`, or null. */
function packageOf(value: string | null): number | null {
  const id = value && /^\d{1,9}$/.test(value) ? Number(value) : null;
  return id && id > 0 ? id : null;
}

function BankIcon() {
  return (
    <svg viewBox="0 0 24 24" width="28" height="28" fill="currentColor" aria-hidden="true" focusable="false">
      <path d="M12 2 2 7v2h20V7zm-7 9v7h3v-7zm5.5 0v7h3v-7zm5.5 0v7h3v-7zM2 20v2h20v-2z" />
    </svg>
  );
}

function Money({ minor, currency }: { minor: number; currency: string }) {
  const locale = useLocale();
  let text: string;
  try {
    const digits = new Intl.NumberFormat('en', { style: 'currency', currency }).resolvedOptions().maximumFractionDigits ?? 2;
    text = new Intl.NumberFormat(LOCALE_INFO[locale].iso, { style: 'currency', currency }).format(minor / 10 ** digits);
  } catch {
    text = `${(minor / 100).toFixed(2)} ${currency}`;
  }
  return <>{text}</>;
}

/** The package the member came to pay, in one line: "100 credits · € 19,99". */
function PackageLine({ packageId }: { packageId: number }) {
  const { t } = useTranslation('payments');
  const pkg = usePackage(packageId);
  if (!pkg.data) return null;
  return (
    <p className="dd-package mb-0" data-testid="directdebit-package">
      {t('directDebit.package', { count: pkg.data.credits })}
      {' · '}
      <strong>
        <Money minor={pkg.data.discounted_price ?? pkg.data.price} currency={pkg.data.currency} />
      </strong>
    </p>
  );
}

function MandateCard({ mandate }: { mandate: DirectDebitMandate }) {
  const { t } = useTranslation('payments');
  const locale = useLocale();
  return (
    <div className="dd-mandate" data-testid="directdebit-mandate">
      <span className="dd-mandate-icon">
        <BankIcon />
      </span>
      <div>
        <p className="fw-semibold mb-0">{t('directDebit.mandate.account', { last4: mandate.iban_last4 })}</p>
        <p className="small text-body-secondary mb-0">
          {mandate.account_holder} ·{' '}
          {t('directDebit.mandate.since', {
            date: new Intl.DateTimeFormat(LOCALE_INFO[locale].iso, { dateStyle: 'long' }).format(new Date(mandate.created_at)),
          })}
        </p>
      </div>
    </div>
  );
}

/** Blocked after a chargeback, or at the limit of open direct debits: the member's way on. */
function Refusal({
  kind,
  status,
  packageId,
}: {
  kind: 'blocked' | 'limit';
  status: DirectDebitStatus | undefined;
  packageId: number | null;
}) {
  const { t } = useTranslation('payments');
  const otherMethods = packageId ? `/credits/${packageId}` : '/credits';
  return (
    <div
      className={`alert ${kind === 'blocked' ? 'alert-danger' : 'alert-warning'} mb-0`}
      role="alert"
      data-testid={kind === 'blocked' ? 'directdebit-blocked' : 'directdebit-limit'}
    >
      <p className="fw-semibold mb-1">
        {kind === 'blocked' ? t('directDebit.blocked') : t('directDebit.limit', { count: status?.limit ?? 0 })}
      </p>
      <p className="mb-3">{kind === 'blocked' ? t('directDebit.blockedHelp') : t('directDebit.limitHelp')}</p>
      <div className="d-flex flex-wrap gap-2">
        <LocalLink to={otherMethods} className={buttonClass({ variant: kind === 'blocked' ? 'danger' : 'primary' })}>
          {t('directDebit.otherMethods')}
        </LocalLink>
        {kind === 'limit' && (
          <LocalLink to="/transactions" className={buttonClass({ variant: 'outline-primary' })}>
            {t('directDebit.myPayments')}
          </LocalLink>
        )}
      </div>
    </div>
  );
}

function PageSkeleton({ label }: { label: string }) {
  return (
    <SkeletonRegion label={label} className="dd-panel">
      <Skeleton width="50%" height={24} />
      <div className="mt-3">
        <SkeletonText lines={2} />
      </div>
      <Skeleton width="100%" height={44} className="mt-3" />
      <Skeleton width="100%" height={44} className="mt-3" />
      <Skeleton width={180} height={48} className="mt-4" />
    </SkeletonRegion>
  );
}

/**
 * /directdebit (spec §2, §3's direct-debit form): a member confirms a bank account once with a code sent by SMS,
 * and then pays by direct debit without a checkout. With `?package=ID` (from the credits pages) the payment of that
 * package starts as soon as the account is there, and the member goes on to its return page.
 */
function DirectDebitPage() {
  const { t } = useTranslation('payments');
  usePageTitle(t('directDebit.title'));
  const settings = useSettings();
  const toast = useToast();
  const navigate = useNavigate();
  const localize = useLocalePath();
  const [params] = useSearchParams();
  const packageId = packageOf(params.get('package'));
  const status = useDirectDebitStatus();
  const pay = useStartDirectDebitPayment();
  const [phase, setPhase] = useState<Phase>({ step: 'overview' });
  const [refused, setRefused] = useState<'blocked' | 'limit' | null>(null);
  const [requestId] = useState(() => crypto.randomUUID());

  const data = status.data;
  const refusal = refused ?? (data?.blocked ? 'blocked' : data && data.open >= data.limit ? 'limit' : null);

  const startPayment = () => {
    if (!packageId) return;
    pay.mutate(
      { pkg: packageId, requestId },
      {
        onSuccess: (answer) => {
          if (answer.checkout_url) window.location.assign(answer.checkout_url);
          else navigate(localize(`/transactions/${answer.order.id}`));
        },
        onError: (error) => {
          if (error instanceof ApiRequestError && error.code === 'direct_debit_blocked') setRefused('blocked');
          if (error instanceof ApiRequestError && error.code === 'direct_debit_limit') setRefused('limit');
          if (error instanceof ApiRequestError && error.code === 'mandate_required') setPhase({ step: 'form' });
        },
      },
    );
  };

  // No account yet: straight to the form.
  useEffect(() => {
    if (data && !data.mandate && phase.step === 'overview') setPhase({ step: 'form' });
  }, [data, phase.step]);

  const payError =
    pay.error &&
    !(pay.error instanceof ApiRequestError && ['direct_debit_blocked', 'direct_debit_limit', 'mandate_required'].includes(pay.error.code))
      ? t('directDebit.errors.payment')
      : null;
  const isPaying = pay.isPending || (pay.isSuccess && !pay.error);

  let content: ReactNode;
  if (status.isPending) {
    content = <PageSkeleton label={t('directDebit.loading')} />;
  } else if (status.isError || !data) {
    content = (
      <div className="alert alert-danger d-flex flex-wrap align-items-center gap-3" role="alert">
        <span className="me-auto">{t('directDebit.loadError')}</span>
        <Button variant="outline-danger" size="sm" onClick={() => void status.refetch()}>
          {t('directDebit.retry')}
        </Button>
      </div>
    );
  } else if (refusal) {
    content = <Refusal kind={refusal} status={data} packageId={packageId} />;
  } else if (isPaying) {
    content = (
      <div className="dd-panel text-center py-5" role="status" data-testid="directdebit-paying">
        <span className="spinner-border text-primary mb-3" aria-hidden="true" />
        <p className="mb-0">{t('directDebit.paying')}</p>
      </div>
    );
  } else if (phase.step === 'code') {
    content = (
      <section className="dd-panel" aria-labelledby="dd-code-title">
        <h2 className="h5 mb-3" id="dd-code-title">
          {t('directDebit.code.title')}
        </h2>
        <CodeStep
          verification={phase.verification}
          onBlocked={() => setRefused('blocked')}
          onChangeDetails={() => setPhase({ step: 'form' })}
          onConfirmed={() => {
            toast.show({ message: t('directDebit.confirmed'), variant: 'success', testId: 'directdebit-confirmed' });
            setPhase({ step: 'overview' });
            if (packageId) startPayment();
          }}
        />
      </section>
    );
  } else if (phase.step === 'form' || !data.mandate) {
    content = (
      <section className="dd-panel" aria-labelledby="dd-form-title">
        <h2 className="h5 mb-3" id="dd-form-title">
          {t('directDebit.form.title')}
        </h2>
        {data.mandate && (
          <Button variant="link" className="px-0 mb-2" onClick={() => setPhase({ step: 'overview' })} testId="directdebit-keep">
            {t('directDebit.mandate.keep', { last4: data.mandate.iban_last4 })}
          </Button>
        )}
        <DetailsForm
          country={data.phone_country}
          onSent={(verification) => setPhase({ step: 'code', verification })}
          onBlocked={() => setRefused('blocked')}
          onLimit={() => setRefused('limit')}
        />
      </section>
    );
  } else {
    content = (
      <section className="dd-panel" aria-labelledby="dd-mandate-title">
        <h2 className="h5 mb-3" id="dd-mandate-title">
          {t('directDebit.mandate.title')}
        </h2>
        <MandateCard mandate={data.mandate} />
        {payError && (
          <div className="alert alert-danger mt-3 mb-0" role="alert">
            {payError}
          </div>
        )}
        <div className="d-flex flex-wrap align-items-center gap-2 mt-4">
          {packageId ? (
            <Button size="lg" className="px-5" onClick={startPayment} isLoading={pay.isPending} testId="directdebit-pay">
              {t('directDebit.mandate.pay')}
            </Button>
          ) : (
            <LocalLink to="/credits" className={buttonClass({ size: 'lg', className: 'px-5' })} data-testid="directdebit-buy">
              {t('directDebit.mandate.buy')}
            </LocalLink>
          )}
          <Button variant="link" onClick={() => setPhase({ step: 'form' })} testId="directdebit-another">
            {t('directDebit.mandate.another')}
          </Button>
        </div>
      </section>
    );
  }

  return (
    <main id="main" className="container dd-page py-3 py-md-4">
      <header className="dd-hero">
        <span className="dd-hero-icon">
          <BankIcon />
        </span>
        <div>
          <h1 className="h3 mb-1">{t('directDebit.title')}</h1>
          <p className="mb-0 text-body-secondary">{t('directDebit.intro', { site: settings.name })}</p>
          {packageId && <PackageLine packageId={packageId} />}
        </div>
      </header>
      {content}
    </main>
  );
}

/** A members' page: a visitor goes to the login, which brings them back here. */
export function Component() {
  const user = useUser();
  const localize = useLocalePath();
  const location = useLocation();
  if (!user) {
    return <Navigate to={`${localize('/login')}?redirect=${encodeURIComponent(`${location.pathname}${location.search}`)}`} replace />;
  }
  return <DirectDebitPage />;
}

import { type ReactNode, useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useParams } from 'react-router';
import { Badge, type BadgeVariant } from '@/components/ui/badge';
import { Button, buttonClass } from '@/components/ui/button';
import { EmptyState } from '@/components/ui/empty-state';
import { Skeleton, SkeletonRegion, SkeletonText } from '@/components/ui/skeleton';
import { ApiRequestError } from '@/lib/api-client';
import { LocalLink } from '@/shared/site/local-link';
import { usePageTitle } from '@/shared/site/use-page-title';
import { OPEN_STATUSES, useTransaction, useTransactions } from '../api/payments';
import type { Movement, Order, OrderStatus } from '../api/types';
import { MembersOnly } from '../components/members-only';
import { CARD_METHODS } from '../components/method-names';
import { useIntlLocale, useMoney } from '../components/money';
import { CheckIcon, CoinIcon, MethodLogo, PremiumBadge, useMethodName } from '../components/parts';
import { ReceiptView } from '../components/receipt';
import '../components/payments.css';

const STATUS_VARIANT: Record<OrderStatus, BadgeVariant> = {
  created: 'light',
  open: 'light',
  pending: 'warning',
  authorized: 'warning',
  paid: 'success',
  failed: 'danger',
  canceled: 'dark',
  expired: 'dark',
  charged_back: 'danger',
};

const REASONS = ['purchase', 'signup', 'message', 'gift', 'photo', 'refund', 'bonus', 'chargeback', 'demo'];

function useDateTime(): (iso: string) => string {
  const locale = useIntlLocale();
  return (iso: string) => new Intl.DateTimeFormat(locale, { dateStyle: 'medium', timeStyle: 'short' }).format(new Date(iso));
}

export function StatusBadge({ status }: { status: OrderStatus }) {
  const { t } = useTranslation('payments');
  return (
    <Badge variant={STATUS_VARIANT[status]} className="pay-status">
      {t(`transactions.status.${status}`)}
    </Badge>
  );
}

function OrderRow({ order }: { order: Order }) {
  const { t } = useTranslation('payments');
  const money = useMoney();
  const dateTime = useDateTime();
  const methodName = useMethodName();
  return (
    <li>
      <LocalLink to={`/transactions/${order.id}`} className="pay-row" data-testid={`order-${order.id}`}>
        <MethodLogo name={order.method} />
        <span className="pay-row-main">
          <strong>{t('transactions.orderCredits', { count: order.credits })}</strong>
          <span className="small text-body-secondary">
            {dateTime(order.created_at)} · {methodName(order.method)}
          </span>
        </span>
        <span className="pay-row-end">
          <strong>{money(order.amount, order.currency)}</strong>
          <StatusBadge status={order.status} />
        </span>
      </LocalLink>
    </li>
  );
}

function MovementRow({ movement }: { movement: Movement }) {
  const { t } = useTranslation('payments');
  const dateTime = useDateTime();
  const reason = REASONS.includes(movement.reason) ? movement.reason : 'other';
  return (
    <li className="pay-row" data-testid={`movement-${movement.id}`}>
      <span className={`pay-delta-icon${movement.delta < 0 ? ' is-spent' : ''}`} aria-hidden="true">
        <CoinIcon size={18} />
      </span>
      <span className="pay-row-main">
        <strong>{t(`transactions.reasons.${reason}`)}</strong>
        <span className="small text-body-secondary">{dateTime(movement.created_at)}</span>
      </span>
      <span className="pay-row-end">
        <strong className={movement.delta < 0 ? 'text-body' : 'text-success'}>
          {movement.delta > 0 ? '+' : movement.delta < 0 ? '−' : ''}
          {Math.abs(movement.delta)}
        </strong>
        <span className="small text-body-secondary">{t('transactions.balanceAfter', { balance: movement.balance_after })}</span>
      </span>
    </li>
  );
}

/** /transactions: the member's payments (each leading to its result and receipt) and every change of their credits. */
function History() {
  const { t } = useTranslation('payments');
  usePageTitle(t('transactions.title'));
  const history = useTransactions();
  return (
    <main id="main" className="container pay-page py-3 py-md-4">
      <h1 className="h3 mb-3">{t('transactions.title')}</h1>
      {history.isPending && (
        <SkeletonRegion label={t('transactions.loading')} className="pay-history">
          {[0, 1].map((i) => (
            <div className="pay-panel" key={i} aria-hidden="true">
              <Skeleton width="30%" height={22} className="mb-3" />
              <SkeletonText lines={3} />
            </div>
          ))}
        </SkeletonRegion>
      )}
      {history.isError && (
        <div className="alert alert-danger d-flex align-items-center gap-3" role="alert">
          <span className="me-auto">{t('transactions.loadError')}</span>
          <Button variant="outline-danger" size="sm" onClick={() => void history.refetch()}>
            {t('transactions.retry')}
          </Button>
        </div>
      )}
      {history.data && history.data.credit_debt > 0 && (
        <p className="alert alert-warning" data-testid="credit-debt">
          {t('transactions.debt', { count: history.data.credit_debt })}
        </p>
      )}
      {history.data && (
        <div className="pay-history">
          <section className="pay-panel" aria-labelledby="pay-orders-title" data-testid="orders">
            <h2 className="h5" id="pay-orders-title">
              {t('transactions.payments')}
            </h2>
            {history.data.orders.length === 0 ? (
              <EmptyState
                title={t('transactions.noPayments')}
                text={t('transactions.noPaymentsText')}
                icon={<CoinIcon size={32} />}
                titleAs="h3"
                action={
                  <LocalLink to="/credits" className={buttonClass()}>
                    {t('transactions.buy')}
                  </LocalLink>
                }
              />
            ) : (
              <ul className="pay-rows list-unstyled mb-0">
                {history.data.orders.map((order) => (
                  <OrderRow key={order.id} order={order} />
                ))}
              </ul>
            )}
          </section>
          <section className="pay-panel" aria-labelledby="pay-movements-title" data-testid="movements">
            <h2 className="h5" id="pay-movements-title">
              {t('transactions.movements')}
            </h2>
            {history.data.movements.length === 0 ? (
              <p className="text-body-secondary mb-0">{t('transactions.noMovements')}</p>
            ) : (
              <ul className="pay-rows list-unstyled mb-0">
                {history.data.movements.map((movement) => (
                  <MovementRow key={movement.id} movement={movement} />
                ))}
              </ul>
            )}
          </section>
        </div>
      )}
    </main>
  );
}

function ResultIcon({ kind }: { kind: 'paid' | 'failed' | 'pending' }) {
  return (
    <span className={`pay-result-icon is-${kind}`} aria-hidden="true">
      {kind === 'paid' ? (
        <CheckIcon size={34} />
      ) : kind === 'failed' ? (
        <svg viewBox="0 0 24 24" width="34" height="34" aria-hidden="true" focusable="false">
          <path d="M7 7l10 10M17 7 7 17" fill="none" stroke="currentColor" strokeWidth="2.5" strokeLinecap="round" />
        </svg>
      ) : (
        <span className="spinner-border" />
      )}
    </span>
  );
}

/** A payment with a saved card that the bank declined (spec §8): no checkout was involved. */
function isFailedRecurringCard(order: Order): boolean {
  return order.recurring && CARD_METHODS.includes(order.method);
}

/**
 * /transactions/{id}: the result of a payment (spec §4): loading, pending (asked again every 2 s), completed
 * (the credits added, Premium, the receipt), failed or cancelled (another method offered; after a declined saved
 * card, card entry or PayPal, spec §8).
 */
/**
 * How long an order may stay open on the return page before it offers the way back to the checkout: right after
 * paying the provider's word takes a few seconds, and a payer who sees "Continue to the payment page" then may
 * think they must pay again.
 */
export const CONTINUE_AFTER_MS = 10_000;

function useAfter(ms: number): boolean {
  const [done, setDone] = useState(false);
  useEffect(() => {
    const timer = setTimeout(() => setDone(true), ms);
    return () => clearTimeout(timer);
  }, [ms]);
  return done;
}

function Result({ id }: { id: number }) {
  const { t } = useTranslation('payments');
  usePageTitle(t('transactions.receipt.title'));
  const query = useTransaction(id);
  const offerCheckout = useAfter(CONTINUE_AFTER_MS);
  const money = useMoney();
  const data = query.data;
  const order = data?.order;

  const isValidId = Number.isSafeInteger(id) && id > 0;
  let body: ReactNode;
  if (!order) {
    if (query.isError || !isValidId) {
      const notFound = !isValidId || (query.error instanceof ApiRequestError && query.error.status === 404);
      body = (
        <>
          <ResultIcon kind="failed" />
          <h1 className="h4">{notFound ? t('transactions.result.notFound') : t('transactions.loadError')}</h1>
          <div className="pay-result-actions">
            {!notFound && <Button onClick={() => void query.refetch()}>{t('transactions.retry')}</Button>}
            <LocalLink to="/transactions" className={buttonClass({ variant: 'outline-primary' })}>
              {t('transactions.result.toHistory')}
            </LocalLink>
          </div>
        </>
      );
    } else {
      body = (
        <SkeletonRegion label={t('transactions.result.checking')}>
          <Skeleton shape="circle" width={72} height={72} className="mb-3" />
          <Skeleton width="60%" height={28} className="mx-auto mb-2" />
          <SkeletonText lines={2} />
        </SkeletonRegion>
      );
    }
  } else if (OPEN_STATUSES.includes(order.status)) {
    body = (
      <div role="status" data-testid="result-pending">
        <ResultIcon kind="pending" />
        <h1 className="h4">{t('transactions.result.pendingTitle')}</h1>
        {order.method === 'directdebit' || order.method === 'banktransfer' ? (
          // These take working days, not seconds: the page says so instead of asking the member to wait.
          <p>{t(order.method === 'directdebit' ? 'transactions.result.pendingDirectDebit' : 'transactions.result.pendingBankTransfer')}</p>
        ) : (
          <>
            <p>{t('transactions.result.pendingText')}</p>
            <p className="small text-body-secondary">{t('transactions.result.pendingLong')}</p>
          </>
        )}
        {offerCheckout && order.status === 'open' && order.checkout_url && (
          <a href={order.checkout_url} className={buttonClass({ variant: 'outline-primary' })}>
            {t('transactions.result.continue')}
          </a>
        )}
      </div>
    );
  } else if (order.status === 'paid') {
    body = (
      <div data-testid="result-paid">
        <ResultIcon kind="paid" />
        <h1 className="h4">{t('transactions.result.paidTitle')}</h1>
        <p className="fs-5 mb-2">{t('transactions.result.paidText', { count: order.credits })}</p>
        <p className="d-flex flex-wrap align-items-center justify-content-center gap-2">
          <PremiumBadge />
          <span className="text-body-secondary">{t('transactions.result.premiumNow')}</span>
        </p>
        <div className="pay-result-actions">
          <LocalLink to="/chats" className={buttonClass()}>
            {t('transactions.result.startChatting')}
          </LocalLink>
          <LocalLink to="/members" className={buttonClass({ variant: 'outline-primary' })}>
            {t('transactions.result.search')}
          </LocalLink>
        </div>
      </div>
    );
  } else if (order.status === 'charged_back') {
    body = (
      <div data-testid="result-charged-back">
        <ResultIcon kind="failed" />
        <h1 className="h4">{t('transactions.result.chargedBackTitle')}</h1>
        <p>{t('transactions.result.chargedBackText')}</p>
      </div>
    );
  } else if (isFailedRecurringCard(order)) {
    body = (
      <div role="alert" data-testid="result-recurring-failed">
        <ResultIcon kind="failed" />
        <h1 className="h4">{t('transactions.result.recurringFailedTitle')}</h1>
        <p>{t('transactions.result.recurringFailedText')}</p>
        <div className="pay-result-actions">
          <LocalLink to={`/credits/${order.package_id}/creditcard`} className={buttonClass()}>
            {t('transactions.result.enterCard')}
          </LocalLink>
          <LocalLink to={`/credits/${order.package_id}/paypal`} className={buttonClass({ variant: 'outline-primary' })}>
            {t('transactions.result.payPal')}
          </LocalLink>
        </div>
      </div>
    );
  } else {
    body = (
      <div role="alert" data-testid="result-failed">
        <ResultIcon kind="failed" />
        <h1 className="h4">{t('transactions.result.failedTitle')}</h1>
        <p>{t('transactions.result.failedText')}</p>
        <div className="pay-result-actions">
          <LocalLink to={`/credits/${order.package_id}`} className={buttonClass()} data-testid="other-method">
            {t('transactions.result.otherMethod')}
          </LocalLink>
        </div>
      </div>
    );
  }

  return (
    <main id="main" className="container pay-page py-3 py-md-4">
      <div className="pay-result" data-status={order?.status ?? 'loading'}>
        {body}
        {order && (
          <p className="pay-result-order small text-body-secondary mb-0">
            {t('transactions.orderCredits', { count: order.credits })} · {money(order.amount, order.currency)}{' '}
            <StatusBadge status={order.status} />
          </p>
        )}
      </div>
      {order?.status === 'paid' && data?.receipt && <ReceiptView order={order} receipt={data.receipt} />}
      <p className="text-center mt-3">
        <LocalLink to="/transactions">{t('transactions.result.toHistory')}</LocalLink>
      </p>
    </main>
  );
}

function TransactionsPage() {
  const params = useParams();
  return params.id ? <Result key={params.id} id={Number(params.id)} /> : <History />;
}

export function Component() {
  return (
    <MembersOnly>
      <TransactionsPage />
    </MembersOnly>
  );
}

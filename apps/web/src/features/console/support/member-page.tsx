import { type MemberDetail, SUPPORT_CREDIT_ADJUST_MAX, SUPPORT_REFUND_LIMIT_MINOR } from '@amora/contracts';
import { type FormEvent, type KeyboardEvent, type ReactNode, useId, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useNavigate, useParams } from 'react-router';
import { Button } from '@/components/ui/button';
import { Dialog } from '@/components/ui/dialog';
import { useMe } from '../api/console';
import { consoleErrorText } from '../console-error';
import { formatConsoleTime } from '../shell/format';
import { useConsoleTitle } from '../shell/use-console-title';
import { memberPhotoUrl, type SupportAction, useMember, useMemberLedger, useSupportAction } from './support-api';

const TABS = ['account', 'profile', 'ledger', 'orders', 'sessions', 'reports', 'sanctions'] as const;
type Tab = (typeof TABS)[number];

function money(minor: number, currency: string, language: string): string {
  return new Intl.NumberFormat(language, { style: 'currency', currency }).format(minor / 100);
}

/** A definition list's row. */
function Row({ label, children }: { label: string; children: ReactNode }) {
  return (
    <>
      <dt className="col-sm-4 text-body-secondary fw-normal">{label}</dt>
      <dd className="col-sm-8">{children}</dd>
    </>
  );
}

function When({ at }: { at: string | null }) {
  const { i18n } = useTranslation('console');
  return <span className="text-nowrap">{at ? formatConsoleTime(at, i18n.language) : '—'}</span>;
}

/** What one action asks before it runs: a confirmation, a reason for the audit log, an amount where it takes one. */
interface DialogSpec {
  title: string;
  message?: string;
  danger?: boolean;
  reason?: boolean;
  amount?: { label: string; hint?: string; optional?: boolean; min: number; max: number; step?: string };
  toAction: (values: { reason: string; amount: number | null }) => SupportAction;
  /** The account is gone once it is done. */
  erases?: boolean;
}

function ActionDialog({ spec, userId, onClose }: { spec: DialogSpec; userId: number; onClose: (done: boolean) => void }) {
  const { t } = useTranslation('console');
  const action = useSupportAction(userId);
  const ids = useId();
  const submit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const data = new FormData(event.currentTarget);
    const raw = String(data.get('amount') ?? '').trim();
    const amount = raw === '' ? null : Number(raw);
    action.mutate(spec.toAction({ reason: String(data.get('reason') ?? '').trim(), amount }), { onSuccess: () => onClose(true) });
  };
  return (
    <Dialog isOpen onClose={() => onClose(false)} labelledBy={`${ids}-title`} testId="support-dialog">
      <form onSubmit={submit}>
        <div className="modal-header border-0 pb-0">
          <h2 className="modal-title h5" id={`${ids}-title`}>
            {spec.title}
          </h2>
        </div>
        <div className="modal-body">
          {spec.message && <p>{spec.message}</p>}
          {spec.amount && (
            <div className="mb-3">
              <label className="form-label" htmlFor={`${ids}-amount`}>
                {spec.amount.label}
              </label>
              <input
                id={`${ids}-amount`}
                name="amount"
                type="number"
                className="form-control"
                required={!spec.amount.optional}
                min={spec.amount.min}
                max={spec.amount.max}
                step={spec.amount.step ?? '1'}
                data-autofocus
              />
              {spec.amount.hint && <div className="form-text">{spec.amount.hint}</div>}
            </div>
          )}
          {spec.reason && (
            <div className="mb-3">
              <label className="form-label" htmlFor={`${ids}-reason`}>
                {t('support.actions.reason')}
              </label>
              <input
                id={`${ids}-reason`}
                name="reason"
                className="form-control"
                required
                minLength={3}
                maxLength={300}
                {...(spec.amount ? {} : { 'data-autofocus': true })}
              />
              <div className="form-text">{t('support.actions.reasonHint')}</div>
            </div>
          )}
          {action.isError && (
            <div className="alert alert-danger mb-0" role="alert">
              {consoleErrorText(t, action.error)}
            </div>
          )}
        </div>
        <div className="modal-footer border-0">
          <Button
            variant="light"
            onClick={() => onClose(false)}
            testId="support-cancel"
            {...(spec.amount || spec.reason ? {} : { 'data-autofocus': true })}
          >
            {t('support.actions.cancel')}
          </Button>
          <Button type="submit" variant={spec.danger ? 'danger' : 'primary'} isLoading={action.isPending} testId="support-confirm">
            {t('support.actions.confirm')}
          </Button>
        </div>
      </form>
    </Dialog>
  );
}

function AccountCard({ member }: { member: MemberDetail }) {
  const { t } = useTranslation('console');
  const { account, login_lockout: lockout, direct_debit: dd } = member;
  const yes = (value: boolean) => (value ? t('support.yes') : t('support.no'));
  return (
    <dl className="row mb-0" data-testid="member-account">
      <Row label={t('support.account.email')}>{account.email}</Row>
      <Row label={t('support.account.status')}>{t(`support.status.${account.status}` as never)}</Row>
      <Row label={t('support.account.site')}>
        {account.site.name} <span className="text-body-secondary small">({account.site.domain})</span>
      </Row>
      <Row label={t('support.account.language')}>{account.language}</Row>
      <Row label={t('support.account.signup')}>
        <When at={account.signup_date} />
      </Row>
      <Row label={t('support.account.confirmed')}>
        <When at={account.confirmed_at} />
      </Row>
      {account.deleted_at && (
        <Row label={t('support.account.deleted')}>
          <When at={account.deleted_at} /> · {t('support.account.reactivationUntil')} <When at={member.reactivation_until} />
        </Row>
      )}
      <Row label={t('support.account.notifications')}>
        {account.notifications_disabled.length === 0 ? t('support.account.notificationsOn') : account.notifications_disabled.join(', ')}
      </Row>
      <Row label={t('support.account.paid')}>{yes(account.paid_user)}</Row>
      <Row label={t('support.account.balance')}>
        <span data-testid="member-balance">{account.credits}</span>
        {account.credit_debt > 0 && <span className="text-danger ms-2">{t('support.account.debt', { count: account.credit_debt })}</span>}
      </Row>
      <Row label={t('support.account.directDebit')}>
        {dd.blocked ? (
          <span className="badge text-bg-danger">{t('support.account.directDebitBlocked')}</span>
        ) : (
          t('support.account.directDebitAllowed')
        )}
        {dd.mandates.map((m) => (
          <div key={m.id} className="small text-body-secondary">
            {t('support.account.mandate', { last4: m.iban_last4, status: m.status })}
          </div>
        ))}
      </Row>
      <Row label={t('support.account.lockout')}>
        <span data-testid="member-lockout">
          {lockout.locked
            ? t('support.account.lockoutLocked', {
                attempts: lockout.attempts,
                max: lockout.max,
                count: Math.max(1, Math.ceil(lockout.retry_after_seconds / 60)),
              })
            : t('support.account.lockoutFree', { attempts: lockout.attempts, max: lockout.max })}
        </span>
      </Row>
    </dl>
  );
}

function ProfileCard({ member }: { member: MemberDetail }) {
  const { t } = useTranslation('console');
  const profile = member.profile;
  if (!profile) return <p className="text-body-secondary">{t('support.profile.none')}</p>;
  return (
    <>
      <dl className="row">
        <Row label={t('support.profile.name')}>
          {profile.name} <span className="text-body-secondary small">p{profile.id}</span>
        </Row>
        <Row label={t('support.profile.status')}>{profile.status}</Row>
        <Row label={t('support.profile.place')}>{[profile.city, profile.region, profile.country].filter(Boolean).join(', ')}</Row>
        <Row label={t('support.profile.birthDate')}>{profile.birth_date}</Row>
        <Row label={t('support.profile.gender')}>{profile.gender ?? '—'}</Row>
        <Row label={t('support.profile.invisible')}>{profile.is_invisible ? t('support.yes') : t('support.no')}</Row>
        <Row label={t('support.profile.about')}>
          <span className="text-break" style={{ whiteSpace: 'pre-wrap' }}>
            {profile.about || '—'}
          </span>
        </Row>
        <Row label={t('support.profile.fields')}>
          <pre className="small mb-0">{JSON.stringify(profile.fields, null, 2)}</pre>
        </Row>
      </dl>
      <h3 className="h6">{t('support.profile.photos')}</h3>
      {profile.photos.length === 0 ? (
        <p className="text-body-secondary">{t('support.profile.noPhotos')}</p>
      ) : (
        <div className="d-flex flex-wrap gap-2">
          {profile.photos.map((photo) => (
            <a
              key={photo.id}
              href={memberPhotoUrl(member.account.user_id, photo.id, 'large')}
              target="_blank"
              rel="noreferrer"
              className="text-center small"
            >
              <img
                src={memberPhotoUrl(member.account.user_id, photo.id, 'thumb')}
                alt={t('support.profile.photoAlt', { id: photo.id, status: photo.status })}
                width={96}
                height={128}
                className="rounded border d-block"
                style={{ objectFit: 'cover' }}
              />
              {photo.status}
              {photo.is_main && ` · ${t('support.profile.main')}`}
            </a>
          ))}
        </div>
      )}
    </>
  );
}

function LedgerCard({ userId }: { userId: number }) {
  const { t } = useTranslation('console');
  const [page, setPage] = useState(1);
  const ledger = useMemberLedger(userId, page);
  if (ledger.isError) return <div className="alert alert-danger">{consoleErrorText(t, ledger.error)}</div>;
  if (!ledger.data) return <div className="spinner-border" role="status" aria-label={t('loading')} />;
  if (ledger.data.entries.length === 0) return <p className="text-body-secondary">{t('support.ledger.empty')}</p>;
  return (
    <>
      <table className="table console-table table-sm" data-testid="member-ledger">
        <thead>
          <tr>
            <th scope="col">{t('support.ledger.when')}</th>
            <th scope="col" className="text-end">
              {t('support.ledger.delta')}
            </th>
            <th scope="col" className="text-end">
              {t('support.ledger.balance')}
            </th>
            <th scope="col">{t('support.ledger.reason')}</th>
          </tr>
        </thead>
        <tbody>
          {ledger.data.entries.map((entry) => (
            <tr key={entry.id}>
              <td className="small">
                <When at={entry.created_at} />
              </td>
              <td className={`text-end ${entry.delta < 0 ? 'text-danger' : 'text-success'}`}>
                {entry.delta > 0 ? `+${entry.delta}` : entry.delta}
              </td>
              <td className="text-end">{entry.balance_after}</td>
              <td className="small">
                <code>{entry.reason}</code>
              </td>
            </tr>
          ))}
        </tbody>
      </table>
      <nav className="console-pager" aria-label={t('support.pages')}>
        <Button variant="outline-dark" size="sm" disabled={page <= 1} onClick={() => setPage(page - 1)}>
          {t('support.previous')}
        </Button>
        <span>{t('support.page', { page: ledger.data.page, pages: ledger.data.pages })}</span>
        <Button variant="outline-dark" size="sm" disabled={ledger.data.page >= ledger.data.pages} onClick={() => setPage(page + 1)}>
          {t('support.next')}
        </Button>
      </nav>
    </>
  );
}

type Order = MemberDetail['orders'][number];

function OrdersCard({ member, onRefund }: { member: MemberDetail; onRefund: ((order: Order) => void) | null }) {
  const { t, i18n } = useTranslation('console');
  if (member.orders.length === 0) return <p className="text-body-secondary">{t('support.orders.empty')}</p>;
  return (
    <div className="table-responsive">
      <table className="table console-table table-sm align-middle" data-testid="member-orders">
        <thead>
          <tr>
            <th scope="col">{t('support.orders.id')}</th>
            <th scope="col">{t('support.orders.when')}</th>
            <th scope="col">{t('support.orders.method')}</th>
            <th scope="col" className="text-end">
              {t('support.orders.credits')}
            </th>
            <th scope="col" className="text-end">
              {t('support.orders.amount')}
            </th>
            <th scope="col">{t('support.orders.status')}</th>
            <th scope="col">
              <span className="visually-hidden">{t('support.actions.title')}</span>
            </th>
          </tr>
        </thead>
        <tbody>
          {member.orders.map((order) => (
            <tr key={order.id} data-testid={`order-${order.id}`}>
              <td>{order.id}</td>
              <td className="small">
                <When at={order.created_at} />
              </td>
              <td className="small">{order.method}</td>
              <td className="text-end">{order.credits}</td>
              <td className="text-end text-nowrap">
                {money(order.amount_minor, order.currency, i18n.language)}
                {order.refunded_minor > 0 && (
                  <div className="small text-danger">
                    {t('support.orders.refunded', { amount: money(order.refunded_minor, order.currency, i18n.language) })}
                  </div>
                )}
              </td>
              <td className="small">{order.status}</td>
              <td className="text-end">
                {onRefund && order.status === 'paid' && order.refunded_minor < order.amount_minor && (
                  <Button variant="outline-danger" size="sm" onClick={() => onRefund(order)} testId={`refund-${order.id}`}>
                    {t('support.orders.refund')}
                  </Button>
                )}
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}

function SessionsCard({ member }: { member: MemberDetail }) {
  const { t } = useTranslation('console');
  if (member.sessions.length === 0) return <p className="text-body-secondary">{t('support.sessions.empty')}</p>;
  return (
    <table className="table console-table table-sm">
      <thead>
        <tr>
          <th scope="col">{t('support.sessions.device')}</th>
          <th scope="col">{t('support.sessions.started')}</th>
          <th scope="col">{t('support.sessions.lastSeen')}</th>
        </tr>
      </thead>
      <tbody>
        {member.sessions.map((s) => (
          <tr key={s.id}>
            <td className="small text-break">{s.device || '—'}</td>
            <td className="small">
              <When at={s.created_at} />
            </td>
            <td className="small">
              <When at={s.last_seen_at} />
            </td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}

type Report = MemberDetail['complaints'][number];

function ReportList({ title, reports }: { title: string; reports: Report[] }) {
  const { t } = useTranslation('console');
  return (
    <section className="mb-3">
      <h3 className="h6">{title}</h3>
      {reports.length === 0 ? (
        <p className="text-body-secondary small">{t('support.reports.empty')}</p>
      ) : (
        <ul className="list-unstyled small mb-0">
          {reports.map((r) => (
            <li key={r.id} className="mb-1">
              <code>{r.reference}</code> · {r.kind} · {r.subject || r.category} · {r.status}
              {r.resolution && ` (${r.resolution})`} · <When at={r.created_at} />
            </li>
          ))}
        </ul>
      )}
    </section>
  );
}

function SanctionsCard({ member }: { member: MemberDetail }) {
  const { t } = useTranslation('console');
  if (member.sanctions.length === 0) return <p className="text-body-secondary">{t('support.sanctions.empty')}</p>;
  return (
    <table className="table console-table table-sm">
      <thead>
        <tr>
          <th scope="col">{t('support.sanctions.kind')}</th>
          <th scope="col">{t('support.sanctions.reason')}</th>
          <th scope="col">{t('support.sanctions.when')}</th>
          <th scope="col">{t('support.sanctions.until')}</th>
          <th scope="col">{t('support.sanctions.lifted')}</th>
        </tr>
      </thead>
      <tbody>
        {member.sanctions.map((s) => (
          <tr key={s.id}>
            <td>{s.kind}</td>
            <td className="small text-break">{s.reason || '—'}</td>
            <td className="small">
              <When at={s.created_at} />
            </td>
            <td className="small">
              <When at={s.until} />
            </td>
            <td className="small">
              <When at={s.lifted_at} />
            </td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}

/** One member as support sees them: cards by tab, and (support, admins) the actions, each confirmed first. */
export function MemberPage() {
  const { t, i18n } = useTranslation('console');
  const userId = Number(useParams().userId);
  const me = useMe();
  const navigate = useNavigate();
  const member = useMember(userId);
  const [tab, setTab] = useState<Tab>('account');
  const [dialog, setDialog] = useState<DialogSpec | null>(null);
  const [notice, setNotice] = useState<string | null>(null);
  const ids = useId();
  useConsoleTitle(member.data ? member.data.account.email : t('support.title'));
  const canAct = me.role !== 'moderator';
  const isAdmin = me.role === 'admin';

  const onTabKey = (event: KeyboardEvent<HTMLDivElement>) => {
    const at = TABS.indexOf(tab);
    const next = event.key === 'ArrowRight' ? at + 1 : event.key === 'ArrowLeft' ? at - 1 : null;
    if (next === null) return;
    event.preventDefault();
    const chosen = TABS[(next + TABS.length) % TABS.length];
    setTab(chosen);
    document.getElementById(`${ids}-tab-${chosen}`)?.focus();
  };

  if (member.isPending) return <div className="spinner-border" role="status" aria-label={t('loading')} />;
  if (member.isError)
    return (
      <>
        <Link to="..">{t('support.back')}</Link>
        <div className="alert alert-danger mt-3" role="alert">
          {consoleErrorText(t, member.error)}
        </div>
      </>
    );
  const data = member.data;
  const email = data.account.email;
  const open = (spec: DialogSpec) => {
    setNotice(null);
    setDialog(spec);
  };
  const limit = money(SUPPORT_REFUND_LIMIT_MINOR, 'EUR', i18n.language);
  const refund = (order: Order) => {
    const remaining = order.amount_minor - order.refunded_minor;
    open({
      title: t('support.actions.refundTitle', { id: order.id }),
      danger: true,
      reason: true,
      amount: {
        label: t('support.actions.refundAmount', { currency: order.currency }),
        hint: t(isAdmin ? 'support.actions.refundHintAdmin' : 'support.actions.refundHint', {
          remaining: money(remaining, order.currency, i18n.language),
          maxAmount: limit,
        }),
        optional: true,
        min: 0.01,
        max: remaining / 100,
        step: '0.01',
      },
      toAction: ({ reason, amount }) => ({
        kind: 'refund',
        orderId: order.id,
        body: { reason, ...(amount === null ? {} : { amount_minor: Math.round(amount * 100) }) },
      }),
    });
  };

  return (
    <>
      <Link to={`..${window.location.search}`} relative="path">
        {t('support.back')}
      </Link>
      <h1 className="h3 mt-2 mb-1" data-testid="member-title">
        {data.profile?.name ?? email}
      </h1>
      <p className="text-body-secondary">
        {email} · {data.account.site.name} · {t('support.accountId', { id: data.account.user_id })}
      </p>
      {!canAct && <div className="alert alert-secondary py-2">{t('support.readOnly')}</div>}
      {notice && (
        <div className="alert alert-success py-2" role="status">
          {notice}
        </div>
      )}

      <div className="row g-3">
        <div className={canAct ? 'col-lg-9' : 'col-12'}>
          <div className="nav nav-tabs mb-3" role="tablist" aria-label={t('support.tabsLabel')} onKeyDown={onTabKey}>
            {TABS.map((name) => (
              <button
                key={name}
                id={`${ids}-tab-${name}`}
                type="button"
                role="tab"
                aria-selected={tab === name}
                aria-controls={`${ids}-panel`}
                tabIndex={tab === name ? 0 : -1}
                className={`nav-link${tab === name ? ' active' : ''}`}
                onClick={() => setTab(name)}
              >
                {t(`support.tabs.${name}`)}
              </button>
            ))}
          </div>
          <div id={`${ids}-panel`} role="tabpanel" aria-labelledby={`${ids}-tab-${tab}`}>
            {tab === 'account' && <AccountCard member={data} />}
            {tab === 'profile' && <ProfileCard member={data} />}
            {tab === 'ledger' && <LedgerCard userId={userId} />}
            {tab === 'orders' && <OrdersCard member={data} onRefund={canAct ? refund : null} />}
            {tab === 'sessions' && <SessionsCard member={data} />}
            {tab === 'reports' && (
              <>
                <ReportList title={t('support.reports.complaints')} reports={data.complaints} />
                <ReportList title={t('support.reports.by')} reports={data.reports_by} />
                <ReportList title={t('support.reports.about')} reports={data.reports_about} />
              </>
            )}
            {tab === 'sanctions' && <SanctionsCard member={data} />}
          </div>
        </div>
        {canAct && (
          <aside className="col-lg-3">
            <div className="card card-body d-grid gap-2" data-testid="member-actions">
              <h2 className="h6 mb-1">{t('support.actions.title')}</h2>
              {data.account.status === 'not_confirmed' && (
                <Button
                  variant="outline-primary"
                  size="sm"
                  testId="action-resend"
                  onClick={() =>
                    open({
                      title: t('support.actions.resendActivation'),
                      message: t('support.actions.resendConfirm', { email }),
                      toAction: () => ({ kind: 'resend-activation' }),
                    })
                  }
                >
                  {t('support.actions.resendActivation')}
                </Button>
              )}
              <Button
                variant="outline-primary"
                size="sm"
                testId="action-lockout"
                disabled={data.login_lockout.attempts === 0}
                onClick={() =>
                  open({
                    title: t('support.actions.clearLockout'),
                    message: t('support.actions.clearLockoutConfirm'),
                    toAction: () => ({ kind: 'clear-lockout' }),
                  })
                }
              >
                {t('support.actions.clearLockout')}
              </Button>
              <Button
                variant="outline-primary"
                size="sm"
                testId="action-credits"
                onClick={() =>
                  open({
                    title: t('support.actions.adjustCredits'),
                    reason: true,
                    amount: {
                      label: t('support.actions.amount'),
                      hint: t('support.actions.amountHint', { balance: data.account.credits }),
                      min: -Math.min(SUPPORT_CREDIT_ADJUST_MAX, data.account.credits),
                      max: SUPPORT_CREDIT_ADJUST_MAX,
                    },
                    toAction: ({ reason, amount }) => ({ kind: 'credits', body: { amount: amount ?? 0, reason } }),
                  })
                }
              >
                {t('support.actions.adjustCredits')}
              </Button>
              {data.direct_debit.blocked && (
                <Button
                  variant="outline-primary"
                  size="sm"
                  testId="action-unblock"
                  onClick={() =>
                    open({
                      title: t('support.actions.unblockDirectDebit'),
                      message: t('support.actions.unblockConfirm'),
                      reason: true,
                      toAction: ({ reason }) => ({ kind: 'unblock-direct-debit', reason }),
                    })
                  }
                >
                  {t('support.actions.unblockDirectDebit')}
                </Button>
              )}
              {data.account.status !== 'deleted' && (
                <Button
                  variant="outline-danger"
                  size="sm"
                  testId="action-delete"
                  onClick={() =>
                    open({
                      title: t('support.actions.delete'),
                      message: t('support.actions.deleteConfirm', { email }),
                      danger: true,
                      reason: true,
                      toAction: ({ reason }) => ({ kind: 'delete', reason }),
                    })
                  }
                >
                  {t('support.actions.delete')}
                </Button>
              )}
              {isAdmin && (
                <Button
                  variant="danger"
                  size="sm"
                  testId="action-erase"
                  onClick={() =>
                    open({
                      title: t('support.actions.erase'),
                      message: t('support.actions.eraseConfirm', { email }),
                      danger: true,
                      reason: true,
                      erases: true,
                      toAction: ({ reason }) => ({ kind: 'erase', reason }),
                    })
                  }
                >
                  {t('support.actions.erase')}
                </Button>
              )}
            </div>
          </aside>
        )}
      </div>
      {dialog && (
        <ActionDialog
          spec={dialog}
          userId={userId}
          onClose={(done) => {
            setDialog(null);
            // An erased account is gone: back to the search.
            if (done && dialog.erases) navigate('..', { relative: 'path' });
            else if (done) setNotice(t('support.actions.done'));
          }}
        />
      )}
    </>
  );
}

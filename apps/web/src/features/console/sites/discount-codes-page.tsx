import { DISCOUNT_CODE_STATUSES, type DiscountCodeAdminView, PAYMENT_METHODS } from '@amora/contracts';
import { type FormEvent, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useSearchParams } from 'react-router';
import { Button } from '@/components/ui/button';
import { FormField } from '@/components/ui/form-field';
import { consoleErrorText } from '../console-error';
import { formatConsoleTime } from '../shell/format';
import { useConsoleTitle } from '../shell/use-console-title';
import { fieldErrorOf } from './field-error';
import { type DiscountCodeBody, useDiscountCodes, useSaveDiscountCode, useSites } from './sites-api';

const STATUSES = DISCOUNT_CODE_STATUSES;

/** A code's form (spec §3: every field of a discount code): a new one, or a change of one. */
function CodeForm({
  code,
  sites,
  onDone,
}: {
  code: DiscountCodeAdminView | null;
  sites: { id: number; name: string }[];
  onDone: () => void;
}) {
  const { t } = useTranslation('console');
  const save = useSaveDiscountCode();
  const error = fieldErrorOf(t, save.error);
  const [d, setD] = useState({
    code: code?.code ?? '',
    site_id: String(code?.site_id ?? sites[0]?.id ?? ''),
    user_id: code?.user_id === null || code === null ? '' : String(code.user_id),
    country: code?.country ?? '',
    value_percentage: String(code?.value_percentage ?? 10),
    currency: code?.currency ?? '',
    minimum_order_value: String(code?.minimum_order_value ?? 0),
    status: code?.status ?? 'active',
    paymentmethods: code?.paymentmethods ?? ([] as string[]),
    expires: (code?.expires ?? new Date(Date.now() + 30 * 86_400_000).toISOString()).slice(0, 16),
  });
  const set = (key: keyof typeof d, value: string | string[]) => setD((x) => ({ ...x, [key]: value }));
  const errorFor = (field: string) => (error && (error.field === field || error.field.startsWith(`${field}.`)) ? error.text : undefined);

  const submit = (event: FormEvent) => {
    event.preventDefault();
    const body: DiscountCodeBody = {
      code: d.code.trim(),
      site_id: Number(d.site_id),
      user_id: d.user_id.trim() ? Number(d.user_id) : null,
      country: d.country.trim() ? d.country.trim().toUpperCase() : null,
      value_percentage: Number(d.value_percentage),
      currency: d.currency.trim() ? d.currency.trim().toUpperCase() : null,
      minimum_order_value: Number(d.minimum_order_value),
      status: d.status as (typeof STATUSES)[number],
      paymentmethods: d.paymentmethods as (typeof PAYMENT_METHODS)[number][],
      expires: new Date(d.expires).toISOString(),
    };
    save.mutate({ id: code?.id ?? null, body }, { onSuccess: onDone });
  };

  const text = (key: 'code' | 'user_id' | 'country' | 'currency' | 'value_percentage' | 'minimum_order_value', type = 'text') => (
    <div className="col-md-3" key={key}>
      <FormField label={<code>{key}</code>} error={errorFor(key)} className="">
        <input name={key} type={type} className="form-control" value={d[key]} onChange={(e) => set(key, e.target.value)} />
      </FormField>
    </div>
  );

  return (
    <form className="card card-body mb-3" onSubmit={submit} noValidate data-testid="code-form">
      <h2 className="h6">{code ? t('codes.edit', { code: code.code }) : t('codes.add')}</h2>
      <div className="row g-2">
        {text('code')}
        <div className="col-md-3">
          <FormField label={<code>site</code>} error={errorFor('site_id')} className="">
            <select
              name="site_id"
              className="form-select"
              value={d.site_id}
              disabled={code !== null}
              onChange={(e) => set('site_id', e.target.value)}
            >
              {sites.map((s) => (
                <option key={s.id} value={s.id}>
                  {s.name}
                </option>
              ))}
            </select>
          </FormField>
        </div>
        {text('value_percentage', 'number')}
        {text('minimum_order_value', 'number')}
        {text('country')}
        {text('currency')}
        {text('user_id', 'number')}
        <div className="col-md-3">
          <FormField label={<code>status</code>} error={errorFor('status')} className="">
            <select name="status" className="form-select" value={d.status} onChange={(e) => set('status', e.target.value)}>
              {STATUSES.map((s) => (
                <option key={s} value={s}>
                  {t(`codes.status.${s}`)}
                </option>
              ))}
            </select>
          </FormField>
        </div>
        <div className="col-md-3">
          <FormField label={<code>expires</code>} error={errorFor('expires')} className="">
            <input
              name="expires"
              type="datetime-local"
              className="form-control"
              value={d.expires}
              onChange={(e) => set('expires', e.target.value)}
            />
          </FormField>
        </div>
        <div className="col-md-9">
          <FormField label={<code>paymentmethods</code>} help={t('codes.methodsHelp')} error={errorFor('paymentmethods')} className="">
            <select
              name="paymentmethods"
              multiple
              className="form-select"
              size={4}
              value={d.paymentmethods}
              onChange={(e) =>
                set(
                  'paymentmethods',
                  [...e.target.selectedOptions].map((o) => o.value),
                )
              }
            >
              {PAYMENT_METHODS.map((m) => (
                <option key={m}>{m}</option>
              ))}
            </select>
          </FormField>
        </div>
      </div>
      {save.isError && !error && <div className="alert alert-danger mt-2">{consoleErrorText(t, save.error)}</div>}
      <div className="d-flex gap-2 mt-2">
        <Button type="submit" variant="primary" size="sm" disabled={save.isPending} testId="code-save">
          {t('sites.save')}
        </Button>
        <Button variant="outline-dark" size="sm" onClick={onDone}>
          {t('sites.cancel')}
        </Button>
      </div>
    </form>
  );
}

/** Discount codes of every site (the site's own; member codes on request), newest first, with adding and editing. */
export function DiscountCodesPage() {
  const { t, i18n } = useTranslation('console');
  useConsoleTitle(t('codes.title'));
  const [params, setParams] = useSearchParams();
  const siteId = Number(params.get('site')) || undefined;
  const all = params.get('all') === '1' ? '1' : '0';
  const page = Math.max(1, Number(params.get('page')) || 1);
  const codes = useDiscountCodes({ site_id: siteId, all, page });
  const sites = useSites();
  const [editing, setEditing] = useState<DiscountCodeAdminView | 'new' | null>(null);
  const go = (next: Record<string, string | undefined>) => {
    const merged = { site: siteId ? String(siteId) : undefined, all: all === '1' ? '1' : undefined, page: undefined, ...next };
    setParams(Object.fromEntries(Object.entries(merged).filter((e): e is [string, string] => Boolean(e[1]))));
  };
  const siteName = (id: number) => sites.data?.sites.find((s) => s.id === id)?.name ?? String(id);

  return (
    <>
      <h1 className="h3 mb-3">{t('codes.title')}</h1>
      <div className="d-flex flex-wrap gap-2 align-items-center mb-3">
        <select
          className="form-select form-select-sm console-select"
          aria-label={t('codes.site')}
          value={siteId ?? ''}
          onChange={(e) => go({ site: e.target.value || undefined })}
        >
          <option value="">{t('codes.allSites')}</option>
          {sites.data?.sites.map((s) => (
            <option key={s.id} value={s.id}>
              {s.name}
            </option>
          ))}
        </select>
        <div className="form-check form-switch mb-0">
          <input
            id="codes-all"
            type="checkbox"
            className="form-check-input"
            role="switch"
            aria-checked={all === '1'}
            checked={all === '1'}
            onChange={(e) => go({ all: e.target.checked ? '1' : undefined })}
          />
          <label className="form-check-label" htmlFor="codes-all">
            {t('codes.memberCodes')}
          </label>
        </div>
        {!editing && sites.data && (
          <Button variant="primary" size="sm" className="ms-auto" onClick={() => setEditing('new')} testId="code-add">
            {t('codes.add')}
          </Button>
        )}
      </div>
      {editing && sites.data && (
        <CodeForm
          key={editing === 'new' ? 'new' : editing.id}
          code={editing === 'new' ? null : editing}
          sites={sites.data.sites}
          onDone={() => setEditing(null)}
        />
      )}
      {codes.isError && <div className="alert alert-danger">{consoleErrorText(t, codes.error)}</div>}
      {codes.data && (
        <>
          <div className="table-responsive">
            <table className="table console-table align-middle" data-testid="codes-table">
              <caption className="visually-hidden">{t('codes.title')}</caption>
              <thead>
                <tr>
                  <th scope="col">{t('codes.columns.code')}</th>
                  <th scope="col">{t('codes.site')}</th>
                  <th scope="col">{t('codes.columns.value')}</th>
                  <th scope="col">{t('codes.columns.limits')}</th>
                  <th scope="col">{t('codes.columns.status')}</th>
                  <th scope="col">{t('codes.columns.expires')}</th>
                  <th scope="col">
                    <span className="visually-hidden">{t('sites.edit')}</span>
                  </th>
                </tr>
              </thead>
              <tbody>
                {codes.data.codes.map((code) => (
                  <tr key={code.id} data-testid={`code-${code.id}`}>
                    <td className="font-monospace">{code.code}</td>
                    <td className="small">{siteName(code.site_id)}</td>
                    <td>{code.value_percentage} %</td>
                    <td className="small">
                      {[
                        code.country,
                        code.currency,
                        code.minimum_order_value ? `≥ ${code.minimum_order_value}` : null,
                        code.paymentmethods.join(' '),
                      ]
                        .filter(Boolean)
                        .join(' · ') || '—'}
                    </td>
                    <td className="small">
                      {code.expired && code.status === 'active' ? t('codes.status.expired') : t(`codes.status.${code.status}` as never)}
                    </td>
                    <td className="small text-nowrap">{formatConsoleTime(code.expires, i18n.language)}</td>
                    <td className="text-end">
                      {code.source === 'code' && (
                        <Button variant="outline-dark" size="sm" onClick={() => setEditing(code)} testId={`code-edit-${code.id}`}>
                          {t('sites.edit')}
                        </Button>
                      )}
                    </td>
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
          <nav className="console-pager" aria-label={t('codes.pages')}>
            <Button variant="outline-dark" size="sm" disabled={page <= 1} onClick={() => go({ page: String(page - 1) })}>
              {t('support.previous')}
            </Button>
            <span>{t('support.page', { page: codes.data.page, pages: codes.data.pages })}</span>
            <Button
              variant="outline-dark"
              size="sm"
              disabled={codes.data.page >= codes.data.pages}
              onClick={() => go({ page: String(page + 1) })}
            >
              {t('support.next')}
            </Button>
            <span className="text-body-secondary small ms-auto">{t('codes.total', { count: codes.data.total })}</span>
          </nav>
        </>
      )}
    </>
  );
}

export { DiscountCodesPage as Component };

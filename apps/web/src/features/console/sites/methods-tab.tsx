import { PAYMENT_METHODS, type PaymentMethodsAdminView } from '@amora/contracts';
import { type FormEvent, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Button } from '@/components/ui/button';
import { consoleErrorText } from '../console-error';
import { fieldErrorOf } from './field-error';
import { usePaymentMethods, useSavePaymentMethods } from './sites-api';

type Country = PaymentMethodsAdminView['countries'][number];

/** One country's methods: which are offered, in order, and each one's fee (minor units of the country's currency). */
function CountryMethods({ siteId, country }: { siteId: number; country: Country }) {
  const { t } = useTranslation('console');
  const save = useSavePaymentMethods(siteId);
  const error = fieldErrorOf(t, save.error);
  const [rows, setRows] = useState(() => country.methods.map((m) => ({ method: m.method, fee: String(m.fee_minor) })));
  const unused = PAYMENT_METHODS.filter((m) => !rows.some((r) => r.method === m));

  const submit = (event: FormEvent) => {
    event.preventDefault();
    save.mutate({
      country: country.country,
      methods: rows.map((r) => ({ method: r.method as (typeof PAYMENT_METHODS)[number], fee_minor: Number(r.fee) })),
    });
  };
  const move = (at: number, by: number) =>
    setRows((list) => {
      const next = [...list];
      const [row] = next.splice(at, 1);
      next.splice(Math.max(0, Math.min(next.length, at + by)), 0, row);
      return next;
    });

  return (
    <form className="card card-body mb-3" onSubmit={submit} noValidate data-testid={`methods-${country.country}`}>
      <h2 className="h6">
        {country.country}
        {country.no_card_fees && <span className="badge text-bg-info ms-2">{t('sites.methods.noCardFees')}</span>}
      </h2>
      <table className="table console-table table-sm align-middle mb-2">
        <thead>
          <tr>
            <th scope="col">{t('sites.methods.method')}</th>
            <th scope="col">{t('sites.methods.fee')}</th>
            <th scope="col">
              <span className="visually-hidden">{t('sites.methods.order')}</span>
            </th>
          </tr>
        </thead>
        <tbody>
          {rows.map((row, at) => {
            const fieldError = error?.field === `methods.${at}.fee_minor` ? error.text : null;
            return (
              <tr key={row.method}>
                <td>{row.method}</td>
                <td>
                  <input
                    className={`form-control form-control-sm console-select${fieldError ? ' is-invalid' : ''}`}
                    type="number"
                    min={0}
                    aria-label={t('sites.methods.feeOf', { method: row.method })}
                    aria-invalid={fieldError ? true : undefined}
                    data-testid={`fee-${country.country}-${row.method}`}
                    value={row.fee}
                    onChange={(e) => setRows((list) => list.map((r, i) => (i === at ? { ...r, fee: e.target.value } : r)))}
                  />
                  {fieldError && <div className="invalid-feedback d-block">{fieldError}</div>}
                </td>
                <td className="text-end text-nowrap">
                  <Button
                    variant="outline-dark"
                    size="sm"
                    onClick={() => move(at, -1)}
                    disabled={at === 0}
                    aria-label={t('sites.methods.up')}
                  >
                    ↑
                  </Button>{' '}
                  <Button
                    variant="outline-dark"
                    size="sm"
                    onClick={() => move(at, 1)}
                    disabled={at === rows.length - 1}
                    aria-label={t('sites.methods.down')}
                  >
                    ↓
                  </Button>{' '}
                  <Button variant="outline-danger" size="sm" onClick={() => setRows((list) => list.filter((_, i) => i !== at))}>
                    {t('sites.methods.remove')}
                  </Button>
                </td>
              </tr>
            );
          })}
        </tbody>
      </table>
      <div className="d-flex gap-2 align-items-center">
        {unused.length > 0 && (
          <select
            className="form-select form-select-sm console-select"
            aria-label={t('sites.methods.add')}
            value=""
            onChange={(e) => e.target.value && setRows((list) => [...list, { method: e.target.value, fee: '0' }])}
          >
            <option value="">{t('sites.methods.add')}</option>
            {unused.map((m) => (
              <option key={m}>{m}</option>
            ))}
          </select>
        )}
        <Button type="submit" variant="primary" size="sm" disabled={save.isPending} testId={`methods-save-${country.country}`}>
          {t('sites.save')}
        </Button>
        {save.isSuccess && <span role="status">{t('sites.saved')}</span>}
      </div>
      {save.isError && !error && (
        <div className="alert alert-danger mt-2" role="alert">
          {consoleErrorText(t, save.error)}
        </div>
      )}
    </form>
  );
}

/** A site's payment methods and fees, country by country. */
export function MethodsTab({ siteId }: { siteId: number }) {
  const { t } = useTranslation('console');
  const methods = usePaymentMethods(siteId);
  if (methods.isError) return <div className="alert alert-danger">{consoleErrorText(t, methods.error)}</div>;
  if (!methods.data) return <div className="spinner-border" role="status" aria-label={t('loading')} />;
  return (
    <>
      <p className="text-body-secondary small">{t('sites.methods.intro')}</p>
      {methods.data.countries.map((country) => (
        <CountryMethods key={country.country} siteId={siteId} country={country} />
      ))}
    </>
  );
}

import type { PackageAdminView } from '@amora/contracts';
import { type FormEvent, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Button } from '@/components/ui/button';
import { FormField } from '@/components/ui/form-field';
import { consoleErrorText } from '../console-error';
import { fieldErrorOf } from './field-error';
import { type PackageBody, usePackages, useSavePackage } from './sites-api';

const price = (minor: number, currency: string, locale: string) =>
  new Intl.NumberFormat(locale, { style: 'currency', currency }).format(minor / 100);

/** One package's form: a new one (no package) or a change of one. */
function PackageForm({
  siteId,
  countries,
  pkg,
  onDone,
}: {
  siteId: number;
  countries: string[];
  pkg: PackageAdminView | null;
  onDone: () => void;
}) {
  const { t } = useTranslation('console');
  const save = useSavePackage(siteId);
  const error = fieldErrorOf(t, save.error);
  const [draft, setDraft] = useState({
    country: pkg?.country ?? countries[0] ?? '',
    currency: pkg?.currency ?? 'EUR',
    credits: String(pkg?.credits ?? ''),
    price: pkg ? (pkg.price_minor / 100).toFixed(2) : '',
    position: String(pkg?.position ?? 0),
    best_value: pkg?.best_value ?? false,
    active: pkg?.active ?? true,
  });
  const set = (key: keyof typeof draft, value: string | boolean) => setDraft((d) => ({ ...d, [key]: value }));
  const errorFor = (field: string) => (error?.field === field ? error.text : undefined);

  const submit = (event: FormEvent) => {
    event.preventDefault();
    const body: PackageBody = {
      country: draft.country,
      currency: draft.currency.trim().toUpperCase(),
      credits: Number(draft.credits),
      price_minor: Math.round(Number(draft.price.replace(',', '.')) * 100),
      position: Number(draft.position),
      best_value: draft.best_value,
      active: draft.active,
    };
    save.mutate({ packageId: pkg?.id ?? null, body }, { onSuccess: onDone });
  };

  return (
    <form className="card card-body mb-3" onSubmit={submit} noValidate data-testid="package-form">
      <h2 className="h6">{pkg ? t('sites.prices.edit', { id: pkg.id }) : t('sites.prices.add')}</h2>
      <div className="row g-2">
        <div className="col-md-2">
          <FormField label={t('sites.prices.country')} error={errorFor('country')} className="">
            <select className="form-select" value={draft.country} onChange={(e) => set('country', e.target.value)} name="country">
              {countries.map((c) => (
                <option key={c}>{c}</option>
              ))}
            </select>
          </FormField>
        </div>
        <div className="col-md-2">
          <FormField label={t('sites.prices.currency')} error={errorFor('currency')} className="">
            <input
              className="form-control"
              name="currency"
              maxLength={3}
              value={draft.currency}
              onChange={(e) => set('currency', e.target.value)}
            />
          </FormField>
        </div>
        <div className="col-md-2">
          <FormField label={t('sites.prices.credits')} error={errorFor('credits')} className="">
            <input
              className="form-control"
              name="credits"
              type="number"
              min={1}
              value={draft.credits}
              onChange={(e) => set('credits', e.target.value)}
            />
          </FormField>
        </div>
        <div className="col-md-2">
          <FormField label={t('sites.prices.price')} error={errorFor('price_minor')} className="">
            <input
              className="form-control"
              name="price"
              inputMode="decimal"
              value={draft.price}
              onChange={(e) => set('price', e.target.value)}
            />
          </FormField>
        </div>
        <div className="col-md-1">
          <FormField label={t('sites.prices.position')} error={errorFor('position')} className="">
            <input
              className="form-control"
              name="position"
              type="number"
              min={0}
              value={draft.position}
              onChange={(e) => set('position', e.target.value)}
            />
          </FormField>
        </div>
        <div className="col-md-3 d-flex flex-column justify-content-end">
          <FormField label={t('sites.prices.bestValue')} layout="switch" className="mb-0">
            <input
              type="checkbox"
              className="form-check-input"
              checked={draft.best_value}
              onChange={(e) => set('best_value', e.target.checked)}
            />
          </FormField>
          <FormField label={t('sites.prices.active')} layout="switch" className="mb-0">
            <input
              type="checkbox"
              className="form-check-input"
              name="active"
              checked={draft.active}
              onChange={(e) => set('active', e.target.checked)}
            />
          </FormField>
        </div>
      </div>
      {save.isError && !error && (
        <div className="alert alert-danger mt-2" role="alert">
          {consoleErrorText(t, save.error)}
        </div>
      )}
      <div className="d-flex gap-2 mt-2">
        <Button type="submit" variant="primary" size="sm" disabled={save.isPending} testId="package-save">
          {t('sites.save')}
        </Button>
        <Button variant="outline-dark" size="sm" onClick={onDone}>
          {t('sites.cancel')}
        </Button>
      </div>
    </form>
  );
}

/** A site's credit packages in every country it serves: the table, and adding or changing one. */
export function PricesTab({ siteId, countries }: { siteId: number; countries: string[] }) {
  const { t, i18n } = useTranslation('console');
  const packages = usePackages(siteId);
  const [editing, setEditing] = useState<PackageAdminView | 'new' | null>(null);

  if (packages.isError) return <div className="alert alert-danger">{consoleErrorText(t, packages.error)}</div>;
  if (!packages.data) return <div className="spinner-border" role="status" aria-label={t('loading')} />;
  return (
    <>
      {editing ? (
        <PackageForm
          key={editing === 'new' ? 'new' : editing.id}
          siteId={siteId}
          countries={countries}
          pkg={editing === 'new' ? null : editing}
          onDone={() => setEditing(null)}
        />
      ) : (
        <Button variant="primary" size="sm" className="mb-3" onClick={() => setEditing('new')} testId="package-add">
          {t('sites.prices.add')}
        </Button>
      )}
      <div className="table-responsive">
        <table className="table console-table align-middle" data-testid="packages-table">
          <caption className="visually-hidden">{t('sites.tabs.prices')}</caption>
          <thead>
            <tr>
              <th scope="col">{t('sites.prices.country')}</th>
              <th scope="col">{t('sites.prices.credits')}</th>
              <th scope="col">{t('sites.prices.price')}</th>
              <th scope="col">{t('sites.prices.position')}</th>
              <th scope="col">{t('sites.prices.state')}</th>
              <th scope="col">
                <span className="visually-hidden">{t('sites.edit')}</span>
              </th>
            </tr>
          </thead>
          <tbody>
            {packages.data.packages.map((p) => (
              <tr key={p.id} data-testid={`package-${p.id}`} className={p.active ? undefined : 'text-body-secondary'}>
                <td>{p.country}</td>
                <td>{t('sites.prices.creditCount', { count: p.credits })}</td>
                <td>{price(p.price_minor, p.currency, i18n.language)}</td>
                <td>{p.position}</td>
                <td>
                  {p.active ? t('sites.prices.onSale') : t('sites.prices.notOnSale')}
                  {p.best_value && ` · ${t('sites.prices.bestValue')}`}
                </td>
                <td className="text-end">
                  <Button variant="outline-dark" size="sm" onClick={() => setEditing(p)} testId={`package-edit-${p.id}`}>
                    {t('sites.edit')}
                  </Button>
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>
    </>
  );
}

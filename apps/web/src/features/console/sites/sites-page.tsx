import { type FormEvent, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, NavLink, Route, Routes, useParams } from 'react-router';
import { Button } from '@/components/ui/button';
import { FormField } from '@/components/ui/form-field';
import { consoleErrorText } from '../console-error';
import { useConsoleTitle } from '../shell/use-console-title';
import { fieldErrorOf, namesField } from './field-error';
import { MethodsTab } from './methods-tab';
import { PricesTab } from './prices-tab';
import { SettingsForm } from './settings-form';
import { useCompany, useSaveCompany, useSite, useSites } from './sites-api';

function NotFound() {
  const { t } = useTranslation('console');
  return (
    <p className="alert alert-warning" data-testid="console-not-found">
      {t('notFound')}
    </p>
  );
}

function Loading({ error }: { error: unknown }) {
  const { t } = useTranslation('console');
  if (error) return <div className="alert alert-danger">{consoleErrorText(t, error)}</div>;
  return <div className="spinner-border" role="status" aria-label={t('loading')} />;
}

/** Every site, with its company and a link to open it. */
function SitesList() {
  const { t } = useTranslation('console');
  const sites = useSites();
  useConsoleTitle(t('sites.title'));
  if (!sites.data) return <Loading error={sites.error} />;
  return (
    <>
      <h1 className="h3 mb-3">{t('sites.title')}</h1>
      <div className="table-responsive">
        <table className="table console-table align-middle" data-testid="sites-table">
          <caption className="visually-hidden">{t('sites.title')}</caption>
          <thead>
            <tr>
              <th scope="col">{t('sites.columns.name')}</th>
              <th scope="col">{t('sites.columns.domain')}</th>
              <th scope="col">{t('sites.columns.company')}</th>
              <th scope="col">{t('sites.columns.countries')}</th>
              <th scope="col">{t('sites.columns.preview')}</th>
            </tr>
          </thead>
          <tbody>
            {sites.data.sites.map((site) => (
              <tr key={site.id} data-testid={`site-${site.id}`}>
                <td>
                  <Link to={String(site.id)}>{site.name}</Link>
                </td>
                <td className="small">{site.domain}</td>
                <td className="small">
                  <Link to={`companies/${site.company_id}`}>{site.company_name}</Link>
                </td>
                <td className="small">{site.countries.join(', ')}</td>
                <td className="small">
                  <a href={site.preview_url} target="_blank" rel="noopener noreferrer">
                    {t('sites.open')}
                  </a>
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>
    </>
  );
}

/** One site: its settings, prices and payment methods, each a tab with its own address. */
function SitePage() {
  const { t } = useTranslation('console');
  const id = Number(useParams().id);
  const site = useSite(id);
  const sites = useSites();
  useConsoleTitle(site.data?.name ?? t('sites.title'));
  if (!Number.isInteger(id) || id < 1) return <NotFound />;
  if (!site.data || !sites.data) return <Loading error={site.error ?? sites.error} />;
  const tab = (to: string, label: string) => (
    <li className="nav-item">
      <NavLink end to={to} className="nav-link">
        {label}
      </NavLink>
    </li>
  );
  return (
    <>
      <nav aria-label={t('sites.title')} className="small mb-2">
        <Link to="..">{t('sites.title')}</Link>
      </nav>
      <div className="d-flex align-items-baseline gap-3 mb-3">
        <h1 className="h3 mb-0">{site.data.name}</h1>
        <a href={site.data.preview_url} target="_blank" rel="noopener noreferrer" data-testid="site-preview">
          {t('sites.open')}
        </a>
      </div>
      <ul className="nav nav-tabs mb-3">
        {tab('.', t('sites.tabs.settings'))}
        {tab('prices', t('sites.tabs.prices'))}
        {tab('payment-methods', t('sites.tabs.methods'))}
      </ul>
      <Routes>
        <Route index element={<SettingsForm key={site.data.id} site={site.data} companies={sites.data.companies} />} />
        <Route path="prices" element={<PricesTab siteId={id} countries={site.data.countries} />} />
        <Route path="payment-methods" element={<MethodsTab siteId={id} />} />
        <Route path="*" element={<NotFound />} />
      </Routes>
    </>
  );
}

const COMPANY_FIELDS = ['name', 'address', 'city', 'country', 'kvk', 'vat_numbers', 'tradenames', 'added'] as const;

/** A company's legal pages' and receipts' data. */
function CompanyPage() {
  const { t } = useTranslation('console');
  const id = Number(useParams().id);
  const company = useCompany(id);
  useConsoleTitle(company.data?.name ?? t('sites.company.title'));
  if (!company.data) return <Loading error={company.error} />;
  return <CompanyForm key={company.data.id} company={company.data} />;
}

function CompanyForm({ company }: { company: NonNullable<ReturnType<typeof useCompany>['data']> }) {
  const { t } = useTranslation('console');
  const save = useSaveCompany(company.id);
  const error = fieldErrorOf(t, save.error);
  const [draft, setDraft] = useState<Record<string, string>>(() =>
    Object.fromEntries(
      COMPANY_FIELDS.map((key) => [key, Array.isArray(company[key]) ? (company[key] as string[]).join(', ') : String(company[key])]),
    ),
  );
  const submit = (event: FormEvent) => {
    event.preventDefault();
    const list = (key: string) =>
      draft[key]
        .split(',')
        .map((s) => s.trim())
        .filter(Boolean);
    save.mutate({
      name: draft.name,
      address: draft.address,
      city: draft.city,
      country: draft.country.trim().toUpperCase(),
      kvk: draft.kvk,
      vat_numbers: list('vat_numbers'),
      tradenames: list('tradenames'),
      added: draft.added,
    });
  };
  return (
    <>
      <nav className="small mb-2">
        <Link to="../..">{t('sites.title')}</Link>
      </nav>
      <h1 className="h3 mb-1">{company.name}</h1>
      <p className="text-body-secondary small">
        {t('sites.company.sites', { count: company.sites.length, sites: company.sites.join(', ') })}
      </p>
      <form className="card card-body" onSubmit={submit} noValidate data-testid="company-form">
        <div className="row row-cols-1 row-cols-lg-2">
          {COMPANY_FIELDS.map((key) => (
            <div className="col" key={key}>
              <FormField
                label={t(`sites.company.${key}` as never)}
                help={key === 'vat_numbers' || key === 'tradenames' ? t('sites.listHelp') : undefined}
                error={namesField(error, key) ? error?.text : undefined}
              >
                <input
                  name={key}
                  type={key === 'added' ? 'date' : 'text'}
                  className="form-control"
                  value={draft[key]}
                  onChange={(e) => setDraft((d) => ({ ...d, [key]: e.target.value }))}
                />
              </FormField>
            </div>
          ))}
        </div>
        {save.isError && !error && <div className="alert alert-danger">{consoleErrorText(t, save.error)}</div>}
        {save.isSuccess && (
          <div className="alert alert-success" role="status">
            {t('sites.saved')}
          </div>
        )}
        <div>
          <Button type="submit" variant="primary" disabled={save.isPending} testId="company-save">
            {t('sites.save')}
          </Button>
        </div>
      </form>
    </>
  );
}

/** Sites and companies (admins only): the list, a site's tabs at :id, a company at companies/:id. */
export function SitesPage() {
  return (
    <Routes>
      <Route index element={<SitesList />} />
      <Route path="companies/:id" element={<CompanyPage />} />
      <Route path=":id/*" element={<SitePage />} />
      <Route path="*" element={<NotFound />} />
    </Routes>
  );
}

export { SitesPage as Component };

import { LOCALES, NICHES, type SiteAdminView } from '@amora/contracts';
import { type FormEvent, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Button } from '@/components/ui/button';
import { FormField } from '@/components/ui/form-field';
import { consoleErrorText } from '../console-error';
import { fieldErrorOf, namesField } from './field-error';
import { SitePreview } from './site-preview';
import { useSaveSite } from './sites-api';

type Kind = 'text' | 'number' | 'bool' | 'list' | 'localized' | 'niche' | 'popup' | 'company' | 'costs';
type Key = Exclude<keyof SiteAdminView, 'id' | 'is_default' | 'company_name' | 'preview_url'>;

/** Spec §3's site settings, grouped as the spec's list runs; each shown by its §3 name. */
const GROUPS: { key: string; fields: [Key, Kind][] }[] = [
  {
    key: 'identity',
    fields: [
      ['name', 'text'],
      ['domain', 'text'],
      ['hosts', 'list'],
      ['niche', 'niche'],
      ['company_id', 'company'],
    ],
  },
  {
    key: 'reach',
    fields: [
      ['domain_language', 'text'],
      ['languages', 'list'],
      ['countries', 'list'],
      ['default_country', 'text'],
    ],
  },
  {
    key: 'texts',
    fields: [
      ['index_title', 'localized'],
      ['description', 'localized'],
      ['fictional_warning', 'localized'],
      ['fictional_singular', 'localized'],
      ['fictional_plural', 'localized'],
      ['fictional_icon', 'text'],
    ],
  },
  {
    key: 'profiles',
    fields: [
      ['visible_profile_fields', 'list'],
      ['visible_profile_notes', 'list'],
      ['search_fields', 'list'],
      ['interests', 'list'],
      ['cdn_prefix', 'text'],
    ],
  },
  {
    key: 'credits',
    fields: [
      ['message_credits', 'number'],
      ['signup_credits', 'number'],
      ['photo_credits', 'number'],
      ['gift_credits', 'number'],
      ['message_length', 'number'],
      ['minimum_message_costs', 'costs'],
    ],
  },
  {
    key: 'support',
    fields: [
      ['support_email', 'text'],
      ['support_phone', 'text'],
      ['refund_days', 'number'],
      ['delete_discount', 'number'],
      ['enable_site_entry_popup', 'popup'],
      ['enable_us_footer', 'bool'],
    ],
  },
  {
    key: 'access',
    fields: [
      ['signups', 'text'],
      ['logged_out_search', 'bool'],
      ['logged_out_search_trafficsource', 'bool'],
      ['member_resell', 'bool'],
      ['moderate_photos', 'bool'],
    ],
  },
];

type Draft = Record<string, string | boolean>;

/** The form's text of each setting: lists comma-separated, costs one `DE 10 EUR` a line, texts per locale. */
function draftOf(site: SiteAdminView): Draft {
  const draft: Draft = {};
  for (const { fields } of GROUPS) {
    for (const [key, kind] of fields) {
      const value = site[key];
      if (kind === 'bool') draft[key] = Boolean(value);
      else if (kind === 'list') draft[key] = (value as string[]).join(', ');
      else if (kind === 'costs')
        draft[key] = Object.entries(value as SiteAdminView['minimum_message_costs'])
          .map(([country, c]) => `${country} ${c.costs} ${c.currency}`)
          .join('\n');
      else if (kind === 'localized')
        for (const locale of LOCALES) draft[`${key}.${locale}`] = (value as Record<string, string>)[locale] ?? '';
      else draft[key] = String(value);
    }
  }
  return draft;
}

function valuesOf(draft: Draft): Record<string, unknown> {
  const values: Record<string, unknown> = {};
  for (const { fields } of GROUPS) {
    for (const [key, kind] of fields) {
      const raw = draft[key];
      if (kind === 'bool') values[key] = raw === true;
      else if (kind === 'number' || kind === 'niche' || kind === 'company') values[key] = Number(raw);
      else if (kind === 'list')
        values[key] = String(raw)
          .split(',')
          .map((s) => s.trim())
          .filter(Boolean);
      else if (kind === 'costs')
        values[key] = Object.fromEntries(
          String(raw)
            .split('\n')
            .map((line) => line.trim().split(/\s+/))
            .filter((parts) => parts[0])
            .map(([country, costs, currency]) => [
              country.toUpperCase(),
              { costs: Number(costs), currency: (currency ?? '').toUpperCase() },
            ]),
        );
      else if (kind === 'localized')
        values[key] = Object.fromEntries(LOCALES.map((l) => [l, String(draft[`${key}.${l}`] ?? '').trim()]).filter(([, v]) => v));
      else values[key] = String(raw).trim();
    }
  }
  return values;
}

type Values = Parameters<ReturnType<typeof useSaveSite>['mutate']>[0];

/**
 * A site's settings, saved at once; a refused value shows under its field. Before saving, the preview shows the
 * landing page as visitors will see it with the form's values (site-preview.tsx).
 */
export function SettingsForm({ site, companies }: { site: SiteAdminView; companies: { id: number; name: string }[] }) {
  const { t } = useTranslation('console');
  const [draft, setDraft] = useState(() => draftOf(site));
  const save = useSaveSite(site.id);
  const [previewOf, setPreviewOf] = useState<Values | null>(null);
  const error = fieldErrorOf(t, save.error);
  const set = (key: string, value: string | boolean) => setDraft((d) => ({ ...d, [key]: value }));
  const errorFor = (key: string) => (namesField(error, key) ? error?.text : undefined);

  const submit = (event: FormEvent) => {
    event.preventDefault();
    save.mutate(valuesOf(draft) as Values);
  };

  const control = (key: Key, kind: Kind) => {
    const value = draft[key];
    const common = { name: key, 'data-testid': `setting-${key}` };
    switch (kind) {
      case 'bool':
        return (
          <FormField key={key} label={<code>{key}</code>} layout="switch" error={errorFor(key)}>
            <input
              {...common}
              type="checkbox"
              className="form-check-input"
              checked={value === true}
              onChange={(e) => set(key, e.target.checked)}
            />
          </FormField>
        );
      case 'niche':
      case 'popup':
      case 'company': {
        const options: [string, string][] =
          kind === 'niche'
            ? NICHES.map((n) => [String(n), t('sites.niche', { niche: n })])
            : kind === 'popup'
              ? [
                  ['yes', t('sites.yes')],
                  ['no', t('sites.no')],
                ]
              : companies.map((c) => [String(c.id), c.name]);
        return (
          <FormField key={key} label={<code>{key}</code>} error={errorFor(key)}>
            <select {...common} className="form-select" value={String(value)} onChange={(e) => set(key, e.target.value)}>
              {options.map(([v, label]) => (
                <option key={v} value={v}>
                  {label}
                </option>
              ))}
            </select>
          </FormField>
        );
      }
      case 'costs':
        return (
          <FormField key={key} label={<code>{key}</code>} help={t('sites.costsHelp')} error={errorFor(key)}>
            <textarea
              {...common}
              className="form-control font-monospace"
              rows={3}
              value={String(value)}
              onChange={(e) => set(key, e.target.value)}
            />
          </FormField>
        );
      case 'localized':
        return (
          <fieldset key={key} className="mb-3">
            <legend className="form-label fs-6">
              <code>{key}</code>
            </legend>
            {[
              'en',
              ...String(draft.languages)
                .split(',')
                .map((s) => s.trim())
                .filter((l) => l && l !== 'en'),
            ].map((locale) => (
              <FormField
                key={locale}
                label={locale}
                className="mb-1"
                error={error?.field === `${key}.${locale}` || (locale === 'en' && error?.field === key) ? error.text : undefined}
              >
                <input
                  name={`${key}.${locale}`}
                  data-testid={`setting-${key}-${locale}`}
                  className="form-control form-control-sm"
                  value={String(draft[`${key}.${locale}`] ?? '')}
                  onChange={(e) => set(`${key}.${locale}`, e.target.value)}
                />
              </FormField>
            ))}
          </fieldset>
        );
      default:
        return (
          <FormField key={key} label={<code>{key}</code>} help={kind === 'list' ? t('sites.listHelp') : undefined} error={errorFor(key)}>
            <input
              {...common}
              type={kind === 'number' ? 'number' : 'text'}
              className="form-control"
              value={String(value)}
              onChange={(e) => set(key, e.target.value)}
            />
          </FormField>
        );
    }
  };

  return (
    <>
      {previewOf && <SitePreview siteId={site.id} siteName={site.name} draft={previewOf} onClose={() => setPreviewOf(null)} />}
      <form onSubmit={submit} noValidate data-testid="site-settings">
        {GROUPS.map((group) => (
          <section key={group.key} className="card card-body mb-3" aria-labelledby={`group-${group.key}`}>
            <h2 id={`group-${group.key}`} className="h5">
              {t(`sites.groups.${group.key}` as never)}
            </h2>
            <div className="row row-cols-1 row-cols-lg-2">
              {group.fields.map(([key, kind]) => (
                <div key={key} className="col">
                  {control(key, kind)}
                </div>
              ))}
            </div>
          </section>
        ))}
        {save.isError && !error && (
          <div className="alert alert-danger" role="alert">
            {consoleErrorText(t, save.error)}
          </div>
        )}
        {error && (
          <div className="alert alert-danger" role="alert" data-testid="settings-error">
            {t('sites.fixField', { field: error.field })}
          </div>
        )}
        {save.isSuccess && (
          <div className="alert alert-success" role="status" data-testid="settings-saved">
            {t('sites.saved')}
          </div>
        )}
        <div className="d-flex gap-2">
          <Button type="submit" variant="primary" disabled={save.isPending} testId="settings-save">
            {t('sites.save')}
          </Button>
          <Button variant="outline-secondary" onClick={() => setPreviewOf(valuesOf(draft) as Values)} testId="settings-preview">
            {t('sites.preview.button')}
          </Button>
        </div>
      </form>
    </>
  );
}

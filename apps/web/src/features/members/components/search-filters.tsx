import { GENDERS } from '@amora/contracts/core';
import type { FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { Button } from '@/components/ui/button';
import { useSettings } from '@/shared/site/api/get-settings';
import { countryName } from '@/shared/site/country-name';
import { useLocale } from '@/shared/site/use-locale';
import type { FILTERS, Filters } from '../api/search';

/** The filter form's id: the phone sheet's footer button submits it. */
export const FORM_ID = 'search-form';
const AGES = Array.from({ length: 82 }, (_, i) => String(18 + i));

interface SearchFiltersProps {
  fields: readonly (typeof FILTERS)[number][];
  draft: Filters;
  regions: { code: string; name: string }[] | undefined;
  onChange: (key: keyof Filters, value: string) => void;
  onSubmit: (event: FormEvent) => void;
  /** One field a row (the phone's sheet), or one row of fields (desktop). */
  isStacked: boolean;
  hasSubmit: boolean;
}

/** The search filters: a row above the results from md up, the body of the filter sheet on phones. */
export function SearchFilters({ fields, draft, regions, onChange, onSubmit, isStacked, hasSubmit }: SearchFiltersProps) {
  const { t } = useTranslation();
  const settings = useSettings();
  const locale = useLocale();
  const wide = isStacked ? 'col-12' : 'col-md-3 col-lg';
  const narrow = isStacked ? 'col-6' : 'col-md-2 col-lg-1';
  return (
    <form id={FORM_ID} onSubmit={onSubmit} data-testid="search-form" aria-label={t('members.filters')}>
      <div className="row g-2 g-md-3 align-items-end">
        {fields.includes('gender') && (
          <div className={wide}>
            <label className="form-label small fw-semibold" htmlFor="f-gender">
              {t('profile.attributes.gender.label')}
            </label>
            <select id="f-gender" className="form-select" value={draft.gender ?? ''} onChange={(e) => onChange('gender', e.target.value)}>
              <option value="">{t('members.any')}</option>
              {GENDERS.map((g) => (
                <option key={g} value={g}>
                  {t(`profile.attributes.gender.${g}`)}
                </option>
              ))}
            </select>
          </div>
        )}
        {fields.includes('country') && (
          <div className={wide}>
            <label className="form-label small fw-semibold" htmlFor="f-country">
              {t('profile.location.country')}
            </label>
            <select
              id="f-country"
              className="form-select"
              value={draft.country ?? ''}
              onChange={(e) => onChange('country', e.target.value)}
            >
              <option value="">{t('members.any')}</option>
              {settings.countries.map((c) => (
                <option key={c} value={c}>
                  {countryName(c, locale)}
                </option>
              ))}
            </select>
          </div>
        )}
        {fields.includes('countryregion') && (
          <div className={wide}>
            <label className="form-label small fw-semibold" htmlFor="f-region">
              {t('profile.location.region')}
            </label>
            <select
              id="f-region"
              className="form-select"
              value={draft.countryregion ?? ''}
              disabled={!draft.country}
              onChange={(e) => onChange('countryregion', e.target.value)}
            >
              <option value="">{t('members.any')}</option>
              {regions?.map((r) => (
                <option key={r.code} value={r.code}>
                  {r.name}
                </option>
              ))}
            </select>
          </div>
        )}
        {fields.includes('min_age') && (
          <div className={narrow}>
            <label className="form-label small fw-semibold" htmlFor="f-min">
              {t('members.minAge')}
            </label>
            <select id="f-min" className="form-select" value={draft.min_age ?? ''} onChange={(e) => onChange('min_age', e.target.value)}>
              <option value="">–</option>
              {AGES.map((a) => (
                <option key={a}>{a}</option>
              ))}
            </select>
          </div>
        )}
        {fields.includes('max_age') && (
          <div className={narrow}>
            <label className="form-label small fw-semibold" htmlFor="f-max">
              {t('members.maxAge')}
            </label>
            <select id="f-max" className="form-select" value={draft.max_age ?? ''} onChange={(e) => onChange('max_age', e.target.value)}>
              <option value="">–</option>
              {AGES.map((a) => (
                <option key={a}>{a}</option>
              ))}
            </select>
          </div>
        )}
        {hasSubmit && (
          <div className="col-md-2 col-lg-auto">
            <Button type="submit" isBlock testId="search-submit" className="px-4">
              {t('members.search')}
            </Button>
          </div>
        )}
      </div>
    </form>
  );
}

export function FilterIcon() {
  return (
    <svg viewBox="0 0 24 24" width="18" height="18" aria-hidden="true" focusable="false">
      <path d="M4 6h16M7 12h10M10 18h4" fill="none" stroke="currentColor" strokeWidth="2" strokeLinecap="round" />
    </svg>
  );
}

export function SearchIcon() {
  return (
    <svg viewBox="0 0 24 24" width="32" height="32" aria-hidden="true" focusable="false">
      <circle cx="11" cy="11" r="6.5" fill="none" stroke="currentColor" strokeWidth="2" />
      <path d="m16 16 4.5 4.5" fill="none" stroke="currentColor" strokeWidth="2" strokeLinecap="round" />
    </svg>
  );
}

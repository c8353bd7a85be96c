import { type CompanyInfo, MIN_AGE, type Settings } from '@amora/contracts/core';
import { i18next } from '@/lib/i18n';
import { countryName } from '@/shared/site/country-name';

/** The site and company values the legal texts are filled with. */
export function pageValues(
  settings: Settings,
  company: CompanyInfo,
  formatDate: (iso: string) => string,
  locale: string,
): Record<string, string | number> {
  return {
    siteName: settings.name,
    domain: settings.domain,
    companyName: company.name,
    companyAddress: company.address,
    companyCity: company.city,
    companyCountry: countryName(company.country, locale),
    companyKvk: company.kvk || '—',
    companyVat: company.vat_numbers.join(', ') || '—',
    supportEmail: company.support_email,
    supportPhone: company.support_phone,
    // "14 days" in the case every legal text puts it (de "innerhalb von 14 Tagen", pl "w ciągu 14 dni"), plural by the number.
    refundPeriod: i18next.t('pages:counts.refundPeriod', { lng: locale, count: settings.refund_days }),
    termsDate: formatDate(settings.terms_date),
    minAge: MIN_AGE,
  };
}

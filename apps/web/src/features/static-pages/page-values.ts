import { MIN_AGE, type Settings } from '@amora/contracts/core';
import { i18next } from '@/lib/i18n';
import { countryName } from '@/shared/site/country-name';

/** The site and company values the legal texts are filled with. */
export function pageValues(settings: Settings, formatDate: (iso: string) => string, locale: string): Record<string, string | number> {
  return {
    siteName: settings.name,
    domain: settings.domain,
    companyName: settings.company_name,
    companyAddress: settings.company_address,
    companyCity: settings.company_city,
    companyCountry: countryName(settings.company_country, locale),
    companyKvk: settings.company_kvk || '—',
    companyVat: settings.company_vat_numbers.join(', ') || '—',
    supportEmail: settings.support_email,
    supportPhone: settings.support_phone,
    // "14 days" in the case every legal text puts it (de "innerhalb von 14 Tagen", pl "w ciągu 14 dni"), plural by the number.
    refundPeriod: i18next.t('pages:counts.refundPeriod', { lng: locale, count: settings.refund_days }),
    termsDate: formatDate(settings.terms_date),
    minAge: MIN_AGE,
  };
}

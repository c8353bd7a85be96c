import { type CompanyInfo, type Locale, PAYMENT_LOGOS, type Settings } from '@amora/contracts/core';
import type { ComponentType, CSSProperties, ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { countryName } from './country-name';

export type FooterMode = 'logged-out' | 'logged-in' | 'installed-app';

const LINKS: [string, string][] = [
  ['/pages/terms', 'footer.terms'],
  ['/pages/privacy', 'footer.privacy'],
  ['/pages/cookies', 'footer.cookies'],
  ['/pages/ban', 'footer.ban'],
  ['/pricing', 'credits.pricingLink'],
  ['/complaints', 'footer.complaints'],
  ['/pages/return-policy', 'footer.returnPolicy'],
  ['/pages/faq', 'footer.faq'],
  ['/pages/service', 'footer.support'],
];

/** The address block differs per operating company (spec §2: company ids 1, 5 and 6). */
function CompanyBlock({ company: c, siteName, locale }: { company: CompanyInfo; siteName: string; locale: Locale }) {
  const { t } = useTranslation();
  const country = countryName(c.country, locale);
  switch (c.company_id) {
    case 5:
      return (
        <address className="mb-0" data-testid="company-block">
          <strong>{c.name}</strong>
          <br />
          {c.address}, {c.city}, {country}
          {c.vat_numbers.length > 0 && (
            <>
              <br />
              {t('footer.vat')}
              {t('punctuation.colon')}
              {c.vat_numbers.join(', ')}
            </>
          )}
          {c.tradenames.length > 0 && (
            <>
              <br />
              {t('footer.tradenames', { names: c.tradenames.join(', ') })}
            </>
          )}
        </address>
      );
    case 6:
      return (
        <address className="mb-0" data-testid="company-block">
          {t('footer.operatedBy', { site: siteName, company: c.name })}
          <br />
          {c.address}, {c.city}, {country}
          {c.vat_numbers.length > 0 && (
            <>
              <br />
              {t('footer.vat')}
              {t('punctuation.colon')}
              {c.vat_numbers.join(', ')}
            </>
          )}
        </address>
      );
    default:
      return (
        <address className="mb-0" data-testid="company-block">
          <strong>{c.name}</strong>
          <br />
          {c.address}
          <br />
          {c.city}, {country}
          {c.kvk && (
            <>
              <br />
              {t('footer.kvk')}
              {t('punctuation.colon')}
              {c.kvk}
            </>
          )}
          {c.vat_numbers.length > 0 && (
            <>
              <br />
              {t('footer.vat')}
              {t('punctuation.colon')}
              {c.vat_numbers.join(', ')}
            </>
          )}
        </address>
      );
  }
}

/** A link of the footer: the app's router link, or a lander's plain one (features/landers). */
type FooterLink = ComponentType<{ to: string; className?: string; style?: CSSProperties; children: ReactNode }>;

interface FooterBodyProps {
  settings: Settings;
  company: CompanyInfo;
  locale: Locale;
  mode?: FooterMode;
  Link: FooterLink;
}

/**
 * Footer of spec §2, as the app's pages (app/shell/footer.tsx) and the landers' page (features/landers) show it.
 * The US footer (on English pages of a site that enables it, whatever the visitor's country) and traffic-source
 * visitors get neither payment logos nor the company block; every variant but the installed app's keeps the
 * support email and phone (the site's one number, in international form, dialable from anywhere).
 */
export function FooterBody({ settings, company, locale, mode = 'logged-out', Link }: FooterBodyProps) {
  const { t } = useTranslation();
  const isUsFooter = settings.enable_us_footer && locale === 'en';
  const showBusiness = !isUsFooter && !settings.is_trafficsource && mode !== 'installed-app';
  const year = new Date().getFullYear();

  return (
    <footer className="site-footer mt-auto pt-4 pb-3" data-testid="footer" data-variant={isUsFooter ? 'us' : mode}>
      <div className="container">
        <nav aria-label={t('footer.navLabel')}>
          <ul className="list-inline mb-3">
            {LINKS.map(([to, key]) => (
              <li className="list-inline-item me-3" key={to}>
                {/* A tap target of 48 px (the links sit close together on a phone). */}
                <Link to={to} className="d-inline-flex align-items-center" style={{ minHeight: 48 }}>
                  {t(key)}
                </Link>
              </li>
            ))}
          </ul>
        </nav>
        {mode !== 'installed-app' && (
          <div className="row gy-3">
            <div className="col-md-6">
              <p className="mb-1">
                {t('footer.supportEmail')}
                {t('punctuation.colon')}
                <a href={`mailto:${company.support_email}`}>{company.support_email}</a>
              </p>
              <p className="mb-0">
                {t('footer.supportPhone')}
                {t('punctuation.colon')}
                <a href={`tel:${company.support_phone_dial}`} data-testid="support-phone">
                  {company.support_phone_dial}
                </a>
              </p>
              {isUsFooter && <p className="mb-0 mt-2">{t('footer.usStatement', { site: settings.name })}</p>}
            </div>
            {showBusiness && (
              <div className="col-md-6">
                <CompanyBlock company={company} siteName={settings.name} locale={locale} />
              </div>
            )}
          </div>
        )}
        {showBusiness && (
          <div className="payment-logos mt-3" data-testid="payment-logos">
            {PAYMENT_LOGOS.map((name) => (
              <img
                key={name}
                src={`/api/assets/paymentmethod/${name}.svg`}
                alt={t(`footer.payment.${name}`)}
                width={64}
                height={40}
                loading="lazy"
              />
            ))}
          </div>
        )}
        <p className="mt-3 mb-0 small">{t('footer.copyright', { year, site: settings.name })}</p>
      </div>
    </footer>
  );
}

import { ENTRY_WARNING_COUNTRIES, ENTRY_WARNING_STORAGE_KEY, MIN_AGE } from '@amora/contracts/core';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Dialog } from '@/components/ui/dialog';
import { writeCookie } from '@/lib/cookies';
import { useIsInstalledApp } from '@/lib/installed-app';
import { storage } from '@/lib/storage';
import { companyOf } from '@/shared/site/company-of';
import { FooterBody } from '@/shared/site/footer-body';
import { LanderLink, useLanderSite } from './lander-site';

// The lander layout of spec §2 around a design: a small navbar with the logo, the footer and the entry warning
// for NL and DE, as the app's layout shows them (app/shell: logo, footer, entry warning), without its router.

/** The small navbar: the site's logo, linking to its home page. */
export function LanderNavbar() {
  const { settings } = useLanderSite();
  return (
    <header className="lander-navbar">
      <div className="lander-container">
        <LanderLink to="/" className="brand-logo" aria-label={settings.name}>
          <svg viewBox="0 0 32 32" aria-hidden="true">
            <rect width="32" height="32" rx="8" fill="currentColor" />
            <path d="M16 25.5 6.6 16.3a5.6 5.6 0 0 1 7.9-7.9L16 9.9l1.5-1.5a5.6 5.6 0 0 1 7.9 7.9z" fill="#fff" />
          </svg>
          <span>{settings.name}</span>
        </LanderLink>
      </div>
    </header>
  );
}

/**
 * The footer (shared/site/footer-body.tsx), in the variant of the default layout (logged in or out, installed
 * app): a traffic-source visitor, most of a lander's, gets neither the payment logos nor the company's address
 * (spec §6); the company's fields come with the settings.
 */
export function LanderFooter({ isLoggedIn }: { isLoggedIn: boolean }) {
  const { settings, locale } = useLanderSite();
  const isInstalled = useIsInstalledApp();
  return (
    <FooterBody
      settings={settings}
      company={companyOf(settings)}
      locale={locale}
      mode={isInstalled ? 'installed-app' : isLoggedIn ? 'logged-in' : 'logged-out'}
      Link={LanderLink}
    />
  );
}

const DISMISSAL_DAYS = 365;

/**
 * The site-entry warning (app/shell/entry-warning.tsx) as the lander layout shows it: to visitors from NL and DE
 * only, never in the installed app (spec §2), until they accept it (kept in storage and in a cookie, which the server's render reads: `isDismissed`).
 */
export function LanderEntryWarning({ isDismissed: wasDismissed, isLoggedIn }: { isDismissed: boolean; isLoggedIn: boolean }) {
  const { settings } = useLanderSite();
  const { t } = useTranslation();
  const [isDismissed, setIsDismissed] = useState(wasDismissed);
  const isInstalled = useIsInstalledApp();
  const isShown =
    !isLoggedIn &&
    !isInstalled &&
    !isDismissed &&
    settings.enable_site_entry_popup !== 'no' &&
    settings.geoip_country !== null &&
    (ENTRY_WARNING_COUNTRIES as readonly string[]).includes(settings.geoip_country);
  const handleAccept = () => {
    storage.dismiss(ENTRY_WARNING_STORAGE_KEY);
    writeCookie(ENTRY_WARNING_STORAGE_KEY, '1', DISMISSAL_DAYS);
    setIsDismissed(true);
  };
  return (
    <Dialog isOpen={isShown} isDismissible={false} labelledBy="entry-warning-title" testId="entry-warning">
      <div className="modal-header">
        <h2 className="modal-title h5" id="entry-warning-title">
          {t('entryWarning.title')}
        </h2>
      </div>
      <div className="modal-body">
        <p>{t('entryWarning.adults', { site: settings.name, minAge: MIN_AGE })}</p>
        <p>{t('entryWarning.fictional', { plural: settings.fictional_plural })}</p>
        <p className="mb-0">
          {t('entryWarning.agree')}{' '}
          <LanderLink to="/pages/terms" onClick={handleAccept}>
            {t('footer.terms')}
          </LanderLink>{' '}
          ·{' '}
          <LanderLink to="/pages/privacy" onClick={handleAccept}>
            {t('footer.privacy')}
          </LanderLink>
        </p>
      </div>
      <div className="modal-footer">
        <a className="btn btn-outline-dark" href="https://www.google.com/" rel="noreferrer">
          {t('entryWarning.leave')}
        </a>
        <button type="button" className="btn btn-primary" onClick={handleAccept} data-testid="entry-warning-accept" data-autofocus>
          {t('entryWarning.enter', { minAge: MIN_AGE })}
        </button>
      </div>
    </Dialog>
  );
}

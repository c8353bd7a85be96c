import { ENTRY_WARNING_STORAGE_KEY, MIN_AGE } from '@amora/contracts/core';
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Dialog } from '@/components/ui/dialog';
import { readCookie, writeCookie } from '@/lib/cookies';
import { isHydratingServerPage } from '@/lib/hydration';
import { useIsInstalledApp } from '@/lib/installed-app';
import { useCookieReader } from '@/lib/page-request';
import { storage } from '@/lib/storage';
import { useSettings } from '@/shared/site/api/get-settings';
import { LocalLink } from '@/shared/site/local-link';
import { useRouteName } from '@/shared/site/use-route-name';

const HIDDEN_ON = new Set(['complete-signup', 'reset-password', 'reset-password-do']);

/**
 * The dismissal is kept in this browser's storage and in a cookie of the same name: the server renders a
 * visitor's first screen (entry-server.tsx) and must know whether the warning belongs on it. Taking over such a
 * page, the first render goes by the cookie alone, as the server did; a dismissal only in storage (from before
 * the cookie) closes the warning right after and is copied into the cookie.
 */
const isDismissedHere = (cookieOf: (name: string) => string | null) =>
  cookieOf(ENTRY_WARNING_STORAGE_KEY) !== null || (!isHydratingServerPage() && storage.isDismissed(ENTRY_WARNING_STORAGE_KEY));
const DISMISSAL_DAYS = 365;

export interface EntryWarningProps {
  /** Chat and lander layouts show it only to visitors from these countries (spec §9: NL, DE). */
  countries?: readonly string[] | null;
  isLoggedIn?: boolean;
}

/** The site-entry warning of spec §2, titled 'Important information'. */
export function EntryWarning({ countries = null, isLoggedIn = false }: EntryWarningProps) {
  const settings = useSettings();
  const route = useRouteName();
  const { t } = useTranslation();
  const cookieOf = useCookieReader();
  const [isDismissed, setIsDismissed] = useState(() => isDismissedHere(cookieOf));
  const isInstalled = useIsInstalledApp();
  // A dismissal from before the cookie: the cookie too, so the server's render of the next page agrees.
  useEffect(() => {
    if (storage.isDismissed(ENTRY_WARNING_STORAGE_KEY) && readCookie(ENTRY_WARNING_STORAGE_KEY) === null) {
      writeCookie(ENTRY_WARNING_STORAGE_KEY, '1', DISMISSAL_DAYS);
      setIsDismissed(true);
    }
  }, []);

  const isAllowedCountry = !countries || (settings.geoip_country !== null && countries.includes(settings.geoip_country));
  const isShown =
    !isLoggedIn &&
    !isInstalled &&
    !isDismissed &&
    settings.enable_site_entry_popup !== 'no' &&
    isAllowedCountry &&
    !(route && HIDDEN_ON.has(route));

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
          <LocalLink to="/pages/terms" onClick={handleAccept}>
            {t('footer.terms')}
          </LocalLink>{' '}
          ·{' '}
          <LocalLink to="/pages/privacy" onClick={handleAccept}>
            {t('footer.privacy')}
          </LocalLink>
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

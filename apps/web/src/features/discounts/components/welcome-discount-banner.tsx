import { ALERT_STORAGE_KEYS } from '@amora/contracts/core';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { dismissForServer, isDismissedForServer } from '@/lib/dismissals';
import { formatResetTime } from '@/lib/format-time';
import { useCookieReader, useTimeZone } from '@/lib/page-request';
import { useTimeBonus, useWelcomeDiscount } from '@/shared/discounts/time-bonus';
import { LocalLink } from '@/shared/site/local-link';
import { useLocale } from '@/shared/site/use-locale';
import { useRouteName } from '@/shared/site/use-route-name';
import { isMembersArea } from './time-bonus-banner';

/** Dismissing the welcome-discount banner stores the time here, like the spec's alerts (§4). */
export const WELCOME_BANNER_STORAGE_KEY = ALERT_STORAGE_KEYS.welcomeDiscount;

/**
 * The welcome-discount banner (spec §2): in the members area, once the time bonus is over, while the member's
 * welcome discount lasts; it says until when and leads to the credit packages. Dismissible.
 */
export function WelcomeDiscountBanner() {
  const { t } = useTranslation();
  const locale = useLocale();
  const timeZone = useTimeZone();
  const route = useRouteName();
  const bonus = useTimeBonus();
  const cookieOf = useCookieReader();
  const [isDismissed, setIsDismissed] = useState(() => isDismissedForServer(WELCOME_BANNER_STORAGE_KEY, cookieOf));
  const isShown = !bonus && !isDismissed && isMembersArea(route);
  const welcome = useWelcomeDiscount(isShown);
  if (!isShown || !welcome) return null;
  const percent = welcome.value_percentage;
  return (
    <div
      className="alert alert-dismissible welcome-discount-banner"
      role="region"
      aria-label={t('timeBonus.welcomeLabel')}
      data-testid="welcome-discount-banner"
    >
      <div className="container">
        <span>
          <strong>{t('timeBonus.welcome', { percent })}</strong>{' '}
          {t('timeBonus.welcomeUntil', { date: formatResetTime(welcome.expires, locale, undefined, timeZone) })}
        </span>
        <LocalLink to="/credits" data-testid="welcome-discount-link">
          {t('timeBonus.welcomeCta')}
        </LocalLink>
      </div>
      <button
        type="button"
        className="btn-close"
        aria-label={t('common.close')}
        onClick={() => {
          dismissForServer(WELCOME_BANNER_STORAGE_KEY);
          setIsDismissed(true);
        }}
      />
    </div>
  );
}

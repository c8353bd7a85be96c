import { ALERT_STORAGE_KEYS } from '@amora/contracts/core';
import { useTranslation } from 'react-i18next';
import { MemberBanner } from '@/components/ui/member-banner';
import { useBannerDismissal } from '@/lib/dismissals';
import { formatResetTime } from '@/lib/format-time';
import { useTimeZone } from '@/lib/page-request';
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
  const [isDismissed, dismiss] = useBannerDismissal(WELCOME_BANNER_STORAGE_KEY);
  const isShown = !bonus && !isDismissed && isMembersArea(route);
  const welcome = useWelcomeDiscount(isShown);
  if (!isShown || !welcome) return null;
  const percent = welcome.value_percentage;
  return (
    <MemberBanner
      label={t('timeBonus.welcomeLabel')}
      testId="welcome-discount-banner"
      className="welcome-discount-banner"
      onClose={dismiss}
    >
      <span>
        <strong>{t('timeBonus.welcome', { percent })}</strong>{' '}
        {t('timeBonus.welcomeUntil', { date: formatResetTime(welcome.expires, locale, undefined, timeZone) })}
      </span>
      <LocalLink to="/credits" data-testid="welcome-discount-link">
        {t('timeBonus.welcomeCta')}
      </LocalLink>
    </MemberBanner>
  );
}

import './discounts.css';
import { ALERT_STORAGE_KEYS, MEMBERS_AREA, type RouteName } from '@amora/contracts/core';
import { useTranslation } from 'react-i18next';
import { MemberBanner } from '@/components/ui/member-banner';
import { useBannerDismissal } from '@/lib/dismissals';
import { useIsPhone } from '@/lib/use-media-query';
import { formatCountdown, useSecondsLeft } from '@/shared/discounts/countdown';
import { type TimeBonus, useTimeBonus } from '@/shared/discounts/time-bonus';
import { LocalLink } from '@/shared/site/local-link';
import { useRouteName } from '@/shared/site/use-route-name';

export const isMembersArea = (route: string | undefined) => route !== undefined && MEMBERS_AREA.includes(route as RouteName);

/** hh:mm:ss left of the time bonus, ticking every second; a timer for assistive technology (not read at every tick). */
export function TimeBonusCountdown({ bonus, className }: { bonus: TimeBonus; className?: string }) {
  const { t } = useTranslation();
  const seconds = useSecondsLeft(bonus.endsAt);
  return (
    // The seconds go on between the server's render and the app's: its next tick shows the right one.
    <span
      role="timer"
      aria-label={t('timeBonus.timeLeft')}
      className={className}
      data-testid="time-bonus-countdown"
      suppressHydrationWarning
    >
      {formatCountdown(seconds)}
    </span>
  );
}

/**
 * Spec §2: the top time-bonus banner, for members in the members area while the time bonus is visible; it leads
 * to the credit packages. One line in the banner strip, the whole of it a link: what the bonus is, the countdown,
 * and (from md up) the call to action. An offer, not something the member must do, so it can be closed, which is
 * remembered (hide-time-bonus-banner, storage and cookie: lib/dismissals.ts); the bonus itself stays on /credits.
 */
export function TimeBonusBanner() {
  const { t } = useTranslation();
  const route = useRouteName();
  const bonus = useTimeBonus();
  const isPhone = useIsPhone();
  const [isDismissed, dismiss] = useBannerDismissal(ALERT_STORAGE_KEYS.timeBonusBanner);
  if (!bonus || isDismissed || !isMembersArea(route)) return null;
  const percent = bonus.discount.value_percentage;
  return (
    <MemberBanner
      label={t('timeBonus.label')}
      testId="time-bonus-banner"
      className="time-bonus-banner"
      closeClassName="btn-close btn-close-white"
      isBare
      onClose={dismiss}
    >
      <LocalLink to="/credits" className="container time-bonus-link" data-testid="time-bonus-link">
        <span className="time-bonus-text">
          <strong>{isPhone ? t('timeBonus.bannerShort', { percent }) : t('timeBonus.banner', { percent })}</strong>{' '}
          <span className="text-nowrap">
            {t('timeBonus.endsIn')} <TimeBonusCountdown bonus={bonus} className="time-bonus-clock" />
          </span>
        </span>
        <span className="time-bonus-cta">
          {!isPhone && t('timeBonus.cta', { percent })}
          <svg viewBox="0 0 16 16" width="16" height="16" aria-hidden="true" focusable="false">
            <path d="m6 3 5 5-5 5" fill="none" stroke="currentColor" strokeWidth="2" strokeLinecap="round" strokeLinejoin="round" />
          </svg>
        </span>
      </LocalLink>
    </MemberBanner>
  );
}

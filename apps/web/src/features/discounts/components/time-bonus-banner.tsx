import './discounts.css';
import { MEMBERS_AREA, type RouteName } from '@amora/contracts/core';
import { useTranslation } from 'react-i18next';
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
    <span role="timer" aria-label={t('timeBonus.timeLeft')} className={className} data-testid="time-bonus-countdown">
      {formatCountdown(seconds)}
    </span>
  );
}

/**
 * Spec §2: the top time-bonus banner, for members in the members area while the time bonus is visible; it leads
 * to the credit packages. One line in the banner strip: what the bonus is, the countdown, the link.
 */
export function TimeBonusBanner() {
  const { t } = useTranslation();
  const route = useRouteName();
  const bonus = useTimeBonus();
  if (!bonus || !isMembersArea(route)) return null;
  const percent = bonus.discount.value_percentage;
  return (
    <div className="alert time-bonus-banner" role="region" aria-label={t('timeBonus.label')} data-testid="time-bonus-banner">
      <div className="container">
        <span className="time-bonus-text">
          <strong>{t('timeBonus.banner', { percent })}</strong>{' '}
          <span className="text-nowrap">
            {t('timeBonus.endsIn')} <TimeBonusCountdown bonus={bonus} className="time-bonus-clock" />
          </span>
        </span>
        <LocalLink to="/credits" className="btn btn-sm btn-light time-bonus-cta" data-testid="time-bonus-link">
          {t('timeBonus.cta', { percent })}
        </LocalLink>
      </div>
    </div>
  );
}

import { ALERT_STORAGE_KEYS, TIME_BONUS_MODAL_DELAY_MS } from '@amora/contracts/core';
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Dialog } from '@/components/ui/dialog';
import { storage } from '@/lib/storage';
import { useTimeBonus } from '@/shared/discounts/time-bonus';
import { useUser } from '@/shared/session/user';
import { LocalLink } from '@/shared/site/local-link';
import { useRouteName } from '@/shared/site/use-route-name';
import { isMembersArea, TimeBonusCountdown } from './time-bonus-banner';

/** How often a due modal looks whether another dialog has been closed. */
const OTHER_DIALOG_CHECK_MS = 500;

// Counted once per page load from the moment the member first entered the members area, like the auto-like.
let membersAreaEnteredAt: number | null = null;

/** For tests: a new page load. */
export function resetTimeBonusModal() {
  membersAreaEnteredAt = null;
}

/**
 * Spec §2, §9: the time-bonus modal opens 40 s after the member entered the members area, while the time bonus
 * is visible, the member has 0 credits and has never dismissed it (hide-time-bonus-modal, a timestamp). Closing
 * it in any way, or following its link to the credits, counts as dismissing it.
 */
export function TimeBonusModal() {
  const { t } = useTranslation();
  const route = useRouteName();
  const user = useUser();
  const bonus = useTimeBonus();
  const [isDue, setIsDue] = useState(false);
  const [isClear, setIsClear] = useState(false);
  const [isDismissed, setIsDismissed] = useState(() => storage.isDismissed(ALERT_STORAGE_KEYS.timeBonus));
  const isInArea = isMembersArea(route);

  useEffect(() => {
    if (!isInArea || isDue) return;
    membersAreaEnteredAt ??= Date.now();
    const timer = window.setTimeout(() => setIsDue(true), Math.max(0, membersAreaEnteredAt + TIME_BONUS_MODAL_DELAY_MS - Date.now()));
    return () => window.clearTimeout(timer);
  }, [isInArea, isDue]);

  // Due while another dialog is open (the auto-like's match modal comes at 20 s and is often still there at 40 s):
  // it waits until that one is closed instead of opening on top of it.
  useEffect(() => {
    if (!isDue || isClear) return;
    const check = () => {
      if (!document.querySelector('dialog[open]')) setIsClear(true);
    };
    check();
    const timer = window.setInterval(check, OTHER_DIALOG_CHECK_MS);
    return () => window.clearInterval(timer);
  }, [isDue, isClear]);

  if (!bonus || !user || isDismissed) return null;
  const isOpen = isDue && isClear && isInArea && user.credits === 0;
  const dismiss = () => {
    storage.dismiss(ALERT_STORAGE_KEYS.timeBonus);
    setIsDismissed(true);
  };
  const percent = bonus.discount.value_percentage;
  return (
    <Dialog isOpen={isOpen} onClose={dismiss} labelledBy="time-bonus-title" testId="time-bonus-modal" size="sm">
      <div className="modal-header border-0 pb-0">
        <h2 className="modal-title h5" id="time-bonus-title">
          {t('timeBonus.modalTitle', { percent })}
        </h2>
        <button type="button" className="btn-close" aria-label={t('common.close')} onClick={dismiss} />
      </div>
      <div className="modal-body text-center">
        <p>{t('timeBonus.modalText', { percent })}</p>
        <p className="small text-body-secondary mb-1">{t('timeBonus.endsIn')}</p>
        <TimeBonusCountdown bonus={bonus} className="time-bonus-modal-clock" />
      </div>
      <div className="modal-footer flex-column align-items-stretch border-0 pt-0">
        <LocalLink to="/credits" className="btn btn-primary" onClick={dismiss} data-autofocus data-testid="time-bonus-modal-link">
          {t('timeBonus.modalCta', { percent })}
        </LocalLink>
        <button type="button" className="btn btn-link text-body-secondary" onClick={dismiss} data-testid="time-bonus-modal-dismiss">
          {t('timeBonus.modalDismiss')}
        </button>
      </div>
    </Dialog>
  );
}

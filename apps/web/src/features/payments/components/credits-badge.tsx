import { CREDITS_BADGE_THRESHOLD } from '@amora/contracts/core';
import { useTranslation } from 'react-i18next';
import { useUser } from '@/shared/session/user';

/**
 * The credits badge of the Credits / Get Premium item (spec §2): the member's balance when it is 10 or fewer, in
 * the warning colour above 0 and the danger colour at 0; nothing above 10.
 */
export function CreditsBadge() {
  const { t } = useTranslation();
  const user = useUser();
  if (!user || user.credits > CREDITS_BADGE_THRESHOLD) return null;
  const isEmpty = user.credits <= 0;
  return (
    <span
      className={`count-badge ${isEmpty ? 'text-bg-danger' : 'text-bg-warning'}`}
      data-testid="credits-badge"
      data-level={isEmpty ? 'danger' : 'warning'}
    >
      <span aria-hidden="true">{Math.max(0, user.credits)}</span>
      <span className="visually-hidden">{t('credits.badge', { count: Math.max(0, user.credits) })}</span>
    </span>
  );
}

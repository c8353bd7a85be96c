import { CREDITS_BADGE_THRESHOLD } from '@amora/contracts/core';
import { useTranslation } from 'react-i18next';
import { useUser } from '@/shared/session/user';

/**
 * The credits badge of the Credits / Get Premium item (spec §2): the member's balance when it is 10 or fewer, a
 * hint that credits run low; nothing above 10. A balance is no notification: it is drawn as a muted pill, never
 * as the red count of unread messages and new likes ("0" in red reads as an alert). At 0 the pill takes the
 * warning's soft tone (data-level "empty"; "low" above 0), still no red.
 */
export function CreditsBadge() {
  const { t } = useTranslation();
  const user = useUser();
  if (!user || user.credits > CREDITS_BADGE_THRESHOLD) return null;
  const balance = Math.max(0, user.credits);
  return (
    <span className="credits-pill" data-testid="credits-badge" data-level={balance === 0 ? 'empty' : 'low'}>
      <span aria-hidden="true">{balance}</span>
      <span className="visually-hidden">{t('credits.badge', { count: balance })}</span>
    </span>
  );
}

import { ALERT_STORAGE_KEYS } from '@amora/contracts/core';
import { useTranslation } from 'react-i18next';
import { MemberBanner } from '@/components/ui/member-banner';
import { useBannerDismissal } from '@/lib/dismissals';
import { useUser } from '@/shared/session/user';
import { LocalLink } from '@/shared/site/local-link';
import { useRouteName } from '@/shared/site/use-route-name';

const HIDDEN_ON = new Set(['settings', 'notifications']);

/**
 * Spec §2 disabled-notifications alert: for a member whose mail stopped (a bounce, a spam report, an unsubscribe),
 * except on settings and notifications, where the way back is; dismissal stored under
 * hide-disabled-notifications-alert (storage and cookie: lib/dismissals.ts).
 */
export function DisabledNotificationsAlert() {
  const user = useUser();
  const route = useRouteName();
  const { t } = useTranslation();
  const [isDismissed, dismiss] = useBannerDismissal(ALERT_STORAGE_KEYS.disabledNotifications);
  if (!user || user.notifications_disabled.length === 0 || isDismissed || (route && HIDDEN_ON.has(route))) return null;
  const reason = user.notifications_disabled.includes('bounce') ? 'bounce' : 'optOut';
  return (
    <MemberBanner
      label={t('notifications.alert.label')}
      testId="disabled-notifications-alert"
      className="alert-warning rounded-0 mb-0 border-0 border-bottom"
      onClose={dismiss}
    >
      {t(`notifications.alert.${reason}`)} <LocalLink to="/notifications">{t('notifications.alert.link')}</LocalLink>
    </MemberBanner>
  );
}

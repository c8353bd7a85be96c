import { ALERT_STORAGE_KEYS } from '@amora/contracts/core';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { dismissForServer, isDismissedForServer } from '@/lib/dismissals';
import { useCookieReader } from '@/lib/page-request';
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
  const cookieOf = useCookieReader();
  const [isDismissed, setIsDismissed] = useState(() => isDismissedForServer(ALERT_STORAGE_KEYS.disabledNotifications, cookieOf));
  if (!user || user.notifications_disabled.length === 0 || isDismissed || (route && HIDDEN_ON.has(route))) return null;
  const reason = user.notifications_disabled.includes('bounce') ? 'bounce' : 'optOut';
  return (
    <div
      className="alert alert-warning alert-dismissible rounded-0 mb-0 border-0 border-bottom"
      role="region"
      aria-label={t('notifications.alert.label')}
      data-testid="disabled-notifications-alert"
    >
      <div className="container">
        {t(`notifications.alert.${reason}`)} <LocalLink to="/notifications">{t('notifications.alert.link')}</LocalLink>
      </div>
      <button
        type="button"
        className="btn-close"
        aria-label={t('common.close')}
        onClick={() => {
          dismissForServer(ALERT_STORAGE_KEYS.disabledNotifications);
          setIsDismissed(true);
        }}
      />
    </div>
  );
}

import { ALERT_STORAGE_KEYS } from '@amora/contracts/core';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { dismissForServer, isDismissedForServer } from '@/lib/dismissals';
import { useCookieReader } from '@/lib/page-request';
import { useUser } from '@/shared/session/user';
import { LocalLink } from '@/shared/site/local-link';
import { useRouteName } from '@/shared/site/use-route-name';

const HIDDEN_ON = new Set(['profile', 'signup', 'activate-done', 'premium', 'notifications', 'directdebit', 'settings']);

/** Spec §2 profile-photo alert: for members without a main image; dismissal stored under hide-enrich-alert
 * (storage and cookie: lib/dismissals.ts). */
export function PhotoAlert() {
  const user = useUser();
  const route = useRouteName();
  const { t } = useTranslation();
  const cookieOf = useCookieReader();
  const [isDismissed, setIsDismissed] = useState(() => isDismissedForServer(ALERT_STORAGE_KEYS.enrich, cookieOf));
  if (!user || user.profile.main_image || isDismissed || (route && HIDDEN_ON.has(route))) return null;
  return (
    <div
      className="alert alert-info alert-dismissible rounded-0 mb-0 border-0 border-bottom"
      role="region"
      aria-label={t('profile.alert.label')}
      data-testid="photo-alert"
    >
      <div className="container">
        {t('profile.alert.text')} <LocalLink to="/profile">{t('profile.alert.link')}</LocalLink>
      </div>
      <button
        type="button"
        className="btn-close"
        aria-label={t('common.close')}
        onClick={() => {
          dismissForServer(ALERT_STORAGE_KEYS.enrich);
          setIsDismissed(true);
        }}
      />
    </div>
  );
}

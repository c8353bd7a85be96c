import { ALERT_STORAGE_KEYS } from '@amora/contracts/core';
import { useTranslation } from 'react-i18next';
import { MemberBanner } from '@/components/ui/member-banner';
import { useBannerDismissal } from '@/lib/dismissals';
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
  const [isDismissed, dismiss] = useBannerDismissal(ALERT_STORAGE_KEYS.enrich);
  if (!user || user.profile.main_image || isDismissed || (route && HIDDEN_ON.has(route))) return null;
  return (
    <MemberBanner label={t('profile.alert.label')} testId="photo-alert" onClose={dismiss}>
      {t('profile.alert.text')} <LocalLink to="/profile">{t('profile.alert.link')}</LocalLink>
    </MemberBanner>
  );
}

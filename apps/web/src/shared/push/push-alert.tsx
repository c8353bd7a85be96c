import { ALERT_STORAGE_KEYS } from '@amora/contracts/core';
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { MemberBanner } from '@/components/ui/member-banner';
import { storage } from '@/lib/storage';
import { useRouteName } from '@/shared/site/use-route-name';
import { usePushControls } from './use-push-controls';

/** Spec §2: the pages that never show the push alert. */
const HIDDEN_ON = new Set(['signup', 'notifications', 'activate-done', 'directdebit', 'premium']);

/**
 * Spec §2 push-notification enable alert: while this browser can take pushes and has none (not refused either),
 * a button that asks the browser's permission (on the click, never on load); on an iPhone or iPad in Safari, how
 * to add the site to the Home Screen, where push works. Dismissed under hide-push-notification-alert. Nothing in
 * the server's render: what the browser can do is known only in it.
 */
export function PushAlert() {
  const { t } = useTranslation();
  const route = useRouteName();
  const { state, enable, isBusy, hasFailed } = usePushControls();
  const [isDismissed, setIsDismissed] = useState(true);
  useEffect(() => setIsDismissed(storage.isDismissed(ALERT_STORAGE_KEYS.push)), []);
  if (isDismissed || (route && HIDDEN_ON.has(route)) || (state !== 'unsubscribed' && state !== 'needs-install')) return null;
  const dismiss = () => {
    storage.dismiss(ALERT_STORAGE_KEYS.push);
    setIsDismissed(true);
  };
  return (
    <MemberBanner label={t('push.alert.label')} testId="push-alert" onClose={dismiss}>
      {state === 'needs-install' ? (
        t('push.alert.ios')
      ) : (
        <>
          {t('push.alert.text')}{' '}
          <button type="button" className="btn btn-sm btn-primary ms-1" disabled={isBusy} onClick={() => void enable()}>
            {t('push.alert.button')}
          </button>
          {hasFailed && (
            <span className="d-block small mt-1" role="alert">
              {t('push.alert.failed')}
            </span>
          )}
        </>
      )}
    </MemberBanner>
  );
}

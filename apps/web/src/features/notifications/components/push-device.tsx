import { useTranslation } from 'react-i18next';
import { Button } from '@/components/ui/button';
import { Card } from '@/components/ui/card';
import { usePushControls } from '@/shared/push/use-push-controls';
import { useSettings } from '@/shared/site/api/get-settings';

/**
 * Push on this device (spec §4 push states): whether this browser shows push messages for the member, and the
 * button to turn them on (it asks the browser's permission) or off; what to do when the browser cannot, needs
 * the app on the Home Screen first (iPhone, iPad) or has blocked them.
 */
export function PushDevice() {
  const { t } = useTranslation();
  const site = useSettings().name;
  const { state, enable, disable, isBusy, hasFailed } = usePushControls();
  return (
    <Card title={t('notifications.push.title')} className="mb-4" testId="push-device">
      <p className="mb-2" data-testid="push-state" data-state={state}>
        {t(`notifications.push.states.${state}`, { site })}
      </p>
      {hasFailed && (
        <p className="text-danger small" role="alert">
          {t('notifications.push.failed')}
        </p>
      )}
      {state === 'unsubscribed' && (
        <Button size="sm" onClick={() => void enable()} isLoading={isBusy} testId="push-enable">
          {t('notifications.push.enable')}
        </Button>
      )}
      {state === 'subscribed' && (
        <Button size="sm" variant="outline-dark" onClick={() => void disable()} isLoading={isBusy} testId="push-disable">
          {t('notifications.push.disable')}
        </Button>
      )}
    </Card>
  );
}

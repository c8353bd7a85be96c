import {
  isOffered,
  NOTIFICATION_CHANNELS,
  NOTIFICATION_TYPES,
  type NotificationChannel,
  type NotificationsDisabledReason,
  type NotificationType,
} from '@amora/contracts/core';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { Navigate } from 'react-router';
import { Button } from '@/components/ui/button';
import { Card } from '@/components/ui/card';
import { Skeleton, SkeletonRegion } from '@/components/ui/skeleton';
import { useToast } from '@/components/ui/toast';
import { errorText } from '@/lib/error-text';
import { userQueryKey, useUser } from '@/shared/session/user';
import { useSettings } from '@/shared/site/api/get-settings';
import { LocalLink } from '@/shared/site/local-link';
import { useLocalePath } from '@/shared/site/use-locale';
import { usePageTitle } from '@/shared/site/use-page-title';
import { type NotificationSettings, notificationSettingsQuery, useResumeMail, useSavePreference } from '../api/notifications';
import { PushDevice } from '../components/push-device';
import './notifications.css';

/** Why mail stopped, and the way back for each: confirm or change the address after a bounce; opt in after the rest. */
function MailStopped({ settings }: { settings: NotificationSettings }) {
  const { t } = useTranslation();
  const toast = useToast();
  const queryClient = useQueryClient();
  const resume = useResumeMail((answer) => {
    // The banner over the members area and the activation reminder read the member's reasons.
    queryClient.setQueryData(userQueryKey, (user: unknown) =>
      user && typeof user === 'object' ? { ...user, notifications_disabled: answer.disabled } : user,
    );
    if (answer.disabled.length === 0) toast.show({ message: t('notifications.stopped.resumed'), variant: 'success' });
  });
  const reasons = settings.disabled;
  if (reasons.length === 0) return null;
  const optIn = (which: NotificationsDisabledReason[]) =>
    resume.mutate(which, { onError: (error) => toast.show({ message: errorText(t, error), variant: 'danger' }) });
  const others = reasons.filter((reason) => reason !== 'bounce');
  return (
    <div className="alert alert-warning mb-4" role="region" aria-labelledby="mail-stopped-title" data-testid="mail-stopped">
      <h2 className="h6 alert-heading" id="mail-stopped-title">
        {t('notifications.stopped.title')}
      </h2>
      {reasons.includes('bounce') && (
        <div className="mb-3" data-testid="mail-stopped-bounce">
          <p className="mb-2">{t('notifications.stopped.bounce', { email: settings.email })}</p>
          <div className="d-flex flex-wrap gap-2">
            <Button variant="primary" size="sm" onClick={() => optIn(['bounce'])} isLoading={resume.isPending} testId="confirm-address">
              {t('notifications.stopped.bounceConfirm')}
            </Button>
            <LocalLink to="/settings" className="btn btn-sm btn-outline-dark">
              {t('notifications.stopped.bounceChange')}
            </LocalLink>
          </div>
        </div>
      )}
      {others.length > 0 && (
        <div className="mb-3" data-testid="mail-stopped-optout">
          {others.map((reason) => (
            <p className="mb-2" key={reason}>
              {t(`notifications.stopped.${reason}`)}
            </p>
          ))}
          <Button variant="primary" size="sm" onClick={() => optIn(others)} isLoading={resume.isPending} testId="opt-in">
            {t('notifications.stopped.optIn')}
          </Button>
        </div>
      )}
      <p className="small mb-0">{t('notifications.stopped.essential')}</p>
    </div>
  );
}

/** One switch: a type by one channel. */
function Toggle({ type, channel, isOn, label }: { type: NotificationType; channel: NotificationChannel; isOn: boolean; label: string }) {
  const { t } = useTranslation();
  const toast = useToast();
  const save = useSavePreference();
  const id = `notify-${type}-${channel}`;
  return (
    <div className="form-check form-switch notify-switch">
      <input
        className="form-check-input"
        type="checkbox"
        role="switch"
        id={id}
        checked={isOn}
        aria-checked={isOn}
        aria-label={label}
        data-testid={id}
        onChange={(event) =>
          save.mutate(
            { type, channel, enabled: event.target.checked },
            {
              onSuccess: () => toast.show({ message: t('notifications.saved'), variant: 'success' }),
              onError: (error) => toast.show({ message: errorText(t, error), variant: 'danger' }),
            },
          )
        }
      />
    </div>
  );
}

/** Every type of spec §3 with a switch per channel, and what each type is. */
function Preferences({ settings }: { settings: NotificationSettings }) {
  const { t } = useTranslation();
  const site = useSettings().name;
  const isOn = (type: NotificationType, channel: NotificationChannel) =>
    settings.preferences.find((p) => p.type === type && p.channel === channel)?.enabled ?? false;
  return (
    <Card className="mb-4" testId="notification-preferences">
      <table className="notify-table">
        <caption className="visually-hidden">{t('notifications.title')}</caption>
        <thead>
          <tr>
            <th scope="col" className="visually-hidden">
              {t('notifications.typeColumn')}
            </th>
            {NOTIFICATION_CHANNELS.map((channel) => (
              <th scope="col" className="notify-channel" key={channel}>
                {t(`notifications.channels.${channel}`)}
              </th>
            ))}
          </tr>
        </thead>
        <tbody>
          {NOTIFICATION_TYPES.map((type) => (
            <tr key={type} data-testid={`notify-${type}`}>
              <th scope="row">
                <div className="fw-semibold">{t(`notifications.types.${type}.label`)}</div>
                <div className="small fw-normal text-body-secondary">{t(`notifications.types.${type}.help`, { site })}</div>
              </th>
              {NOTIFICATION_CHANNELS.map((channel) => (
                <td className="notify-channel" key={channel}>
                  {isOffered(type, channel) ? (
                    <Toggle
                      type={type}
                      channel={channel}
                      isOn={isOn(type, channel)}
                      label={t('notifications.toggleLabel', {
                        type: t(`notifications.types.${type}.label`),
                        channel: t(`notifications.channels.${channel}`),
                      })}
                    />
                  ) : (
                    <span className="notify-not-offered" title={t('notifications.emailOnly')}>
                      <span aria-hidden="true">–</span>
                      <span className="visually-hidden">{t('notifications.emailOnly')}</span>
                    </span>
                  )}
                </td>
              ))}
            </tr>
          ))}
        </tbody>
      </table>
    </Card>
  );
}

function PreferencesSkeleton() {
  const { t } = useTranslation();
  return (
    <SkeletonRegion label={t('notifications.loading')} className="mb-4">
      {NOTIFICATION_TYPES.map((type) => (
        <div className="notify-skeleton-row" key={type} aria-hidden="true">
          <Skeleton width="70%" />
          <Skeleton width={36} height={20} />
          <Skeleton width={36} height={20} />
        </div>
      ))}
    </SkeletonRegion>
  );
}

/**
 * /notifications (spec §2): what the member hears about while away, by email and by push, with the reason mail
 * stopped and the way back, where mails go, push on this device, and the delete-account item (`deleteAccount`,
 * which app/pages/notifications-page puts in).
 */
export function NotificationsPage({ deleteAccount }: { deleteAccount?: ReactNode }) {
  const { t } = useTranslation();
  usePageTitle(t('notifications.title'));
  const user = useUser();
  const localize = useLocalePath();
  const site = useSettings().name;
  const query = useQuery({ ...notificationSettingsQuery(), enabled: user !== null });
  if (!user) return <Navigate to={`${localize('/login')}?redirect=${encodeURIComponent(localize('/notifications'))}`} replace />;
  return (
    <main id="main" className="container py-4 py-md-5" style={{ maxWidth: 760 }}>
      <h1 className="h3 mb-2">{t('notifications.title')}</h1>
      <p className="text-body-secondary mb-4">{t('notifications.intro', { site })}</p>
      {query.data ? (
        <>
          <MailStopped settings={query.data} />
          <Preferences settings={query.data} />
          <p className="small text-body-secondary mb-4" data-testid="mail-address">
            {t('notifications.emailTo', { email: query.data.email })} <LocalLink to="/settings">{t('notifications.changeEmail')}</LocalLink>
          </p>
        </>
      ) : query.isError ? (
        <div className="alert alert-danger" role="alert">
          {errorText(t, query.error)}{' '}
          <Button variant="link" className="p-0 align-baseline" onClick={() => void query.refetch()}>
            {t('notifications.retry')}
          </Button>
        </div>
      ) : (
        <PreferencesSkeleton />
      )}
      <PushDevice />
      {deleteAccount}
    </main>
  );
}

import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useSearchParams } from 'react-router';
import { Dialog } from '@/components/ui/dialog';
import { errorText } from '@/lib/error-text';
import { useIsPhone } from '@/lib/use-media-query';
import { useUser } from '@/shared/session/user';
import { useRouteName } from '@/shared/site/use-route-name';
import { resendActivation } from '../api/account';

const HIDDEN_ON = new Set(['signup', 'settings', 'notifications']);

/** The query (spec §2) that makes the activation reminder a modal: where the signup flow leads. */
export const ACTIVATION_MODAL_QUERY = 'api_signup_complete';

/**
 * Spec §2: shown while the address is not confirmed and the profile is disabled, unless notifications are
 * disabled (notifications_disabled: fbl, bounce, listunsubscribe; read receipts are a setting apart). A modal when
 * the query has api_signup_complete (not on phones), otherwise an alert. The signup flow ends on the members with
 * that query (ACTIVATION_MODAL_QUERY), so a new member meets the modal once.
 */
export function ActivationReminder() {
  const user = useUser();
  const route = useRouteName();
  const [params] = useSearchParams();
  const { t } = useTranslation();
  const [state, setState] = useState<'idle' | 'sending' | 'sent' | string>('idle');
  const [isModalClosed, setIsModalClosed] = useState(false);
  const isPhone = useIsPhone();

  if (user?.status !== 'not_confirmed' || user.profile.status !== 'disabled' || user.notifications_disabled.length > 0) return null;
  if (route && HIDDEN_ON.has(route)) return null;
  const fromSignup = params.has(ACTIVATION_MODAL_QUERY);
  if (fromSignup && isPhone) return null;

  const handleResend = () => {
    setState('sending');
    resendActivation().then(
      () => setState('sent'),
      (error: unknown) => setState(errorText(t, error)),
    );
  };
  const body = (
    <>
      <p className="mb-2">{t('activation.reminder', { email: user.email })}</p>
      {state === 'sent' ? (
        <p className="mb-0 fw-semibold" role="status">
          {t('activation.resent')}
        </p>
      ) : (
        <button
          type="button"
          className="btn btn-sm btn-outline-dark"
          onClick={handleResend}
          disabled={state === 'sending'}
          data-testid="resend-activation"
        >
          {t('activation.resend')}
        </button>
      )}
      {state !== 'idle' && state !== 'sending' && state !== 'sent' && (
        <p className="text-danger small mt-2 mb-0" role="alert">
          {state}
        </p>
      )}
    </>
  );

  if (fromSignup) {
    return (
      <Dialog isOpen={!isModalClosed} onClose={() => setIsModalClosed(true)} labelledBy="activation-title" testId="activation-modal">
        <div className="modal-header">
          <h2 className="modal-title h5" id="activation-title">
            {t('activation.title')}
          </h2>
          <button type="button" className="btn-close" aria-label={t('common.close')} onClick={() => setIsModalClosed(true)} />
        </div>
        <div className="modal-body">{body}</div>
      </Dialog>
    );
  }
  return (
    <div
      className="alert alert-warning rounded-0 mb-0 border-0 border-bottom"
      role="region"
      aria-label={t('activation.title')}
      data-testid="activation-alert"
    >
      <div className="container">{body}</div>
    </div>
  );
}

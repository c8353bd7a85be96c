import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Navigate } from 'react-router';
import { errorText } from '@/lib/error-text';
import { useUser } from '@/shared/session/user';
import { useSettings } from '@/shared/site/api/get-settings';
import { LocalLink } from '@/shared/site/local-link';
import { useLocalePath } from '@/shared/site/use-locale';
import { usePageTitle } from '@/shared/site/use-page-title';
import { resendActivation } from '../api/account';

/** After signup: the welcome credits, the activation email, and the way on. No top menu here (spec §2). */
export function CompleteSignupPage() {
  const { t } = useTranslation();
  usePageTitle(t('completeSignup.title'));
  const user = useUser();
  const settings = useSettings();
  const localize = useLocalePath();
  const [resent, setResent] = useState<string | null>(null);
  if (!user) return <Navigate to={localize('/')} replace />;
  const handleResend = () =>
    resendActivation().then(
      () => setResent(t('activation.resent')),
      (error: unknown) => setResent(errorText(t, error)),
    );
  return (
    <main id="main" className="container py-5 text-center" style={{ maxWidth: 620 }} data-testid="complete-signup">
      <h1 className="h3">{t('completeSignup.title')}</h1>
      <p className="lead">{t('completeSignup.welcome', { name: user.profile.name, site: settings.name, count: user.credits })}</p>
      {user.status === 'not_confirmed' && (
        <div className="card my-4 text-start">
          <div className="card-body">
            <h2 className="h5">{t('activation.title')}</h2>
            <p>{t('activation.reminder', { email: user.email })}</p>
            <button type="button" className="btn btn-outline-dark btn-sm" onClick={handleResend}>
              {t('activation.resend')}
            </button>
            {resent && (
              <p className="mt-2 mb-0" role="status">
                {resent}
              </p>
            )}
          </div>
        </div>
      )}
      <LocalLink to="/signup-matches" className="btn btn-primary btn-lg" data-testid="complete-signup-continue">
        {t('completeSignup.continue')}
      </LocalLink>
    </main>
  );
}

export { CompleteSignupPage as Component };

import { useTranslation } from 'react-i18next';
import { useUser } from '@/shared/session/user';
import { useSettings } from '@/shared/site/api/get-settings';
import { LocalLink } from '@/shared/site/local-link';
import { usePageTitle } from '@/shared/site/use-page-title';

/** /activate/done: the signup-profile, get-premium and all-members cards (spec §2). */
export function ActivateDonePage() {
  const { t } = useTranslation();
  const settings = useSettings();
  const user = useUser();
  usePageTitle(t('activateDone.title'));
  const cards = [
    { key: 'profile', to: user ? '/profile' : '/login' },
    { key: 'premium', to: user ? '/members' : '/login' },
    { key: 'members', to: '/members' },
  ] as const;
  return (
    <main id="main" className="container py-5" data-testid="activate-done">
      <h1 className="h3 text-center">{t('activateDone.title')}</h1>
      <p className="lead text-center mb-4">{t('activateDone.text', { site: settings.name })}</p>
      <div className="row g-3">
        {cards.map((card) => (
          <div className="col-md-4" key={card.key}>
            <div className="card h-100 shadow-sm border-0" data-testid={`activate-card-${card.key}`}>
              <div className="card-body d-flex flex-column">
                <h2 className="h5">{t(`activateDone.cards.${card.key}.title`)}</h2>
                <p className="flex-grow-1">{t(`activateDone.cards.${card.key}.text`, { site: settings.name })}</p>
                <LocalLink to={card.to} className="btn btn-outline-primary">
                  {t(`activateDone.cards.${card.key}.button`)}
                </LocalLink>
              </div>
            </div>
          </div>
        ))}
      </div>
    </main>
  );
}

export function ActivateErrorPage() {
  const { t } = useTranslation();
  const user = useUser();
  usePageTitle(t('auth.errors.activationFailed'));
  return (
    <main id="main" className="container py-5 text-center" style={{ maxWidth: 620 }} data-testid="activate-error">
      <h1 className="h3">{t('auth.errors.activationFailed')}</h1>
      <p className="lead">{t('activateError.text')}</p>
      <LocalLink to={user ? '/complete-signup' : '/login'} className="btn btn-primary">
        {user ? t('activation.resend') : t('nav.login')}
      </LocalLink>
    </main>
  );
}

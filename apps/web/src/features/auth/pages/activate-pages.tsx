import { useTranslation } from 'react-i18next';
import { buttonClass } from '@/components/ui/button';
import { FormPage } from '@/components/ui/form-page';
import { useUser } from '@/shared/session/user';
import { useSettings } from '@/shared/site/api/get-settings';
import { LocalLink } from '@/shared/site/local-link';
import { usePageTitle } from '@/shared/site/use-page-title';

const CARD_ICONS = {
  profile: 'M12 12a4.5 4.5 0 1 0 0-9 4.5 4.5 0 0 0 0 9zm0 2c-4.2 0-8 2.1-8 5v2h16v-2c0-2.9-3.8-5-8-5z',
  premium: 'm12 2 2.9 6.3 6.9.7-5.2 4.6 1.5 6.8L12 17l-6.1 3.4 1.5-6.8L2.2 9l6.9-.7z',
  members: 'M12 21 3.5 12.7a5.2 5.2 0 0 1 7.4-7.4L12 6.4l1.1-1.1a5.2 5.2 0 0 1 7.4 7.4z',
} as const;

/** /activate/done: the signup-profile, get-premium and all-members cards (spec §2). */
export function ActivateDonePage() {
  const { t } = useTranslation();
  const settings = useSettings();
  const user = useUser();
  usePageTitle(t('activateDone.title'));
  const cards = [
    { key: 'profile', to: user ? '/profile' : '/login', isMain: true },
    { key: 'premium', to: '/premium', isMain: false },
    { key: 'members', to: '/members', isMain: false },
  ] as const;
  return (
    <main id="main" className="auth-page" data-testid="activate-done">
      <div className="container" style={{ maxWidth: 1040 }}>
        <div className="text-center mb-4 mb-md-5">
          <div className="auth-mark is-success" aria-hidden="true">
            <svg viewBox="0 0 24 24" width="26" height="26" fill="currentColor" aria-hidden="true" focusable="false">
              <path d="M9.5 16.2 5.3 12l-1.4 1.4 5.6 5.6 11-11-1.4-1.4z" />
            </svg>
          </div>
          <h1 className="section-title h2">{t('activateDone.title')}</h1>
          <p className="lead mb-0">{t('activateDone.text', { site: settings.name })}</p>
        </div>
        <div className="row g-3 g-md-4">
          {cards.map((card) => (
            <div className="col-md-4" key={card.key}>
              <div className="card next-card" data-testid={`activate-card-${card.key}`}>
                <div className="card-body d-flex flex-column p-4">
                  <span className="feature-icon mb-3" aria-hidden="true">
                    <svg viewBox="0 0 24 24" width="24" height="24" fill="currentColor" aria-hidden="true" focusable="false">
                      <path d={CARD_ICONS[card.key]} />
                    </svg>
                  </span>
                  <h2 className="h5">{t(`activateDone.cards.${card.key}.title`)}</h2>
                  <p className="flex-grow-1 text-body-secondary">{t(`activateDone.cards.${card.key}.text`, { site: settings.name })}</p>
                  <LocalLink to={card.to} className={buttonClass({ variant: card.isMain ? 'primary' : 'outline-primary', isBlock: true })}>
                    {t(`activateDone.cards.${card.key}.button`)}
                  </LocalLink>
                </div>
              </div>
            </div>
          ))}
        </div>
      </div>
    </main>
  );
}

export function ActivateErrorPage() {
  const { t } = useTranslation();
  const user = useUser();
  usePageTitle(t('auth.errors.activationFailed'));
  return (
    <FormPage title={t('auth.errors.activationFailed')} intro={t('activateError.text')} mark="danger" testId="activate-error">
      <LocalLink to={user ? '/complete-signup' : '/login'} className={buttonClass({ size: 'lg', isBlock: true })}>
        {user ? t('activation.resend') : t('nav.login')}
      </LocalLink>
    </FormPage>
  );
}

import { MIN_AGE } from '@amora/contracts/core';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Navigate } from 'react-router';
import { useOpenSignup } from '@/shared/modals/open-signup';
import { useUser } from '@/shared/session/user';
import { useSettings } from '@/shared/site/api/get-settings';
import { LocalLink } from '@/shared/site/local-link';
import { useCanSignUp } from '@/shared/site/use-can-sign-up';
import { useLocalePath } from '@/shared/site/use-locale';
import { usePageTitle } from '@/shared/site/use-page-title';

const ICONS = {
  search: 'M10.5 3a7.5 7.5 0 0 1 5.96 12.06l4.24 4.24-1.4 1.4-4.24-4.24A7.5 7.5 0 1 1 10.5 3zm0 2a5.5 5.5 0 1 0 0 11 5.5 5.5 0 0 0 0-11z',
  match: 'M12 21 3.5 12.7a5.2 5.2 0 0 1 7.4-7.4L12 6.4l1.1-1.1a5.2 5.2 0 0 1 7.4 7.4z',
  chat: 'M4 4h16a2 2 0 0 1 2 2v10a2 2 0 0 1-2 2H9l-5 4v-4a2 2 0 0 1-2-2V6a2 2 0 0 1 2-2z',
} as const;
const FEATURES = ['search', 'match', 'chat'] as const;

/** The visitor's index: who the site is for, how it works, and the way in. */
export function IndexPage() {
  const settings = useSettings();
  const { t } = useTranslation();
  usePageTitle(null);
  const openSignup = useOpenSignup();
  const canSignUp = useCanSignUp();
  // Members who open the index go to the members area; a signup finishing here navigates on its own.
  const [wasMember] = useState(useUser() !== null);
  const localize = useLocalePath();
  if (wasMember) return <Navigate to={localize('/members')} replace />;
  return (
    <main id="main">
      <section className="hero">
        <div className="container">
          <h1 className="display-5 mb-3">{settings.index_title}</h1>
          <p className="lead mb-4">{settings.description}</p>
          {!canSignUp && (
            <p className="mb-3" data-testid="signups-closed">
              {t('signup.closed', { site: settings.name })}
            </p>
          )}
          <div className="d-flex flex-wrap gap-2">
            {canSignUp && (
              <button
                type="button"
                className="btn btn-light btn-lg text-primary fw-semibold"
                data-testid="cta-signup"
                onClick={() => openSignup()}
              >
                {t('home.ctaSignup')}
              </button>
            )}
            <LocalLink to="/login" className={canSignUp ? 'btn btn-outline-light btn-lg' : 'btn btn-light btn-lg text-primary fw-semibold'}>
              {t('home.ctaLogin')}
            </LocalLink>
          </div>
          <p className="small mt-3 mb-0">{t('home.adultsOnly', { minAge: MIN_AGE })}</p>
        </div>
      </section>

      <section className="container py-5" aria-labelledby="how-title">
        <h2 id="how-title" className="h3 text-center mb-4">
          {t('home.howTitle', { site: settings.name })}
        </h2>
        <div className="row g-4">
          {FEATURES.map((key) => (
            <div className="col-md-4" key={key}>
              <div className="card h-100 border-0 shadow-sm">
                <div className="card-body">
                  <span className="feature-icon mb-3" aria-hidden="true">
                    <svg viewBox="0 0 24 24" width="24" height="24" fill="currentColor" aria-hidden="true">
                      <path d={ICONS[key]} />
                    </svg>
                  </span>
                  <h3 className="h5">{t(`home.features.${key}.title`)}</h3>
                  <p className="mb-0">{t(`home.features.${key}.text`, { count: settings.signup_credits })}</p>
                </div>
              </div>
            </div>
          ))}
        </div>
      </section>

      <section className="bg-white border-top border-bottom py-5" aria-labelledby="safety-title">
        <div className="container">
          <div className="row align-items-center g-4">
            <div className="col-md-7">
              <h2 id="safety-title" className="h4">
                {t('home.safetyTitle')}
              </h2>
              <p>{t('home.safetyText', { site: settings.name })}</p>
              <LocalLink to="/safety">{t('home.safetyLink')}</LocalLink>
            </div>
            <div className="col-md-5">
              <ul className="list-unstyled mb-0">
                {(['free', 'languages', 'privacy'] as const).map((k) => (
                  <li key={k} className="mb-2">
                    <span className="text-success me-2" aria-hidden="true">
                      ✓
                    </span>
                    {t(`home.points.${k}`, { count: k === 'languages' ? settings.languages.length : settings.signup_credits })}
                  </li>
                ))}
              </ul>
            </div>
          </div>
        </div>
      </section>
    </main>
  );
}

export { IndexPage as Component };

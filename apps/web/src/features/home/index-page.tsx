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
  const signupButton = (className: string) => (
    <button type="button" className={className} data-testid="cta-signup" onClick={() => openSignup()}>
      {t('home.ctaSignup')}
    </button>
  );
  return (
    <main id="main">
      <section className="hero">
        <div className="container">
          <div className="row align-items-center g-5">
            <div className="col-lg-7">
              <h1 className="display-4 mb-3">{settings.index_title}</h1>
              <p className="lead mb-4">{settings.description}</p>
              {!canSignUp && (
                <p className="mb-3" data-testid="signups-closed">
                  {t('signup.closed', { site: settings.name })}
                </p>
              )}
              <div className="hero-actions">
                {canSignUp && signupButton('btn btn-light btn-lg text-primary')}
                <LocalLink to="/login" className={canSignUp ? 'btn btn-outline-light btn-lg' : 'btn btn-light btn-lg text-primary'}>
                  {t('home.ctaLogin')}
                </LocalLink>
              </div>
              <p className="hero-note small mt-3 mb-0">{t('home.adultsOnly', { minAge: MIN_AGE })}</p>
            </div>
            <div className="col-lg-5 d-none d-lg-block">
              <HeroArt />
            </div>
          </div>
        </div>
      </section>

      <section className="container py-5" aria-labelledby="how-title">
        <h2 id="how-title" className="section-title h2 text-center mb-4 mb-md-5">
          {t('home.howTitle', { site: settings.name })}
        </h2>
        <ol className="row g-3 g-md-4 list-unstyled mb-0">
          {FEATURES.map((key) => (
            <li className="col-md-4" key={key}>
              <div className="card feature-card">
                <div className="card-body p-4">
                  <span className="feature-icon mb-3" aria-hidden="true">
                    <svg viewBox="0 0 24 24" width="24" height="24" fill="currentColor" aria-hidden="true">
                      <path d={ICONS[key]} />
                    </svg>
                  </span>
                  <h3 className="h5">{t(`home.features.${key}.title`)}</h3>
                  <p className="mb-0 text-body-secondary">{t(`home.features.${key}.text`, { count: settings.signup_credits })}</p>
                </div>
              </div>
            </li>
          ))}
        </ol>
      </section>

      <section className="bg-white border-top py-5" aria-labelledby="safety-title">
        <div className="container">
          <div className="row align-items-center g-4">
            <div className="col-md-6">
              <h2 id="safety-title" className="section-title h3">
                {t('home.safetyTitle')}
              </h2>
              <p className="text-body-secondary">{t('home.safetyText', { site: settings.name })}</p>
              <LocalLink to="/safety" className="fw-semibold d-inline-flex align-items-center" style={{ minHeight: 44 }}>
                {t('home.safetyLink')}
              </LocalLink>
            </div>
            <div className="col-md-6">
              <ul className="check-list fs-6">
                {(['free', 'languages', 'privacy'] as const).map((k) => (
                  <li key={k}>
                    <span className="check" aria-hidden="true">
                      <svg viewBox="0 0 24 24" width="16" height="16" fill="currentColor" aria-hidden="true">
                        <path d="M9.5 16.2 5.3 12l-1.4 1.4 5.6 5.6 11-11-1.4-1.4z" />
                      </svg>
                    </span>
                    <span>{t(`home.points.${k}`, { count: k === 'languages' ? settings.languages.length : settings.signup_credits })}</span>
                  </li>
                ))}
              </ul>
            </div>
          </div>
        </div>
      </section>

      {canSignUp && (
        <section className="cta-band" aria-labelledby="cta-title">
          <div className="container">
            <h2 id="cta-title" className="section-title h3 mb-3">
              {t('home.finalTitle', { site: settings.name })}
            </h2>
            <button type="button" className="btn btn-primary btn-lg" onClick={() => openSignup()}>
              {t('home.finalCta')}
            </button>
          </div>
        </section>
      )}
    </main>
  );
}

/** A drawn phone with a match: two round portraits (abstract, no person), a heart and two chat bubbles. Decorative. */
function HeroArt() {
  return (
    <svg className="hero-art" viewBox="0 0 300 420" aria-hidden="true" focusable="false">
      <defs>
        <linearGradient id="hero-a" x1="0" y1="0" x2="1" y2="1">
          <stop offset="0" stopColor="#f7b267" />
          <stop offset="1" stopColor="#f27a1a" />
        </linearGradient>
        <linearGradient id="hero-b" x1="0" y1="0" x2="1" y2="1">
          <stop offset="0" stopColor="#f4a3b4" />
          <stop offset="1" stopColor="#c8213a" />
        </linearGradient>
      </defs>
      <rect x="40" y="6" width="220" height="408" rx="36" fill="#2a1f22" />
      <rect x="50" y="16" width="200" height="388" rx="28" fill="#fff" />
      <rect x="122" y="26" width="56" height="8" rx="4" fill="#2a1f22" opacity=".15" />
      <circle cx="118" cy="108" r="40" fill="url(#hero-a)" />
      <circle cx="182" cy="108" r="40" fill="url(#hero-b)" />
      <circle cx="150" cy="150" r="22" fill="#fff" />
      <g transform="translate(136 136) scale(1.2)" fill="#c8213a">
        <path d={ICONS.match} />
      </g>
      <rect x="92" y="190" width="116" height="10" rx="5" fill="#2a1f22" opacity=".8" />
      <rect x="112" y="208" width="76" height="8" rx="4" fill="#2a1f22" opacity=".25" />
      <rect x="66" y="244" width="128" height="40" rx="18" fill="#f6f1f2" />
      <rect x="80" y="258" width="84" height="7" rx="3.5" fill="#2a1f22" opacity=".3" />
      <rect x="80" y="270" width="52" height="7" rx="3.5" fill="#2a1f22" opacity=".2" />
      <rect x="112" y="296" width="122" height="40" rx="18" fill="#c8213a" />
      <rect x="126" y="310" width="78" height="7" rx="3.5" fill="#fff" opacity=".85" />
      <rect x="126" y="322" width="46" height="7" rx="3.5" fill="#fff" opacity=".6" />
      <rect x="66" y="354" width="168" height="34" rx="17" fill="none" stroke="#2a1f22" strokeOpacity=".15" strokeWidth="2" />
    </svg>
  );
}

import { MIN_AGE } from '@amora/contracts/core';
import { useTranslation } from 'react-i18next';
import type { LanderProps } from '../lander-types';
import { LanderFictionalIcon, LanderLink, useLanderSettings } from '../lander-site';
import './fallback.css';

/** How many portraits the plain hero shows under its pitch. */
const PORTRAITS = 6;

/** A lander without its own design yet: the niche's headline and pitch, a few portraits and the call to sign up. */
export function FallbackLander({ name, niche, profiles, canSignUp, onSignup }: LanderProps) {
  const { t } = useTranslation(['landers', 'common']);
  const settings = useLanderSettings();
  return (
    <main id="main" className="l-fallback" data-testid={`lander-${name}`}>
      <h1 className="l-fallback-title">{t(`niche.${niche}.headline`)}</h1>
      <p className="l-fallback-lead">{t(`niche.${niche}.pitch`)}</p>
      {canSignUp ? (
        <button type="button" className="l-fallback-cta" onClick={() => onSignup()}>
          {t('common:home.ctaSignup')}
        </button>
      ) : (
        <>
          <p>{t('common:signup.closed', { site: settings.name })}</p>
          <LanderLink to="/login" className="l-fallback-cta">
            {t('common:home.ctaLogin')}
          </LanderLink>
        </>
      )}
      <ul className="l-fallback-grid">
        {profiles.slice(0, PORTRAITS).map((profile, index) => (
          <li key={profile.id} className="l-fallback-card">
            {profile.photo && (
              <img
                src={profile.photo.src}
                srcSet={profile.photo.srcSet}
                sizes="(min-width: 768px) 240px, 45vw"
                width={profile.photo.width}
                height={profile.photo.height}
                alt=""
                loading={index === 0 ? 'eager' : 'lazy'}
                fetchPriority={index === 0 ? 'high' : undefined}
              />
            )}
            <span className="l-fallback-name">
              {profile.name}, {profile.age}
              {profile.is_fictional && <LanderFictionalIcon size={16} />}
            </span>
          </li>
        ))}
      </ul>
      <p className="l-fallback-note">{t('common:home.adultsOnly', { minAge: MIN_AGE })}</p>
    </main>
  );
}

import { MIN_AGE } from '@amora/contracts/core';
import type { CSSProperties } from 'react';
import { useTranslation } from 'react-i18next';
import { PhotoPlaceholder } from '@/components/ui/photo-placeholder';
import { LanderFictionalIcon, useLanderSettings } from '../lander-site';
import type { LanderProfile, LanderProps } from '../lander-types';
import { SignupAction } from './signup-action';
import './iconslanding.css';

/** Twelve faces: four rows of three on a phone, two rows of six on a desktop. */
const ICONS = 12;

/**
 * A wall of round portraits with their names under the niche's headline. Any face opens signup about that
 * profile; one button under the wall opens it without one.
 */
export function IconslandingLander({ niche, profiles, canSignUp, onSignup }: LanderProps) {
  const { t } = useTranslation(['landers', 'common']);
  const settings = useLanderSettings();
  const icons = profiles.slice(0, ICONS);
  return (
    <main id="main" className="l-iconslanding" data-testid="lander-iconslanding">
      <div className="l-iconslanding-inner">
        <p className="l-iconslanding-eyebrow">{t(`niche.${niche}.audience`)}</p>
        <h1 className="l-iconslanding-title">{t(`niche.${niche}.headline`)}</h1>
        <p className="l-iconslanding-lead">{canSignUp ? t('iconslanding.pick') : t('common:signup.closed', { site: settings.name })}</p>
        {icons.length > 0 && (
          <ul className="l-iconslanding-grid">
            {icons.map((profile, index) => (
              <li key={profile.id} style={{ '--l-iconslanding-i': index } as CSSProperties}>
                <Icon profile={profile} isEager={index < 6} canSignUp={canSignUp} onSignup={onSignup} />
              </li>
            ))}
          </ul>
        )}
        <div className="l-iconslanding-actions">
          <SignupAction canSignUp={canSignUp} onSignup={onSignup} className="l-iconslanding-cta">
            {canSignUp ? t('iconslanding.cta') : t('common:home.ctaLogin')}
          </SignupAction>
          {settings.signup_credits > 0 && canSignUp && (
            <p className="l-iconslanding-credits">{t('iconslanding.credits', { count: settings.signup_credits })}</p>
          )}
          <p className="l-iconslanding-note">{t('common:home.adultsOnly', { minAge: MIN_AGE })}</p>
        </div>
      </div>
    </main>
  );
}

function Icon({
  profile,
  isEager,
  canSignUp,
  onSignup,
}: {
  profile: LanderProfile;
  isEager: boolean;
  canSignUp: boolean;
  onSignup: (profileId?: number) => void;
}) {
  const { t } = useTranslation('landers');
  const label = t('iconslanding.sayHello', { name: profile.name, age: profile.age });
  const inside = (
    <>
      <span className="l-iconslanding-ring">
        {profile.photo ? (
          <img
            className="l-iconslanding-photo"
            src={profile.photo.src}
            srcSet={profile.photo.srcSet}
            sizes="(min-width: 992px) 116px, (min-width: 576px) 96px, 74px"
            width={profile.photo.width}
            height={profile.photo.height}
            alt=""
            decoding="async"
            loading={isEager ? 'eager' : 'lazy'}
          />
        ) : (
          <PhotoPlaceholder className="l-iconslanding-photo" />
        )}
      </span>
      <span className="l-iconslanding-name">{profile.name}</span>
      <span className="l-iconslanding-age">{profile.city ? `${profile.age} · ${profile.city}` : profile.age}</span>
    </>
  );
  return (
    <div className="l-iconslanding-item" data-profile-id={profile.id}>
      <SignupAction canSignUp={canSignUp} onSignup={onSignup} profileId={profile.id} className="l-iconslanding-face" label={label}>
        {inside}
      </SignupAction>
      {profile.is_fictional && (
        <span className="l-iconslanding-fictional">
          <LanderFictionalIcon size={20} />
        </span>
      )}
    </div>
  );
}

import { MIN_AGE } from '@amora/contracts/core';
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { HeartIcon } from '@/components/ui/heart-icon';
import { PhotoPlaceholder } from '@/components/ui/photo-placeholder';
import { LanderFictionalIcon, useLanderSettings } from '../lander-site';
import type { LanderProfile, LanderProps } from '../lander-types';
import { SignupAction } from './signup-action';
import './alonetonight.css';

/** How many portraits the evening hero shows: a small circle of people, not a catalogue. */
const PORTRAITS = 3;

/**
 * "Not alone tonight": an evening sky over a fan of a few portraits from the visitor's region, a short honest
 * pitch and one strong call to sign up. A portrait opens signup about that profile.
 */
export function AlonetonightLander({ niche, profiles, canSignUp, onSignup }: LanderProps) {
  const { t } = useTranslation(['landers', 'common']);
  const settings = useLanderSettings();
  const shown = profiles.slice(0, PORTRAITS);
  // The sky, the portraits and the button move only once the page is taken over: the served page paints static.
  const [isMoving, setMoving] = useState(false);
  useEffect(() => setMoving(true), []);
  return (
    <main id="main" className="l-alonetonight" data-testid="lander-alonetonight" data-moving={isMoving || undefined}>
      <div className="l-alonetonight-sky" aria-hidden="true" />
      <div className="l-alonetonight-inner">
        <section className="l-alonetonight-hero">
          <div className="l-alonetonight-copy">
            <p className="l-alonetonight-eyebrow">
              <MoonIcon />
              {t(`niche.${niche}.label`)}
            </p>
            <h1 className="l-alonetonight-title">{t('alonetonight.title')}</h1>
            <p className="l-alonetonight-lead">{t(`alonetonight.lead.${niche}`)}</p>
            <div className="l-alonetonight-actions">
              {!canSignUp && <p className="l-alonetonight-closed">{t('common:signup.closed', { site: settings.name })}</p>}
              <SignupAction canSignUp={canSignUp} onSignup={onSignup} className="l-alonetonight-cta">
                <HeartIcon size={20} />
                {canSignUp ? t('alonetonight.cta') : t('common:home.ctaLogin')}
              </SignupAction>
              <p className="l-alonetonight-note">{t('common:home.adultsOnly', { minAge: MIN_AGE })}</p>
            </div>
          </div>
          {shown.length > 0 && (
            <ul className="l-alonetonight-fan" data-count={shown.length}>
              {shown.map((profile, index) => (
                <li key={profile.id} className="l-alonetonight-card" data-profile-id={profile.id}>
                  <Portrait profile={profile} isFirst={index === 0} canSignUp={canSignUp} onSignup={onSignup} />
                </li>
              ))}
            </ul>
          )}
        </section>
        <ul className="l-alonetonight-points">
          <li>
            <span className="l-alonetonight-dot" aria-hidden="true">
              <GiftIcon />
            </span>
            {settings.signup_credits > 0 ? t('common:home.points.free', { count: settings.signup_credits }) : t('alonetonight.points.free')}
          </li>
          <li>
            <span className="l-alonetonight-dot" aria-hidden="true">
              <ChatIcon />
            </span>
            {t('alonetonight.points.chat')}
          </li>
          <li>
            <span className="l-alonetonight-dot" aria-hidden="true">
              <PinIcon />
            </span>
            {t('common:home.points.privacy')}
          </li>
        </ul>
      </div>
    </main>
  );
}

function Portrait({
  profile,
  isFirst,
  canSignUp,
  onSignup,
}: {
  profile: LanderProfile;
  isFirst: boolean;
  canSignUp: boolean;
  onSignup: (profileId?: number) => void;
}) {
  const { t } = useTranslation('landers');
  const label = t('alonetonight.sayHello', { name: profile.name, age: profile.age });
  const inside = (
    <>
      {profile.photo ? (
        <img
          className="l-alonetonight-photo"
          src={profile.photo.src}
          srcSet={profile.photo.srcSet}
          sizes="(min-width: 992px) 240px, 160px"
          width={profile.photo.width}
          height={profile.photo.height}
          alt=""
          decoding="async"
          fetchPriority={isFirst ? 'high' : undefined}
        />
      ) : (
        <PhotoPlaceholder className="l-alonetonight-photo" />
      )}
      <span className="l-alonetonight-name">
        <strong>
          {profile.name}, {profile.age}
        </strong>
        {profile.city && <span>{profile.city}</span>}
      </span>
    </>
  );
  return (
    <>
      <SignupAction canSignUp={canSignUp} onSignup={onSignup} profileId={profile.id} className="l-alonetonight-portrait" label={label}>
        {inside}
      </SignupAction>
      {profile.is_fictional && (
        <span className="l-alonetonight-fictional">
          <LanderFictionalIcon size={22} />
        </span>
      )}
    </>
  );
}

function GiftIcon() {
  return (
    <svg viewBox="0 0 24 24" width={18} height={18} aria-hidden="true" focusable="false">
      <path
        d="M4 11h16v9H4zM3 7h18v4H3zM12 7v13M12 7c-1.5-3-5-3.5-5-1.25S10 7 12 7zm0 0c1.5-3 5-3.5 5-1.25S14 7 12 7z"
        fill="none"
        stroke="currentColor"
        strokeWidth={1.8}
        strokeLinejoin="round"
      />
    </svg>
  );
}

function ChatIcon() {
  return (
    <svg viewBox="0 0 24 24" width={18} height={18} aria-hidden="true" focusable="false">
      <path
        d="M4 5h16a1 1 0 0 1 1 1v10a1 1 0 0 1-1 1H9l-4 3.5V17H4a1 1 0 0 1-1-1V6a1 1 0 0 1 1-1z"
        fill="none"
        stroke="currentColor"
        strokeWidth={1.8}
        strokeLinejoin="round"
      />
    </svg>
  );
}

function PinIcon() {
  return (
    <svg viewBox="0 0 24 24" width={18} height={18} aria-hidden="true" focusable="false">
      <path
        d="M12 2a7 7 0 0 0-7 7c0 5.2 7 13 7 13s7-7.8 7-13a7 7 0 0 0-7-7zm0 9.5A2.5 2.5 0 1 1 12 6.5a2.5 2.5 0 0 1 0 5z"
        fill="currentColor"
      />
    </svg>
  );
}

function MoonIcon() {
  return (
    <svg viewBox="0 0 24 24" width={16} height={16} aria-hidden="true" focusable="false">
      <path d="M20 14.5A8.5 8.5 0 0 1 9.5 4a8.5 8.5 0 1 0 10.5 10.5z" fill="currentColor" />
    </svg>
  );
}

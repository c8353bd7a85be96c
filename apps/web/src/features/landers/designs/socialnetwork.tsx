import { MIN_AGE } from '@amora/contracts/core';
import { useTranslation } from 'react-i18next';
import { HeartIcon } from '@/components/ui/heart-icon';
import { PhotoPlaceholder } from '@/components/ui/photo-placeholder';
import { LanderFictionalIcon, useLanderSettings } from '../lander-site';
import type { LanderProfile, LanderProps } from '../lander-types';
import { SignupAction } from './signup-action';
import './socialnetwork.css';

/** The feed shows this many cards: enough to scroll, few enough to stay light on a phone. */
const CARDS = 8;

/**
 * A social feed: an introduction beside (desktop) or above (phone) a column of profile cards, each with its
 * photo, name, age and city and two buttons, Like and Say hello, which open signup about that profile. Nothing
 * in the feed is invented: no counts, no times, no posts; only the profiles as they are.
 */
export function SocialnetworkLander({ niche, profiles, canSignUp, onSignup }: LanderProps) {
  const { t } = useTranslation(['landers', 'common']);
  const settings = useLanderSettings();
  const cards = profiles.slice(0, CARDS);
  const join = (
    <SignupAction canSignUp={canSignUp} onSignup={onSignup} className="l-socialnetwork-join">
      {canSignUp ? t('socialnetwork.cta') : t('common:home.ctaLogin')}
    </SignupAction>
  );
  return (
    <main id="main" className="l-socialnetwork" data-testid="lander-socialnetwork">
      <div className="l-socialnetwork-layout">
        <aside className="l-socialnetwork-intro">
          <div className="l-socialnetwork-intro-card">
            <span className="l-socialnetwork-badge" aria-hidden="true">
              <HeartIcon size={22} />
            </span>
            <h1 className="l-socialnetwork-title">{t(`niche.${niche}.headline`)}</h1>
            <p className="l-socialnetwork-lead">{t(`niche.${niche}.pitch`)}</p>
            {!canSignUp && <p className="l-socialnetwork-closed">{t('common:signup.closed', { site: settings.name })}</p>}
            <div className="l-socialnetwork-intro-join">{join}</div>
            <p className="l-socialnetwork-note">{t('common:home.adultsOnly', { minAge: MIN_AGE })}</p>
          </div>
          <ul className="l-socialnetwork-points">
            {settings.signup_credits > 0 && (
              <li>
                <CheckIcon />
                {t('common:home.points.free', { count: settings.signup_credits })}
              </li>
            )}
            <li>
              <CheckIcon />
              {t('common:home.points.privacy')}
            </li>
          </ul>
        </aside>
        <section className="l-socialnetwork-feed" aria-labelledby="l-socialnetwork-feed-title">
          <h2 id="l-socialnetwork-feed-title" className="l-socialnetwork-feed-title">
            {t('socialnetwork.feedTitle')}
          </h2>
          <ul className="l-socialnetwork-cards">
            {cards.map((profile, index) => (
              <li key={profile.id}>
                <ProfileCard profile={profile} isFirst={index === 0} canSignUp={canSignUp} onSignup={onSignup} />
              </li>
            ))}
          </ul>
          <div className="l-socialnetwork-more">
            <p>{t('socialnetwork.more')}</p>
            {join}
          </div>
        </section>
      </div>
      <div className="l-socialnetwork-bar">{join}</div>
    </main>
  );
}

function ProfileCard({
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
  const initial = Array.from(profile.name)[0]?.toLocaleUpperCase() ?? '';
  const actions = [
    {
      key: 'like',
      label: t('socialnetwork.like'),
      aria: t('socialnetwork.likeLabel', { name: profile.name }),
      icon: <HeartIcon isFilled={false} size={20} />,
    },
    { key: 'hello', label: t('socialnetwork.hello'), aria: t('socialnetwork.helloLabel', { name: profile.name }), icon: <WaveIcon /> },
  ];
  return (
    <article className="l-socialnetwork-card" aria-label={`${profile.name}, ${profile.age}`} data-profile-id={profile.id}>
      <header className="l-socialnetwork-head">
        <span className="l-socialnetwork-avatar" aria-hidden="true">
          {profile.photo ? (
            <img
              src={profile.photo.src}
              srcSet={profile.photo.srcSet}
              sizes="40px"
              alt=""
              width={40}
              height={40}
              decoding="async"
              loading="lazy"
            />
          ) : (
            initial
          )}
        </span>
        <span className="l-socialnetwork-who">
          <strong>
            {profile.name}, {profile.age}
          </strong>
          {profile.city && (
            <span className="l-socialnetwork-city">
              <PinIcon />
              {profile.city}
            </span>
          )}
        </span>
        {profile.is_fictional && (
          <span className="l-socialnetwork-fictional">
            <LanderFictionalIcon size={22} />
          </span>
        )}
      </header>
      <div className="l-socialnetwork-media">
        {profile.photo ? (
          <img
            className="l-socialnetwork-photo"
            src={profile.photo.src}
            srcSet={profile.photo.srcSet}
            sizes="(min-width: 576px) 342px, 100vw"
            width={profile.photo.width}
            height={profile.photo.height}
            alt=""
            decoding="async"
            loading={isFirst ? 'eager' : 'lazy'}
            fetchPriority={isFirst ? 'high' : undefined}
          />
        ) : (
          <PhotoPlaceholder className="l-socialnetwork-photo" />
        )}
      </div>
      <footer className="l-socialnetwork-actions">
        {actions.map((action) => (
          <SignupAction
            key={action.key}
            canSignUp={canSignUp}
            onSignup={onSignup}
            profileId={profile.id}
            className={`l-socialnetwork-action l-socialnetwork-action-${action.key}`}
            label={action.aria}
          >
            {action.icon}
            {action.label}
          </SignupAction>
        ))}
      </footer>
    </article>
  );
}

function CheckIcon() {
  return (
    <svg viewBox="0 0 24 24" width={18} height={18} aria-hidden="true" focusable="false">
      <path d="m5 12.5 4.5 4.5L19 7.5" fill="none" stroke="currentColor" strokeWidth={2.5} strokeLinecap="round" strokeLinejoin="round" />
    </svg>
  );
}

function PinIcon() {
  return (
    <svg viewBox="0 0 24 24" width={14} height={14} aria-hidden="true" focusable="false">
      <path
        d="M12 2a7 7 0 0 0-7 7c0 5.2 7 13 7 13s7-7.8 7-13a7 7 0 0 0-7-7zm0 9.5A2.5 2.5 0 1 1 12 6.5a2.5 2.5 0 0 1 0 5z"
        fill="currentColor"
      />
    </svg>
  );
}

function WaveIcon() {
  return (
    <svg viewBox="0 0 24 24" width={20} height={20} aria-hidden="true" focusable="false">
      <path
        d="M4 5h16a1 1 0 0 1 1 1v10a1 1 0 0 1-1 1H9l-4 3.5V17H4a1 1 0 0 1-1-1V6a1 1 0 0 1 1-1z"
        fill="none"
        stroke="currentColor"
        strokeWidth={2}
        strokeLinejoin="round"
      />
    </svg>
  );
}

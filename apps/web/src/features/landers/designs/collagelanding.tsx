import { MIN_AGE } from '@amora/contracts/core';
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { HeartIcon } from '@/components/ui/heart-icon';
import { LanderFictionalIcon, LanderLink, useLanderSettings } from '../lander-site';
import type { LanderProfile, LanderProps } from '../lander-types';
import { SignupAction } from './signup-action';
import './collagelanding.css';

/**
 * Tiles of the collage: enough to fill a desktop screen (six rows of eight columns; a phone and a tablet show
 * fewer, the CSS says which); a site with fewer profiles fills the rest with colour.
 */
const TILES = 28;

/**
 * A photo collage of the site's profiles (tiles of varied sizes) behind one centred signup card. Each photo
 * tile opens signup about its profile; the card's button opens it without one.
 */
export function CollagelandingLander({ niche, profiles, canSignUp, onSignup }: LanderProps) {
  const { t } = useTranslation(['landers', 'common']);
  const settings = useLanderSettings();
  const tiles: (LanderProfile | null)[] = profiles.slice(0, TILES);
  while (tiles.length < TILES) tiles.push(null);
  // The collage drifts (on a desktop) only once the page is taken over: the served page paints static.
  const [isMoving, setMoving] = useState(false);
  useEffect(() => setMoving(true), []);
  return (
    <main id="main" className="l-collagelanding" data-testid="lander-collagelanding" data-moving={isMoving || undefined}>
      <div className="l-collagelanding-stage">
        <section className="l-collagelanding-card" aria-labelledby="l-collagelanding-title">
          <span className="l-collagelanding-mark" aria-hidden="true">
            <HeartIcon size={26} />
          </span>
          <p className="l-collagelanding-eyebrow">{t(`niche.${niche}.label`)}</p>
          <h1 id="l-collagelanding-title" className="l-collagelanding-title">
            {t('collagelanding.title')}
          </h1>
          <p className="l-collagelanding-lead">
            {canSignUp ? t(`niche.${niche}.pitch`) : t('common:signup.closed', { site: settings.name })}
          </p>
          <SignupAction canSignUp={canSignUp} onSignup={onSignup} className="l-collagelanding-cta">
            {canSignUp ? t('collagelanding.cta') : t('common:home.ctaLogin')}
          </SignupAction>
          {canSignUp && (
            <>
              {settings.signup_credits > 0 && (
                <p className="l-collagelanding-credits">{t('collagelanding.credits', { count: settings.signup_credits })}</p>
              )}
              <LanderLink to="/login" className="l-collagelanding-login">
                {t('common:home.ctaLogin')}
              </LanderLink>
            </>
          )}
          <p className="l-collagelanding-note">{t('common:home.adultsOnly', { minAge: MIN_AGE })}</p>
        </section>
        <ul className="l-collagelanding-collage">
          {tiles.map((profile, index) =>
            profile ? (
              <li key={profile.id} className="l-collagelanding-tile" data-profile-id={profile.id}>
                <Tile profile={profile} isEager={index < 8} isFirst={index === 0} canSignUp={canSignUp} onSignup={onSignup} />
              </li>
            ) : (
              // biome-ignore lint/suspicious/noArrayIndexKey: the filler tiles are all alike and never move.
              <li key={`filler-${index}`} className="l-collagelanding-tile l-collagelanding-filler" aria-hidden="true" />
            ),
          )}
        </ul>
      </div>
    </main>
  );
}

function Tile({
  profile,
  isEager,
  isFirst,
  canSignUp,
  onSignup,
}: {
  profile: LanderProfile;
  isEager: boolean;
  isFirst: boolean;
  canSignUp: boolean;
  onSignup: (profileId?: number) => void;
}) {
  const { t } = useTranslation('landers');
  const label = t('collagelanding.sayHello', { name: profile.name, age: profile.age });
  const inside = (
    <>
      {profile.photo ? (
        <img
          className="l-collagelanding-photo"
          src={profile.photo.src}
          srcSet={profile.photo.srcSet}
          sizes="(min-width: 992px) 25vw, 67vw"
          width={profile.photo.width}
          height={profile.photo.height}
          alt=""
          decoding="async"
          loading={isEager ? 'eager' : 'lazy'}
          fetchPriority={isFirst ? 'high' : undefined}
        />
      ) : (
        <span className="l-collagelanding-photo l-collagelanding-initial">{Array.from(profile.name)[0]}</span>
      )}
      <span className="l-collagelanding-name">
        {profile.name}, {profile.age}
      </span>
    </>
  );
  return (
    <>
      <SignupAction canSignUp={canSignUp} onSignup={onSignup} profileId={profile.id} className="l-collagelanding-open" label={label}>
        {inside}
      </SignupAction>
      {profile.is_fictional && (
        <span className="l-collagelanding-fictional">
          <LanderFictionalIcon size={20} />
        </span>
      )}
    </>
  );
}

import { MIN_AGE } from '@amora/contracts/core';
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { HeartIcon } from '@/components/ui/heart-icon';
import { PhotoPlaceholder } from '@/components/ui/photo-placeholder';
import { useMediaQuery } from '@/lib/use-media-query';
import { LanderFictionalIcon, useLanderSettings } from '../lander-site';
import type { LanderProfile, LanderProps } from '../lander-types';
import { SignupAction } from './signup-action';
import './transitionsvideolanding.css';
import { PauseIcon, PlayIcon } from './player-icons';

/** At most this many portraits take turns. */
const SLIDES = 8;
/** The wipes, taken in turn: each portrait comes in over the last one in its own way. */
const WIPES = ['left', 'circle', 'down', 'split'] as const;

/**
 * A reel of portraits that take turns with wipes (from the side, a circle opening, from the top, from the middle)
 * on a light, editorial page, each with its caption (name, age, city) coming in under it, numbered chapters to jump
 * to one, play and pause. Made in the browser from the profiles' own photos; with reduced motion (and on the
 * server's first paint) the portraits stand still and change only when a chapter is chosen.
 */
export function TransitionsvideolandingLander({ niche, profiles, canSignUp, onSignup }: LanderProps) {
  const { t } = useTranslation(['landers', 'common']);
  const settings = useLanderSettings();
  const slides = profiles.slice(0, SLIDES);
  const isStill = useMediaQuery('(prefers-reduced-motion: reduce)', true);
  const [current, setCurrent] = useState(0);
  const [previous, setPrevious] = useState<number | null>(null);
  const [isPaused, setPaused] = useState(false);
  // The first portrait comes with the page; the next ones load one ahead of the one showing.
  const [loaded, setLoaded] = useState(1);
  const isPlaying = !isStill && !isPaused && slides.length > 1;
  useEffect(() => {
    if (!isStill) setLoaded((n) => Math.max(n, Math.min(current + 2, slides.length)));
  }, [isStill, current, slides.length]);
  const show = (index: number) => {
    if (index === current) return;
    setPrevious(current);
    setCurrent(index);
    setLoaded((n) => Math.max(n, index + 1));
  };
  const profile = slides[current];
  // A portrait that takes over from another wipes in (the first one is simply there).
  const entering = previous !== null && !isStill ? ' is-entering' : '';
  const p = 'l-transitionsvideolanding';

  return (
    <main id="main" className={p} data-testid="lander-transitionsvideolanding">
      <div className={`${p}-inner`}>
        <div className={`${p}-copy`}>
          <p className={`${p}-eyebrow`}>{t(`niche.${niche}.label`)}</p>
          <h1 className={`${p}-title`}>{t(`transitionsvideolanding.title.${niche}`)}</h1>
          <p className={`${p}-lead`}>{t(`niche.${niche}.pitch`)}</p>
        </div>
        {profile && (
          <figure className={`${p}-reel`}>
            <div className={`${p}-frame${isPaused ? ' is-paused' : ''}`} data-testid={isStill ? 'reel-still' : 'reel-playing'}>
              {slides.slice(0, loaded).map((slide, index) => (
                <div
                  key={slide.id}
                  className={`${p}-slide ${p}-wipe-${WIPES[index % WIPES.length]}${index === current ? ` is-current${entering}` : ''}${index === previous ? ' is-previous' : ''}`}
                  aria-hidden={index !== current}
                >
                  <Photo profile={slide} isFirst={index === 0} />
                </div>
              ))}
              <SignupAction
                canSignUp={canSignUp}
                onSignup={onSignup}
                profileId={profile.id}
                className={`${p}-hit`}
                label={canSignUp ? t('transitionsvideolanding.writeTo', { name: profile.name }) : t('common:home.ctaLogin')}
                testId="reel-photo"
                isRedundant
              />
              {!isStill && slides.length > 1 && (
                <button
                  type="button"
                  className={`${p}-toggle`}
                  onClick={() => setPaused((paused) => !paused)}
                  aria-label={isPaused ? t('transitionsvideolanding.play') : t('transitionsvideolanding.pause')}
                  data-testid="reel-toggle"
                >
                  {isPaused ? <PlayIcon size={18} /> : <PauseIcon size={18} />}
                </button>
              )}
            </div>
            {/* The timer's track is there from the first paint, so the bar starting moves nothing. */}
            <div className={`${p}-timer${isPaused ? ' is-paused' : ''}`} aria-hidden="true">
              {(isPlaying || isPaused) && (
                <span
                  key={current}
                  className={`${p}-timer-fill`}
                  onAnimationEnd={() => show((current + 1) % slides.length)}
                  data-testid="reel-timer"
                />
              )}
            </div>
            <figcaption className={`${p}-caption`}>
              <span key={profile.id} className={`${p}-caption-text${entering}`}>
                <span className={`${p}-name`}>
                  {profile.name}
                  {profile.is_fictional && (
                    <span className={`${p}-fictional`}>
                      <LanderFictionalIcon size={22} />
                    </span>
                  )}
                </span>
                <span className={`${p}-facts`}>{profile.city ? `${profile.age} · ${profile.city}` : profile.age}</span>
              </span>
              {canSignUp && (
                <SignupAction
                  canSignUp={canSignUp}
                  onSignup={onSignup}
                  profileId={profile.id}
                  className={`${p}-write`}
                  label={t('transitionsvideolanding.sayHelloTo', { name: profile.name })}
                  testId="reel-write"
                >
                  <HeartIcon size={16} />
                  <span className={`${p}-write-text`}>{t('transitionsvideolanding.sayHello')}</span>
                </SignupAction>
              )}
            </figcaption>
            {slides.length > 1 && (
              <ol className={`${p}-chapters`}>
                {slides.map((slide, index) => (
                  <li key={slide.id}>
                    <button
                      type="button"
                      className={`${p}-chapter${index === current ? ' is-current' : ''}`}
                      aria-label={t('transitionsvideolanding.show', { name: slide.name })}
                      aria-current={index === current ? 'true' : undefined}
                      onClick={() => show(index)}
                    >
                      {String(index + 1).padStart(2, '0')}
                    </button>
                  </li>
                ))}
              </ol>
            )}
            <p className={`${p}-note`}>{t('transitionsvideolanding.caption')}</p>
          </figure>
        )}
        <div className={`${p}-actions`}>
          {!canSignUp && <p className={`${p}-closed`}>{t('common:signup.closed', { site: settings.name })}</p>}
          <SignupAction canSignUp={canSignUp} onSignup={onSignup} className={`${p}-cta`} testId="lander-cta">
            {canSignUp ? t('common:home.ctaSignup') : t('common:home.ctaLogin')}
          </SignupAction>
          <ul className={`${p}-points`}>
            {settings.signup_credits > 0 && <li>{t('common:home.points.free', { count: settings.signup_credits })}</li>}
            <li>{t('common:home.points.privacy')}</li>
            <li>{t('common:home.adultsOnly', { minAge: MIN_AGE })}</li>
          </ul>
        </div>
      </div>
    </main>
  );
}

function Photo({ profile, isFirst }: { profile: LanderProfile; isFirst: boolean }) {
  if (!profile.photo) return <PhotoPlaceholder className="l-transitionsvideolanding-photo" />;
  return (
    <img
      className="l-transitionsvideolanding-photo"
      src={profile.photo.src}
      srcSet={profile.photo.srcSet}
      sizes="(min-width: 992px) 520px, 92vw"
      width={profile.photo.width}
      height={profile.photo.height}
      alt=""
      decoding={isFirst ? undefined : 'async'}
      fetchPriority={isFirst ? 'high' : undefined}
    />
  );
}

import { MIN_AGE } from '@amora/contracts/core';
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { HeartIcon } from '@/components/ui/heart-icon';
import { PhotoPlaceholder } from '@/components/ui/photo-placeholder';
import { useMediaQuery } from '@/lib/use-media-query';
import { LanderFictionalIcon, useLanderSettings } from '../lander-site';
import type { LanderProfile, LanderProps } from '../lander-types';
import { SignupAction } from './signup-action';
import './video.css';
import { PauseIcon, PlayIcon } from './player-icons';

/** At most this many portraits play, one after another. */
const SLIDES = 8;

/**
 * A video-style hero made in the browser from the site's own portraits: each one slowly zooms and pans (Ken Burns)
 * and fades into the next, under a bar that fills per portrait, with play and pause. Nothing is streamed: the
 * photos are the profiles' own. With reduced motion (and on the server's first paint) it is the first portrait,
 * still. The photo, the button on it and the portraits under it open signup about that profile.
 */
export function VideoLander({ niche, profiles, canSignUp, onSignup }: LanderProps) {
  const { t } = useTranslation(['landers', 'common']);
  const settings = useLanderSettings();
  const slides = profiles.slice(0, SLIDES);
  const isStill = useMediaQuery('(prefers-reduced-motion: reduce)', true);
  const [current, setCurrent] = useState(0);
  const [isPaused, setPaused] = useState(false);
  // Only the first portrait comes with the page; the next ones load one ahead of the one showing.
  const [loaded, setLoaded] = useState(1);
  const isPlaying = !isStill && !isPaused && slides.length > 1;
  useEffect(() => {
    if (!isStill) setLoaded((n) => Math.max(n, Math.min(current + 2, slides.length)));
  }, [isStill, current, slides.length]);
  const shown = isStill ? 0 : current;
  const profile = slides[shown];
  // Whether a portrait has followed the first (whose caption came with the page and does not fade in).
  const [hasMoved, setHasMoved] = useState(false);
  const advance = () => {
    setHasMoved(true);
    setCurrent((i) => (i + 1) % slides.length);
  };
  // The portrait fading out keeps moving while the next one fades in.
  const slideState = (index: number) => {
    if (index === shown) return ' is-active';
    return !isStill && index === (shown - 1 + slides.length) % slides.length ? ' is-leaving' : '';
  };

  return (
    <main id="main" className="l-video" data-testid="lander-video">
      <div className="l-video-inner">
        <header className="l-video-head">
          <p className="l-video-eyebrow">{t(`niche.${niche}.label`)}</p>
          <h1 className="l-video-title">{t(`video.title.${niche}`)}</h1>
          <p className="l-video-lead">{t(`niche.${niche}.audience`)}</p>
        </header>
        {profile && (
          <figure className="l-video-player">
            <div
              className={`l-video-screen${isPlaying ? ' is-playing' : ''}${isPaused ? ' is-paused' : ''}`}
              data-testid={isStill ? 'video-still' : 'video-slideshow'}
            >
              {slides.slice(0, isStill ? 1 : loaded).map((slide, index) => (
                <div key={slide.id} className={`l-video-slide l-video-kb${index % 4}${slideState(index)}`} aria-hidden={index !== shown}>
                  <Photo profile={slide} isFirst={index === 0} />
                </div>
              ))}
              <SignupAction
                canSignUp={canSignUp}
                onSignup={onSignup}
                profileId={profile.id}
                className="l-video-frame"
                label={canSignUp ? t('video.writeTo', { name: profile.name }) : t('common:home.ctaLogin')}
                testId="video-frame"
                isRedundant
              />
              {isPlaying || isPaused ? (
                <div className="l-video-bars" aria-hidden="true">
                  {slides.map((slide, index) => (
                    <span key={slide.id} className={`l-video-bar${index < shown ? ' is-done' : ''}`}>
                      {index === shown && <span className="l-video-bar-fill" onAnimationEnd={advance} data-testid="video-timer" />}
                    </span>
                  ))}
                </div>
              ) : null}
              {/* A new caption per portrait (not the old one changed), so a longer name moves nothing that was there. */}
              <div key={profile.id} className={`l-video-overlay${hasMoved ? ' is-new' : ''}`}>
                <p className="l-video-who" aria-live={isPlaying ? 'off' : 'polite'}>
                  <strong>
                    {profile.name}, {profile.age}
                  </strong>
                  {profile.is_fictional && (
                    <span className="l-video-fictional">
                      <LanderFictionalIcon size={20} />
                    </span>
                  )}
                  {profile.city && <span className="l-video-city">{profile.city}</span>}
                </p>
                <SignupAction
                  canSignUp={canSignUp}
                  onSignup={onSignup}
                  profileId={profile.id}
                  className="l-video-write"
                  testId="video-write"
                >
                  <HeartIcon size={16} />
                  {canSignUp ? t('video.writeTo', { name: profile.name }) : t('common:home.ctaLogin')}
                </SignupAction>
              </div>
              {!isStill && slides.length > 1 && (
                <button
                  type="button"
                  className="l-video-toggle"
                  onClick={() => setPaused((p) => !p)}
                  aria-label={isPaused ? t('video.play') : t('video.pause')}
                  data-testid="video-toggle"
                >
                  {isPaused ? <PlayIcon size={20} /> : <PauseIcon size={20} />}
                </button>
              )}
            </div>
            <figcaption className="l-video-caption">{t('video.caption')}</figcaption>
          </figure>
        )}
        <div className="l-video-actions">
          {!canSignUp && <p className="l-video-closed">{t('common:signup.closed', { site: settings.name })}</p>}
          <SignupAction canSignUp={canSignUp} onSignup={onSignup} className="l-video-cta" testId="lander-cta">
            {canSignUp ? t('common:home.ctaSignup') : t('common:home.ctaLogin')}
          </SignupAction>
          <p className="l-video-note">
            {settings.signup_credits > 0 ? `${t('common:home.points.free', { count: settings.signup_credits })} · ` : ''}
            {t('common:home.adultsOnly', { minAge: MIN_AGE })}
          </p>
        </div>
        {slides.length > 1 && (
          <section className="l-video-cast" aria-labelledby="l-video-cast-title">
            <h2 id="l-video-cast-title" className="l-video-cast-title">
              {t('video.cast')}
            </h2>
            <ul className="l-video-cast-list">
              {slides.map((slide) => (
                <li key={slide.id}>
                  <SignupAction
                    canSignUp={canSignUp}
                    onSignup={onSignup}
                    profileId={slide.id}
                    className="l-video-cast-item"
                    testId="video-cast"
                  >
                    <span className="l-video-cast-photo">
                      {slide.photo ? (
                        <img
                          src={slide.photo.src}
                          srcSet={slide.photo.srcSet}
                          sizes="64px"
                          width={64}
                          height={64}
                          alt=""
                          loading="lazy"
                          decoding="async"
                        />
                      ) : (
                        <PhotoPlaceholder />
                      )}
                    </span>
                    <span className="l-video-cast-name">
                      {slide.name}, {slide.age}
                    </span>
                    {slide.is_fictional && (
                      <span className="l-video-cast-fictional">
                        <LanderFictionalIcon size={18} />
                      </span>
                    )}
                  </SignupAction>
                </li>
              ))}
            </ul>
          </section>
        )}
      </div>
    </main>
  );
}

function Photo({ profile, isFirst }: { profile: LanderProfile; isFirst: boolean }) {
  if (!profile.photo) return <PhotoPlaceholder className="l-video-photo" />;
  return (
    <img
      className="l-video-photo"
      src={profile.photo.src}
      srcSet={profile.photo.srcSet}
      sizes="(min-width: 992px) 640px, 100vw"
      width={profile.photo.width}
      height={profile.photo.height}
      alt=""
      decoding={isFirst ? undefined : 'async'}
      fetchPriority={isFirst ? 'high' : undefined}
    />
  );
}

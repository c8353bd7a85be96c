import { MIN_AGE } from '@amora/contracts/core';
import { type KeyboardEvent, useCallback, useId, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { HeartIcon } from '@/components/ui/heart-icon';
import { PhotoPlaceholder } from '@/components/ui/photo-placeholder';
import { LanderFictionalIcon, useLanderSettings } from '../lander-site';
import type { LanderProfile, LanderProps } from '../lander-types';
import { SignupAction } from './signup-action';
import './gallery.css';

/** Portraits that load with the page (the first screen on a phone: the large first one and the row under it). */
const EAGER = 3;

/**
 * A gallery of portraits from the visitor's region: the first one large, the others in a grid, each with name,
 * age and city. A portrait opens a focus view (the photo large, the previous and next ones a tap away), where the
 * photo and the button open signup about that profile.
 */
export function GalleryLander({ niche, profiles, canSignUp, onSignup }: LanderProps) {
  const { t } = useTranslation(['landers', 'common']);
  const settings = useLanderSettings();
  const [focused, setFocused] = useState<number | null>(null);
  const signupAbout = (profileId?: number) => {
    setFocused(null);
    onSignup(profileId);
  };
  return (
    <main id="main" className="l-gallery" data-testid="lander-gallery">
      <header className="l-gallery-head">
        <p className="l-gallery-eyebrow">{t(`niche.${niche}.label`)}</p>
        <h1 className="l-gallery-title">{t(`gallery.title.${niche}`)}</h1>
        <p className="l-gallery-lead">{t('gallery.lead')}</p>
      </header>
      {profiles.length > 0 && (
        <ul className="l-gallery-grid">
          {profiles.map((profile, index) => (
            <li key={profile.id} className={index === 0 ? 'l-gallery-item is-featured' : 'l-gallery-item'}>
              <button
                type="button"
                className="l-gallery-tile"
                aria-haspopup="dialog"
                data-testid="gallery-tile"
                onClick={() => setFocused(index)}
              >
                <Photo
                  profile={profile}
                  index={index}
                  sizes={index === 0 ? '(min-width: 768px) 50vw, 100vw' : '(min-width: 768px) 25vw, 50vw'}
                />
                <span className="l-gallery-caption">
                  <strong>
                    {profile.name}, {profile.age}
                  </strong>
                  {profile.city && <span className="l-gallery-city">{profile.city}</span>}
                </span>
                {profile.is_fictional && (
                  <span className="l-gallery-fictional">
                    <LanderFictionalIcon size={22} />
                  </span>
                )}
              </button>
            </li>
          ))}
        </ul>
      )}
      <section className="l-gallery-end" aria-labelledby="l-gallery-end-title">
        <h2 id="l-gallery-end-title" className="l-gallery-end-title">
          {t('gallery.endTitle')}
        </h2>
        <p className="l-gallery-end-text">{t(`niche.${niche}.pitch`)}</p>
        {!canSignUp && <p className="l-gallery-closed">{t('common:signup.closed', { site: settings.name })}</p>}
        <p className="l-gallery-note">{t('common:home.adultsOnly', { minAge: MIN_AGE })}</p>
      </section>
      {/* The way in: under the closing words on a desktop; held at the bottom of a phone's screen while the
          portraits scroll by (sticky inside the page, so it never covers the footer). */}
      <div className="l-gallery-action">
        <SignupAction canSignUp={canSignUp} onSignup={onSignup} className="l-gallery-cta" testId="lander-cta">
          <HeartIcon size={18} />
          {canSignUp ? t('common:home.ctaSignup') : t('common:home.ctaLogin')}
        </SignupAction>
      </div>
      {focused !== null && profiles[focused] && (
        <FocusView
          profiles={profiles}
          index={focused}
          onMove={setFocused}
          onClose={() => setFocused(null)}
          canSignUp={canSignUp}
          onSignup={signupAbout}
        />
      )}
    </main>
  );
}

function Photo({ profile, index, sizes }: { profile: LanderProfile; index: number; sizes: string }) {
  if (!profile.photo) return <PhotoPlaceholder className="l-gallery-photo" />;
  return (
    <img
      className="l-gallery-photo"
      src={profile.photo.src}
      srcSet={profile.photo.srcSet}
      sizes={sizes}
      width={profile.photo.width}
      height={profile.photo.height}
      alt=""
      decoding={index === 0 ? undefined : 'async'}
      loading={index < EAGER ? undefined : 'lazy'}
      fetchPriority={index === 0 ? 'high' : undefined}
    />
  );
}

/** The lightbox: one portrait large, with its name, age and city, the way to write to it, and the neighbours. */
function FocusView({
  profiles,
  index,
  onMove,
  onClose,
  canSignUp,
  onSignup,
}: {
  profiles: LanderProfile[];
  index: number;
  onMove: (index: number) => void;
  onClose: () => void;
  canSignUp: boolean;
  onSignup: (profileId?: number) => void;
}) {
  const { t } = useTranslation(['landers', 'common']);
  const settings = useLanderSettings();
  const titleId = useId();
  const profile = profiles[index];
  const count = profiles.length;
  const move = (step: number) => onMove((index + step + count) % count);
  const onKeyDown = (event: KeyboardEvent) => {
    if (event.key === 'ArrowLeft') move(-1);
    else if (event.key === 'ArrowRight') move(1);
  };
  // A modal on the native <dialog>: the browser keeps focus inside and the page behind inert; it lives as long as
  // this component (closed as it unmounts).
  const attach = useCallback((dialog: HTMLDialogElement | null) => {
    if (!dialog) return;
    if (!dialog.open) dialog.showModal();
    return () => {
      if (dialog.open) dialog.close();
    };
  }, []);
  return (
    <dialog
      ref={attach}
      className="l-gallery-focus"
      aria-labelledby={titleId}
      data-testid="gallery-focus"
      onCancel={(event) => {
        event.preventDefault();
        onClose();
      }}
      onClick={(event) => {
        // A click on the backdrop lands on the <dialog> itself, outside its content.
        if (event.target === event.currentTarget) onClose();
      }}
      onKeyDown={onKeyDown}
    >
      <div className="l-gallery-focus-body">
        <button type="button" className="l-gallery-focus-close" aria-label={t('common:common.close')} onClick={onClose}>
          <span aria-hidden="true">×</span>
        </button>
        <SignupAction
          canSignUp={canSignUp}
          onSignup={onSignup}
          profileId={profile.id}
          className="l-gallery-focus-photo"
          label={t('gallery.writeTo', { name: profile.name })}
          testId="gallery-focus-photo"
          isRedundant
        >
          {profile.photo ? (
            <img
              key={profile.id}
              src={profile.photo.src}
              srcSet={profile.photo.srcSet}
              sizes="(min-width: 768px) 460px, 92vw"
              width={profile.photo.width}
              height={profile.photo.height}
              alt=""
            />
          ) : (
            <PhotoPlaceholder />
          )}
        </SignupAction>
        <div className="l-gallery-focus-info">
          <h2 id={titleId} className="l-gallery-focus-name">
            {profile.name}, {profile.age}
            {profile.is_fictional && (
              <span className="l-gallery-focus-fictional">
                <LanderFictionalIcon size={22} />
              </span>
            )}
          </h2>
          {profile.city && <p className="l-gallery-focus-city">{profile.city}</p>}
          <SignupAction
            canSignUp={canSignUp}
            onSignup={onSignup}
            profileId={profile.id}
            className="l-gallery-cta l-gallery-focus-cta"
            testId="gallery-focus-cta"
          >
            <HeartIcon size={18} />
            {canSignUp ? t('gallery.writeTo', { name: profile.name }) : t('common:home.ctaLogin')}
          </SignupAction>
          {canSignUp && settings.signup_credits > 0 && (
            <p className="l-gallery-focus-note">{t('common:home.points.free', { count: settings.signup_credits })}</p>
          )}
          {count > 1 && (
            <div className="l-gallery-focus-nav">
              <button type="button" className="l-gallery-focus-step" onClick={() => move(-1)} aria-label={t('gallery.previous')}>
                <Chevron isBack />
              </button>
              <span className="l-gallery-focus-count">{t('gallery.position', { current: index + 1, total: count })}</span>
              <button type="button" className="l-gallery-focus-step" onClick={() => move(1)} aria-label={t('gallery.next')}>
                <Chevron />
              </button>
            </div>
          )}
        </div>
      </div>
    </dialog>
  );
}

function Chevron({ isBack = false }: { isBack?: boolean }) {
  return (
    <svg viewBox="0 0 24 24" width={22} height={22} aria-hidden="true" focusable="false">
      <path
        d={isBack ? 'm15 5-7 7 7 7' : 'm9 5 7 7-7 7'}
        fill="none"
        stroke="currentColor"
        strokeWidth={2.4}
        strokeLinecap="round"
        strokeLinejoin="round"
      />
    </svg>
  );
}

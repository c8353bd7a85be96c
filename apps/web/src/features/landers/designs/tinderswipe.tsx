import { MIN_AGE } from '@amora/contracts/core';
import { type KeyboardEvent, type PointerEvent, useEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { HeartIcon } from '@/components/ui/heart-icon';
import { PhotoPlaceholder } from '@/components/ui/photo-placeholder';
import { LanderFictionalIcon, useLanderSettings } from '../lander-site';
import type { LanderProfile, LanderProps } from '../lander-types';
import { SignupAction } from './signup-action';
import './tinderswipe.css';

/** The swipe that opens signup (spec §2 landers-tinderswipe: the fourth). */
const SIGNUP_AT = 4;
/** How far a card must be dragged (px) to count as a swipe; less springs back. */
const SWIPE_DISTANCE = 96;
/** A quick flick counts from a shorter drag (px per ms). */
const FLICK_SPEED = 0.6;
/** Cards drawn at once: the top one and two under it. */
const STACK = 3;

type Direction = 'like' | 'pass';

/** Whether the visitor asked for less motion: a swiped card then leaves at once. */
const prefersLessMotion = () => typeof window !== 'undefined' && window.matchMedia?.('(prefers-reduced-motion: reduce)').matches === true;

/**
 * A stack of profile cards to swipe: drag the top card right to like it, left to pass (with a finger or the
 * mouse), or use the two buttons or the arrow keys. The fourth swipe opens signup (about the last profile liked);
 * after it the stack asks to sign up to go on. Nothing is invented: a like here is not sent to anyone, and the
 * copy says so.
 */
export function TinderswipeLander({ niche, profiles, canSignUp, onSignup }: LanderProps) {
  const { t } = useTranslation(['landers', 'common']);
  const settings = useLanderSettings();
  const [swiped, setSwiped] = useState(0);
  const [leaving, setLeaving] = useState<{ id: number; direction: Direction } | null>(null);
  const lastLiked = useRef<number | undefined>(undefined);
  const [announce, setAnnounce] = useState('');
  const isGated = swiped >= SIGNUP_AT || swiped >= profiles.length;
  const top = isGated ? undefined : profiles[swiped];

  const swipe = (direction: Direction) => {
    if (!top || leaving) return;
    if (direction === 'like') lastLiked.current = top.id;
    setAnnounce(t(direction === 'like' ? 'tinderswipe.liked' : 'tinderswipe.passed', { name: top.name }));
    const done = () => {
      setLeaving(null);
      const count = swiped + 1;
      setSwiped(count);
      if (count === SIGNUP_AT && canSignUp) onSignup(lastLiked.current);
    };
    if (prefersLessMotion()) done();
    else {
      setLeaving({ id: top.id, direction });
      window.setTimeout(done, 260);
    }
  };

  const handleKey = (event: KeyboardEvent<HTMLDivElement>) => {
    if (event.key === 'ArrowRight') swipe('like');
    else if (event.key === 'ArrowLeft') swipe('pass');
    else return;
    event.preventDefault();
  };

  const shown = isGated ? [] : profiles.slice(swiped, swiped + STACK);
  return (
    <main id="main" className="l-tinderswipe" data-testid="lander-tinderswipe">
      <div className="l-tinderswipe-layout">
        <header className="l-tinderswipe-head">
          <p className="l-tinderswipe-eyebrow">{t(`niche.${niche}.label`)}</p>
          <h1 className="l-tinderswipe-title">{t(`niche.${niche}.headline`)}</h1>
          <p className="l-tinderswipe-lead" id="l-tinderswipe-hint">
            {t('tinderswipe.hint')}
          </p>
          <p className="l-tinderswipe-note">{t('tinderswipe.honest')}</p>
        </header>
        <section className="l-tinderswipe-play">
          {/* The stack takes the arrow keys (right: like, left: pass), as the buttons below do. */}
          <div
            className="l-tinderswipe-stack"
            role="group"
            aria-label={t('tinderswipe.stackLabel')}
            tabIndex={top ? 0 : -1}
            aria-describedby="l-tinderswipe-hint"
            onKeyDown={handleKey}
            data-testid="tinderswipe-stack"
          >
            {shown
              .map((profile, depth) => (
                <Card
                  key={profile.id}
                  profile={profile}
                  depth={depth}
                  isFirstPhoto={swiped === 0 && depth === 0}
                  leaving={leaving?.id === profile.id ? leaving.direction : null}
                  onSwipe={depth === 0 ? swipe : undefined}
                />
              ))
              .reverse()}
            {isGated && (
              <div className="l-tinderswipe-gate" data-testid="tinderswipe-gate">
                <HeartIcon size={40} />
                <h2 className="l-tinderswipe-gate-title">{t(canSignUp ? 'tinderswipe.gateTitle' : 'tinderswipe.gateTitleLogin')}</h2>
                <p>{t(canSignUp ? 'tinderswipe.gateText' : 'common:signup.closed', { site: settings.name })}</p>
                <SignupAction canSignUp={canSignUp} onSignup={onSignup} profileId={lastLiked.current} className="l-tinderswipe-cta">
                  {canSignUp ? t('common:home.ctaSignup') : t('common:home.ctaLogin')}
                </SignupAction>
              </div>
            )}
          </div>
          {top && (
            <div className="l-tinderswipe-actions">
              <button
                type="button"
                className="l-tinderswipe-button is-pass"
                onClick={() => swipe('pass')}
                aria-label={t('tinderswipe.passName', { name: top.name })}
                data-testid="tinderswipe-pass"
              >
                <CrossIcon />
              </button>
              <button
                type="button"
                className="l-tinderswipe-button is-like"
                onClick={() => swipe('like')}
                aria-label={t('tinderswipe.likeName', { name: top.name })}
                data-testid="tinderswipe-like"
              >
                <HeartIcon size={30} />
              </button>
            </div>
          )}
          <p className="visually-hidden" aria-live="polite">
            {announce}
          </p>
          <p className="l-tinderswipe-adults">{t('common:home.adultsOnly', { minAge: MIN_AGE })}</p>
        </section>
      </div>
    </main>
  );
}

/** One card of the stack; the top one follows a drag and reports a swipe. */
function Card({
  profile,
  depth,
  isFirstPhoto,
  leaving,
  onSwipe,
}: {
  profile: LanderProfile;
  depth: number;
  isFirstPhoto: boolean;
  leaving: Direction | null;
  onSwipe?: (direction: Direction) => void;
}) {
  const { t } = useTranslation('landers');
  const [drag, setDrag] = useState<{ x: number; y: number } | null>(null);
  const start = useRef<{ x: number; y: number; at: number; id: number } | null>(null);
  // A drag that ends in a swipe leaves from where it was let go.
  const [thrown, setThrown] = useState(0);
  useEffect(() => {
    if (!leaving) setThrown(0);
  }, [leaving]);

  const handleDown = (event: PointerEvent<HTMLDivElement>) => {
    if (!onSwipe || event.button !== 0) return;
    start.current = { x: event.clientX, y: event.clientY, at: performance.now(), id: event.pointerId };
    event.currentTarget.setPointerCapture(event.pointerId);
  };
  const handleMove = (event: PointerEvent<HTMLDivElement>) => {
    if (!start.current || start.current.id !== event.pointerId) return;
    setDrag({ x: event.clientX - start.current.x, y: event.clientY - start.current.y });
  };
  const handleUp = (event: PointerEvent<HTMLDivElement>) => {
    const from = start.current;
    start.current = null;
    if (!from || from.id !== event.pointerId || !onSwipe) return;
    const x = event.clientX - from.x;
    const speed = Math.abs(x) / Math.max(1, performance.now() - from.at);
    setDrag(null);
    if (Math.abs(x) >= SWIPE_DISTANCE || (Math.abs(x) > 24 && speed > FLICK_SPEED)) {
      setThrown(x);
      onSwipe(x > 0 ? 'like' : 'pass');
    }
  };
  const handleCancel = () => {
    start.current = null;
    setDrag(null);
  };

  const x = leaving ? (leaving === 'like' ? 1 : -1) * Math.max(480, Math.abs(thrown) * 3) : (drag?.x ?? 0);
  const y = leaving ? 0 : (drag?.y ?? 0) * 0.2;
  const style =
    depth === 0
      ? { transform: `translate(${x}px, ${y}px) rotate(${x / 18}deg)`, transition: drag ? 'none' : undefined }
      : { transform: `translateY(${depth * 10}px) scale(${1 - depth * 0.04})` };
  const tilt = drag ? Math.max(-1, Math.min(1, drag.x / SWIPE_DISTANCE)) : leaving === 'like' ? 1 : leaving === 'pass' ? -1 : 0;
  return (
    <div
      className={`l-tinderswipe-card${depth === 0 ? ' is-top' : ''}${leaving ? ' is-leaving' : ''}`}
      style={style}
      data-profile-id={profile.id}
      aria-hidden={depth === 0 ? undefined : true}
      onPointerDown={handleDown}
      onPointerMove={handleMove}
      onPointerUp={handleUp}
      onPointerCancel={handleCancel}
      data-testid={depth === 0 ? 'tinderswipe-card' : undefined}
    >
      {profile.photo ? (
        <img
          className="l-tinderswipe-photo"
          src={profile.photo.src}
          srcSet={profile.photo.srcSet}
          sizes="(min-width: 900px) 420px, calc(100vw - 2rem)"
          width={profile.photo.width}
          height={profile.photo.height}
          alt=""
          draggable={false}
          loading={depth === 0 ? 'eager' : 'lazy'}
          fetchPriority={isFirstPhoto ? 'high' : undefined}
        />
      ) : (
        <PhotoPlaceholder className="l-tinderswipe-photo" />
      )}
      <span className="l-tinderswipe-stamp is-like" style={{ opacity: Math.max(0, tilt) }} aria-hidden="true">
        {t('tinderswipe.stampLike')}
      </span>
      <span className="l-tinderswipe-stamp is-pass" style={{ opacity: Math.max(0, -tilt) }} aria-hidden="true">
        {t('tinderswipe.stampPass')}
      </span>
      <div className="l-tinderswipe-caption">
        <h2 className="l-tinderswipe-name">
          {profile.name}, {profile.age}
          {profile.is_fictional && <LanderFictionalIcon size={22} className="l-tinderswipe-fictional" />}
        </h2>
        {profile.city && <p className="l-tinderswipe-city">{profile.city}</p>}
      </div>
    </div>
  );
}

function CrossIcon() {
  return (
    <svg viewBox="0 0 24 24" width={28} height={28} aria-hidden="true" focusable="false">
      <path d="M6 6l12 12M18 6 6 18" stroke="currentColor" strokeWidth={2.6} strokeLinecap="round" fill="none" />
    </svg>
  );
}

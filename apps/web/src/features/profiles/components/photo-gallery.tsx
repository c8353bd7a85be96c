import type { MemberProfile } from '@amora/contracts/core';
import { type KeyboardEvent, type ReactNode, useCallback, useEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { PhotoPlaceholder } from '@/components/ui/photo-placeholder';
import { LocalLink } from '@/shared/site/local-link';

type MemberPhoto = MemberProfile['photos'][number];

function LockIcon({ size = 28 }: { size?: number }) {
  return (
    <svg viewBox="0 0 24 24" width={size} height={size} fill="currentColor" aria-hidden="true" focusable="false">
      <path d="M12 2a5 5 0 0 0-5 5v3H6a2 2 0 0 0-2 2v8a2 2 0 0 0 2 2h12a2 2 0 0 0 2-2v-8a2 2 0 0 0-2-2h-1V7a5 5 0 0 0-5-5zm-3 8V7a3 3 0 0 1 6 0v3z" />
    </svg>
  );
}

function Chevron({ direction }: { direction: 'left' | 'right' }) {
  return (
    <svg viewBox="0 0 24 24" width="22" height="22" aria-hidden="true" focusable="false">
      <path
        d={direction === 'left' ? 'M15 5l-7 7 7 7' : 'M9 5l7 7-7 7'}
        fill="none"
        stroke="currentColor"
        strokeWidth="2.5"
        strokeLinecap="round"
        strokeLinejoin="round"
      />
    </svg>
  );
}

export interface PhotoGalleryProps {
  name: string;
  photos: MemberPhoto[];
  /** Below the photos when there are none (the profile has none, or it is still loading). */
  empty?: ReactNode;
}

/**
 * The profile's photos, big: one at a time in a strip that snaps (CSS scroll-snap), so a finger swipes from one
 * to the next on a phone; the arrows, the thumbnails (from md up) and the arrow keys on the focused strip do the
 * same. A locked photo (the viewer is not premium) shows its blurred variant under a lock and the premium
 * message. The first photo is the page's largest paint: asked for at once, before anything else.
 */
export function PhotoGallery({ name, photos, empty }: PhotoGalleryProps) {
  const { t } = useTranslation();
  const trackRef = useRef<HTMLDivElement>(null);
  const [current, setCurrent] = useState(0);
  const count = photos.length;

  const goTo = useCallback(
    (index: number) => {
      const track = trackRef.current;
      if (!track || count === 0) return;
      const next = Math.min(Math.max(index, 0), count - 1);
      const smooth = !window.matchMedia?.('(prefers-reduced-motion: reduce)').matches;
      track.scrollTo?.({ left: next * track.clientWidth, behavior: smooth ? 'smooth' : 'auto' });
      setCurrent(next);
    },
    [count],
  );

  // The photo in view follows the strip's scroll (a swipe, a trackpad), settled to the nearest photo.
  useEffect(() => {
    const track = trackRef.current;
    if (!track) return;
    let frame = 0;
    const onScroll = () => {
      cancelAnimationFrame(frame);
      frame = requestAnimationFrame(() => {
        if (track.clientWidth > 0) setCurrent(Math.round(track.scrollLeft / track.clientWidth));
      });
    };
    track.addEventListener('scroll', onScroll, { passive: true });
    return () => {
      track.removeEventListener('scroll', onScroll);
      cancelAnimationFrame(frame);
    };
  }, []);

  const handleKeyDown = (event: KeyboardEvent<HTMLDivElement>) => {
    const moves: Record<string, number> = { ArrowLeft: current - 1, ArrowRight: current + 1, Home: 0, End: count - 1 };
    if (!(event.key in moves)) return;
    event.preventDefault();
    goTo(moves[event.key]);
  };

  if (count === 0) {
    return (
      <div className="gallery">
        <div className="gallery-frame">
          <PhotoPlaceholder className="gallery-placeholder" />
        </div>
        {empty}
      </div>
    );
  }

  return (
    <div className="gallery">
      <div className="gallery-frame">
        <div
          ref={trackRef}
          className="gallery-track"
          role="region"
          aria-roledescription="carousel"
          aria-label={t('member.photos', { name })}
          tabIndex={count > 1 ? 0 : undefined}
          onKeyDown={count > 1 ? handleKeyDown : undefined}
          data-testid="photo-gallery"
        >
          {photos.map((photo, index) => (
            <div
              key={photo.id}
              className="gallery-slide"
              role="group"
              aria-roledescription="slide"
              aria-label={t('member.photoNumber', { index: index + 1, total: count })}
              data-testid={photo.is_locked ? 'locked-photo' : 'open-photo'}
            >
              <img
                src={photo.url}
                alt={t('member.photoOf', { name })}
                className={photo.is_locked ? 'gallery-photo is-locked' : 'gallery-photo'}
                draggable={false}
                // The main photo is the page's largest paint: asked for before anything else.
                loading={index === 0 ? 'eager' : 'lazy'}
                fetchPriority={index === 0 ? 'high' : undefined}
              />
              {photo.is_locked && (
                <div className="gallery-lock">
                  <LockIcon />
                  <span className="fw-semibold mt-2">{t('member.premiumOnly')}</span>
                  <LocalLink to="/premium" className="btn btn-light mt-3" data-testid="locked-photo-premium">
                    {t('credits.navPremium')}
                  </LocalLink>
                </div>
              )}
            </div>
          ))}
        </div>
        {count > 1 && (
          <>
            <span className="gallery-counter" aria-hidden="true">
              {current + 1} / {count}
            </span>
            <button
              type="button"
              className="gallery-nav gallery-prev"
              onClick={() => goTo(current - 1)}
              disabled={current === 0}
              aria-label={t('member.previousPhoto')}
            >
              <Chevron direction="left" />
            </button>
            <button
              type="button"
              className="gallery-nav gallery-next"
              onClick={() => goTo(current + 1)}
              disabled={current === count - 1}
              aria-label={t('member.nextPhoto')}
            >
              <Chevron direction="right" />
            </button>
            <div className="gallery-dots" aria-hidden="true">
              {photos.map((photo, index) => (
                <span key={photo.id} className={index === current ? 'is-current' : undefined} />
              ))}
            </div>
          </>
        )}
      </div>
      {count > 1 && (
        <ul className="gallery-thumbs">
          {photos.map((photo, index) => (
            <li key={photo.id}>
              <button
                type="button"
                className="gallery-thumb"
                onClick={() => goTo(index)}
                aria-label={t('member.photoNumber', { index: index + 1, total: count })}
                aria-current={index === current ? 'true' : undefined}
              >
                <img src={photo.thumb_url} alt="" loading="lazy" className={photo.is_locked ? 'is-locked' : undefined} />
                {photo.is_locked && (
                  <span className="gallery-thumb-lock">
                    <LockIcon size={16} />
                  </span>
                )}
              </button>
            </li>
          ))}
        </ul>
      )}
    </div>
  );
}

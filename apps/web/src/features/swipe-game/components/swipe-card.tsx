import type { DiscoveryAction, DiscoveryCard } from '@amora/contracts/core';
import { type Ref, useImperativeHandle, useRef } from 'react';
import { useTranslation } from 'react-i18next';
import { countryName } from '@/shared/site/country-name';
import { FictionalIcon } from '@/shared/site/fictional-icon';
import { useLocale } from '@/shared/site/use-locale';

export interface SwipeCardHandle {
  /** Sends the card off to the right (like) or the left (skip), as a drag past the threshold does. */
  fly(action: DiscoveryAction): void;
}

interface SwipeCardProps {
  card: DiscoveryCard;
  /** 0 is the top card (the one that moves), 1 and 2 peek out below it. */
  depth: number;
  canLike: boolean;
  onDecide: (action: DiscoveryAction) => void;
  /** A like was asked for while none are left: the card went back. */
  onLikeRefused: () => void;
  ref?: Ref<SwipeCardHandle>;
}

const FLY_MS = 260;
const SNAP_MS = 200;
/** Degrees of rotation per pixel of drag, and the most it turns. */
const TILT = 0.06;
const MAX_TILT = 18;

const prefersReducedMotion = () => window.matchMedia?.('(prefers-reduced-motion: reduce)').matches === true;

/**
 * One card of the stack. The top card follows the pointer: the move only writes `transform` (once per animation
 * frame, on a layer of its own thanks to will-change), so nothing is laid out again while dragging. Past the
 * threshold (30 % of the card's width, at least 80 px) a release decides: right is like, left is skip.
 */
export function SwipeCard({ card, depth, canLike, onDecide, onLikeRefused, ref }: SwipeCardProps) {
  const { t } = useTranslation();
  const locale = useLocale();
  const node = useRef<HTMLDivElement>(null);
  const likeBadge = useRef<HTMLDivElement>(null);
  const skipBadge = useRef<HTMLDivElement>(null);
  const drag = useRef<{ pointerId: number; startX: number; startY: number; width: number; dx: number; frame: number } | null>(null);
  const isLeaving = useRef(false);
  const isTop = depth === 0;

  const paint = (x: number, transition: string) => {
    const el = node.current;
    if (!el) return;
    const width = drag.current?.width ?? el.offsetWidth;
    const tilt = Math.max(-MAX_TILT, Math.min(MAX_TILT, x * TILT));
    el.style.transition = transition;
    el.style.transform = x === 0 ? '' : `translate3d(${x}px, 0, 0) rotate(${tilt}deg)`;
    const strength = Math.min(1, Math.abs(x) / Math.max(80, width * 0.3));
    if (likeBadge.current) likeBadge.current.style.opacity = x > 0 ? String(strength) : '0';
    if (skipBadge.current) skipBadge.current.style.opacity = x < 0 ? String(strength) : '0';
  };

  const snapBack = () => paint(0, prefersReducedMotion() ? 'none' : `transform ${SNAP_MS}ms ease-out`);

  const fly = (action: DiscoveryAction) => {
    if (isLeaving.current || !node.current) return;
    if (action === 'like' && !canLike) {
      snapBack();
      onLikeRefused();
      return;
    }
    isLeaving.current = true;
    const duration = prefersReducedMotion() ? 0 : FLY_MS;
    const distance = (window.innerWidth + node.current.offsetWidth) * (action === 'like' ? 1 : -1);
    paint(distance, duration ? `transform ${duration}ms ease-in` : 'none');
    window.setTimeout(() => onDecide(action), duration);
  };

  useImperativeHandle(ref, () => ({ fly }));

  const handlePointerDown = (event: React.PointerEvent<HTMLDivElement>) => {
    if (!isTop || isLeaving.current || (event.pointerType === 'mouse' && event.button !== 0)) return;
    const el = event.currentTarget;
    el.setPointerCapture(event.pointerId);
    // The width is read once per drag, never while moving.
    drag.current = { pointerId: event.pointerId, startX: event.clientX, startY: event.clientY, width: el.offsetWidth, dx: 0, frame: 0 };
    el.style.transition = 'none';
  };

  const handlePointerMove = (event: React.PointerEvent<HTMLDivElement>) => {
    const current = drag.current;
    if (!current || current.pointerId !== event.pointerId) return;
    current.dx = event.clientX - current.startX;
    if (!current.frame) {
      current.frame = requestAnimationFrame(() => {
        current.frame = 0;
        if (drag.current === current) paint(current.dx, 'none');
      });
    }
  };

  const endDrag = (event: React.PointerEvent<HTMLDivElement>, isCancelled: boolean) => {
    const current = drag.current;
    if (!current || current.pointerId !== event.pointerId) return;
    drag.current = null;
    if (current.frame) cancelAnimationFrame(current.frame);
    const threshold = Math.max(80, current.width * 0.3);
    const dx = event.clientX - current.startX;
    if (!isCancelled && dx > threshold) fly('like');
    else if (!isCancelled && dx < -threshold) fly('skip');
    else snapBack();
  };

  const place = [card.city, countryName(card.country, locale)].filter(Boolean).join(', ');
  const style: React.CSSProperties = { zIndex: 10 - depth };
  if (depth > 0) style.transform = `translate3d(0, ${depth * 12}px, 0) scale(${1 - depth * 0.04})`;

  return (
    <div
      ref={node}
      className={`swipe-card${isTop ? ' is-top' : ''}`}
      style={style}
      aria-hidden={isTop ? undefined : true}
      data-testid={isTop ? 'swipe-card' : undefined}
      data-profile-id={card.id}
      onPointerDown={handlePointerDown}
      onPointerMove={handlePointerMove}
      onPointerUp={(event) => endDrag(event, false)}
      onPointerCancel={(event) => endDrag(event, true)}
      onLostPointerCapture={(event) => endDrag(event, true)}
    >
      {card.photo ? (
        <img
          className="swipe-photo"
          src={card.photo.large}
          alt={t('member.photoOf', { name: card.name })}
          draggable={false}
          // The top card's photo is the page's largest paint: asked for before anything else.
          fetchPriority={isTop ? 'high' : undefined}
        />
      ) : (
        <div className="swipe-no-photo bg-secondary-subtle d-flex align-items-center justify-content-center" aria-hidden="true">
          <span className="swipe-initial">{card.name.slice(0, 1).toUpperCase()}</span>
        </div>
      )}
      <div className="swipe-badge swipe-badge-like" ref={likeBadge} aria-hidden="true">
        {t('swipe.like')}
      </div>
      <div className="swipe-badge swipe-badge-skip" ref={skipBadge} aria-hidden="true">
        {t('swipe.skip')}
      </div>
      <div className="swipe-info">
        <h2 className="h4 mb-0 d-flex align-items-center gap-2 flex-wrap">
          {card.name}, {card.age}
          {card.is_premium && <span className="badge text-bg-secondary fs-6">{t('member.premium')}</span>}
          {card.is_fictional && <FictionalIcon size={20} />}
        </h2>
        <p className="mb-1 small">{place}</p>
        {card.about && <p className="swipe-about small mb-1">{card.about}</p>}
        {card.interests.length > 0 && (
          <p className="small mb-0">
            {card.interests
              .slice(0, 4)
              .map((i) => t(`interests.${i}`))
              .join(' · ')}
          </p>
        )}
      </div>
    </div>
  );
}

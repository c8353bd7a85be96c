import './swipe-game.css';
import { type DiscoveryAction, type DiscoveryCard, SWIPE_LIKES_PER_DAY } from '@amora/contracts/core';
import { useEffect, useMemo, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Navigate } from 'react-router';
import { buttonClass } from '@/components/ui/button';
import { EmptyState } from '@/components/ui/empty-state';
import { HeartIcon } from '@/components/ui/heart-icon';
import { Skeleton, SkeletonRegion } from '@/components/ui/skeleton';
import { ApiRequestError } from '@/lib/api-client';
import { errorText } from '@/lib/error-text';
import { resetMoment } from '@/lib/format-time';
import { useTimeZone } from '@/lib/page-request';
import { useShowMatch } from '@/shared/modals/show-match';
import { useUser } from '@/shared/session/user';
import { LocalLink } from '@/shared/site/local-link';
import { useLocale, useLocalePath } from '@/shared/site/use-locale';
import { usePageTitle } from '@/shared/site/use-page-title';
import { useSwipeGame } from './api/get-swipe-game';
import { useSwipe } from './api/send-swipe';
import { SwipeCard, type SwipeCardHandle } from './components/swipe-card';

/** Cards the server sends at once; a full stack means there may be more to fetch. */
const STACK_SIZE = 10;
/** One heart per like of the day. */
const HEART_SLOTS = Array.from({ length: SWIPE_LIKES_PER_DAY }, (_, slot) => slot);
/** Fetch more when this few are left. */
const REFILL_AT = 3;

function CrossIcon() {
  return (
    <svg viewBox="0 0 24 24" width={22} height={22} aria-hidden="true" focusable="false">
      <path d="M6 6l12 12M18 6 6 18" stroke="currentColor" strokeWidth={2.5} strokeLinecap="round" />
    </svg>
  );
}

const isTyping = (target: EventTarget | null) =>
  target instanceof HTMLElement && (target.isContentEditable || ['INPUT', 'TEXTAREA', 'SELECT'].includes(target.tagName));

/** /swipe-game: a stack of cards; drag right (or Like) to like, left (or Skip) to skip; 4 likes a day (spec §9). */
export function SwipeGamePage() {
  const { t } = useTranslation();
  usePageTitle(t('swipe.title'));
  const user = useUser();
  const locale = useLocale();
  const timeZone = useTimeZone();
  const localize = useLocalePath();
  const game = useSwipeGame(user !== null);
  const swipe = useSwipe();
  const showMatch = useShowMatch();
  const top = useRef<SwipeCardHandle>(null);
  const limitMessage = useRef<HTMLDivElement>(null);
  /** Cards decided here (or on their way): they leave the stack at once, whatever the server sends next. */
  const [gone, setGone] = useState<ReadonlySet<number>>(() => new Set());
  const [error, setError] = useState<string | null>(null);

  const cards = useMemo(() => (game.data?.cards ?? []).filter((c) => !gone.has(c.id)), [game.data, gone]);
  const likesLeft = game.data?.likes_left ?? 0;
  const canLike = likesLeft > 0;
  const hasMore = (game.data?.cards.length ?? 0) >= STACK_SIZE;
  const { isFetching, refetch } = game;

  useEffect(() => {
    if (hasMore && cards.length <= REFILL_AT && !isFetching) void refetch();
  }, [hasMore, cards.length, isFetching, refetch]);

  useEffect(() => {
    const handleKey = (event: KeyboardEvent) => {
      if (event.altKey || event.ctrlKey || event.metaKey || isTyping(event.target) || document.querySelector('dialog[open]')) return;
      if (event.key === 'ArrowRight') top.current?.fly('like');
      else if (event.key === 'ArrowLeft') top.current?.fly('skip');
      else return;
      event.preventDefault();
    };
    window.addEventListener('keydown', handleKey);
    return () => window.removeEventListener('keydown', handleKey);
  }, []);

  if (!user) return <Navigate to={`${localize('/login')}?redirect=${encodeURIComponent(localize('/swipe-game'))}`} replace />;

  const decide = (card: DiscoveryCard, action: DiscoveryAction) => {
    setError(null);
    setGone((current) => new Set(current).add(card.id));
    // One promise per card: with quick swipes several are on their way, and each answer belongs to its card.
    swipe.mutateAsync({ profileId: card.id, action }).then(
      (result) => {
        if (result.is_match) {
          showMatch({ kind: 'match', id: card.id, name: card.name, isFictional: card.is_fictional, imageUrl: card.photo?.match ?? null });
        }
      },
      (failure: unknown) => {
        // Nothing was stored: the card comes back on top.
        setGone((current) => {
          const next = new Set(current);
          next.delete(card.id);
          return next;
        });
        if (failure instanceof ApiRequestError && failure.code === 'swipe_limit')
          requestAnimationFrame(() => limitMessage.current?.focus());
        else setError(errorText(t, failure));
      },
    );
  };

  const isInvisible = game.error instanceof ApiRequestError && game.error.code === 'invisible';
  // "New likes at 14:30", "… tomorrow at 00:00": the day in words, in the member's own time zone.
  const reset = game.data ? resetMoment(game.data.likes_reset_at, locale, undefined, timeZone) : null;
  const newLikes = !reset
    ? ''
    : reset.when === 'today'
      ? t('swipe.newLikesToday', { time: reset.time })
      : reset.when === 'tomorrow'
        ? t('swipe.newLikesTomorrow', { time: reset.time })
        : t('swipe.newLikesOn', { day: reset.day, time: reset.time });
  const [topCard] = cards;

  return (
    <main id="main" className="container py-4" style={{ maxWidth: 560 }}>
      <h1 className="h3 mb-1">{t('swipe.title')}</h1>
      <p className="text-body-secondary">{t('swipe.intro', { count: SWIPE_LIKES_PER_DAY })}</p>
      {isInvisible && (
        <div className="alert alert-info" data-testid="swipe-invisible">
          {t('swipe.invisible')} <LocalLink to="/profile">{t('swipe.toProfile')}</LocalLink>
        </div>
      )}
      {game.isError && !isInvisible && <div className="alert alert-danger">{errorText(t, game.error)}</div>}
      {game.isPending && (
        // The counter's and the cards' places, kept while the game loads, so the footer does not move when it comes.
        <SkeletonRegion label={t('common.loading')}>
          <Skeleton width="12rem" className="mb-3" />
          <div className="swipe-stack">
            <Skeleton shape="rect" width="100%" height="100%" className="swipe-skeleton" />
          </div>
        </SkeletonRegion>
      )}
      {game.data && (
        <>
          <div className="d-flex align-items-center gap-2 mb-3" data-testid="swipe-likes-left">
            <span className="swipe-hearts d-inline-flex gap-1" aria-hidden="true">
              {HEART_SLOTS.map((slot) => (
                <span key={slot} className={slot < likesLeft ? undefined : 'is-used'}>
                  <HeartIcon size={18} />
                </span>
              ))}
            </span>
            <span role="status">{t('swipe.likesLeft', { left: likesLeft })}</span>
          </div>
          {!canLike && (
            <div className="alert alert-warning" role="status" tabIndex={-1} ref={limitMessage} data-testid="swipe-limit">
              {t('swipe.limit', { count: SWIPE_LIKES_PER_DAY })} {newLikes}
            </div>
          )}
          {error && (
            <div className="alert alert-danger" role="alert">
              {error}
            </div>
          )}
          {cards.length > 0 ? (
            <>
              <p className="visually-hidden" aria-live="polite">
                {topCard ? t('swipe.showing', { name: topCard.name, age: topCard.age }) : ''}
              </p>
              <div className="swipe-stack" data-testid="swipe-stack">
                {cards
                  .slice(0, 3)
                  .map((card, depth) => (
                    <SwipeCard
                      key={card.id}
                      ref={depth === 0 ? top : undefined}
                      card={card}
                      depth={depth}
                      canLike={canLike}
                      onDecide={(action) => decide(card, action)}
                      onLikeRefused={() => limitMessage.current?.focus()}
                    />
                  ))
                  .reverse()}
              </div>
              <p className="swipe-hint small text-body-secondary text-center mt-3 mb-2">{t('swipe.hint')}</p>
              <div className="swipe-actions d-flex justify-content-center align-items-center gap-4">
                <button
                  type="button"
                  className="btn btn-outline-dark d-inline-flex flex-column align-items-center justify-content-center"
                  onClick={() => top.current?.fly('skip')}
                  aria-label={t('swipe.skipLabel', { name: topCard.name })}
                  data-testid="swipe-skip"
                >
                  <CrossIcon />
                  <span className="small">{t('swipe.skip')}</span>
                </button>
                <button
                  type="button"
                  className="btn btn-primary d-inline-flex flex-column align-items-center justify-content-center"
                  onClick={() => top.current?.fly('like')}
                  disabled={!canLike}
                  aria-label={t('swipe.likeLabel', { name: topCard.name })}
                  data-testid="swipe-like"
                >
                  <HeartIcon size={22} />
                  <span className="small">{t('swipe.like')}</span>
                </button>
              </div>
              <p className="text-center mt-3">
                <LocalLink to={`/members/${topCard.id}`}>{t('swipe.viewProfile', { name: topCard.name })}</LocalLink>
              </p>
            </>
          ) : (
            !isFetching && (
              <EmptyState
                title={t('swipe.emptyTitle')}
                text={t('swipe.emptyText')}
                testId="swipe-empty"
                action={
                  <LocalLink to="/match-finder" className={buttonClass()}>
                    {t('swipe.toMatchFinder')}
                  </LocalLink>
                }
              />
            )
          )}
        </>
      )}
    </main>
  );
}

export { SwipeGamePage as Component };

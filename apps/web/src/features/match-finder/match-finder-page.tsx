import './match-finder.css';
import type { DiscoveryAction, DiscoveryCard } from '@amora/contracts/core';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { Navigate } from 'react-router';
import { Badge } from '@/components/ui/badge';
import { buttonClass } from '@/components/ui/button';
import { EmptyState } from '@/components/ui/empty-state';
import { HeartIcon } from '@/components/ui/heart-icon';
import { PhotoPlaceholder } from '@/components/ui/photo-placeholder';
import { Skeleton, SkeletonRegion, SkeletonText } from '@/components/ui/skeleton';
import { ApiRequestError } from '@/lib/api-client';
import { errorText } from '@/lib/error-text';
import { useShowMatch } from '@/shared/modals/show-match';
import { useUser } from '@/shared/session/user';
import { useSettings } from '@/shared/site/api/get-settings';
import { countryName } from '@/shared/site/country-name';
import { FictionalIcon } from '@/shared/site/fictional-icon';
import { LocalLink } from '@/shared/site/local-link';
import { useLocale, useLocalePath } from '@/shared/site/use-locale';
import { usePageTitle } from '@/shared/site/use-page-title';
import { useDecideSuggestion } from './api/decide-suggestion';
import { useSuggestion } from './api/get-suggestion';

function CrossIcon() {
  return (
    <svg viewBox="0 0 24 24" width={24} height={24} aria-hidden="true" focusable="false">
      <path d="M6 6l12 12M18 6 6 18" stroke="currentColor" strokeWidth={2.5} strokeLinecap="round" />
    </svg>
  );
}

/**
 * The suggestion as a large card, drawn like the swipe game's: the match photo with name, age and place on it,
 * the like and skip buttons on the photo's lower edge (so they are on the first screen at any size, measured at
 * 390×844 and 1280×800), then the about text and interests below.
 */
function SuggestionCard({ card, actions }: { card: DiscoveryCard; actions: ReactNode }) {
  const { t } = useTranslation();
  const settings = useSettings();
  const locale = useLocale();
  const place = [card.city, countryName(card.country, locale)].filter(Boolean).join(', ');
  return (
    <article className="mf-card card" aria-labelledby="suggestion-name" data-testid="match-card" data-profile-id={card.id}>
      <div className="mf-photo">
        {card.photo ? (
          <img src={card.photo.match} alt={t('member.photoOf', { name: card.name })} fetchPriority="high" />
        ) : (
          <PhotoPlaceholder />
        )}
        <div className="mf-info">
          <h2 className="h3 mb-0 d-flex align-items-center gap-2 flex-wrap" id="suggestion-name">
            <LocalLink to={`/members/${card.id}`} className="mf-name stretched-link">
              {card.name}, {card.age}
            </LocalLink>
            {card.is_premium && <Badge variant="secondary">{t('member.premium')}</Badge>}
            {card.is_fictional && <FictionalIcon size={20} />}
          </h2>
          <p className="mb-0">{place}</p>
        </div>
      </div>
      {actions}
      <div className="card-body pt-0">
        {card.is_fictional && <p className="small border-start border-3 border-secondary ps-2">{settings.fictional_warning}</p>}
        {card.about && <p className="mf-about mb-2">{card.about}</p>}
        {card.interests.length > 0 && (
          <ul className="list-unstyled d-flex flex-wrap gap-1 mb-0" aria-label={t('matchFinder.interests')}>
            {card.interests.map((i) => (
              <li key={i} className="badge rounded-pill text-bg-light border fw-semibold">
                {t(`interests.${i}`)}
              </li>
            ))}
          </ul>
        )}
      </div>
    </article>
  );
}

/** The card's outline while the suggestion loads, the same size, so nothing moves when it comes. */
function SuggestionSkeleton() {
  const { t } = useTranslation();
  return (
    <SkeletonRegion label={t('common.loading')} className="mf-card card">
      <Skeleton shape="rect" className="mf-photo" />
      <div className="mf-actions">
        <Skeleton shape="circle" width="4.5rem" height="4.5rem" />
        <Skeleton shape="circle" width="4.5rem" height="4.5rem" />
      </div>
      <div className="card-body pt-0">
        <SkeletonText lines={2} />
      </div>
    </SkeletonRegion>
  );
}

/** /match-finder: one suggestion at a time; like or skip, and the next one takes its place. */
export function MatchFinderPage() {
  const { t } = useTranslation();
  usePageTitle(t('matchFinder.title'));
  const user = useUser();
  const localize = useLocalePath();
  const suggestion = useSuggestion(user !== null);
  const decide = useDecideSuggestion();
  const showMatch = useShowMatch();
  if (!user) return <Navigate to={`${localize('/login')}?redirect=${encodeURIComponent(localize('/match-finder'))}`} replace />;

  const card = suggestion.data?.profile ?? null;
  const isInvisible = suggestion.error instanceof ApiRequestError && suggestion.error.code === 'invisible';
  const handle = (target: DiscoveryCard, action: DiscoveryAction) =>
    decide.mutate(
      { profileId: target.id, action },
      {
        onSuccess: (result) => {
          if (result.is_match) {
            showMatch({
              kind: 'match',
              id: target.id,
              name: target.name,
              isFictional: target.is_fictional,
              imageUrl: target.photo?.match ?? null,
            });
          }
        },
      },
    );

  return (
    <main id="main" className="container py-3 py-md-4" style={{ maxWidth: 560 }}>
      <h1 className="h3 mb-1">{t('matchFinder.title')}</h1>
      <p className="text-body-secondary small mb-3">
        {t('matchFinder.intro')} <span data-testid="match-finder-limit">{t('matchFinder.noLimit')}</span>
      </p>
      <p className="visually-hidden" aria-live="polite">
        {card ? t('matchFinder.showing', { name: card.name, age: card.age }) : ''}
      </p>
      {isInvisible && (
        <div className="alert alert-info" data-testid="match-invisible">
          {t('matchFinder.invisible')} <LocalLink to="/profile">{t('matchFinder.toProfile')}</LocalLink>
        </div>
      )}
      {suggestion.isError && !isInvisible && <div className="alert alert-danger">{errorText(t, suggestion.error)}</div>}
      {suggestion.isPending && <SuggestionSkeleton />}
      {suggestion.isSuccess && !card && (
        <EmptyState
          title={t('matchFinder.emptyTitle')}
          text={t('matchFinder.emptyText')}
          testId="match-empty"
          action={
            <div className="d-flex gap-2 justify-content-center flex-wrap">
              <LocalLink to="/members" className={buttonClass()}>
                {t('matchFinder.toSearch')}
              </LocalLink>
              <LocalLink to="/swipe-game" className={buttonClass({ variant: 'outline-primary' })}>
                {t('matchFinder.toSwipeGame')}
              </LocalLink>
            </div>
          }
        />
      )}
      {card && (
        <>
          {decide.isError && (
            <div className="alert alert-danger py-2" role="alert" data-testid="match-error">
              {errorText(t, decide.error)}
            </div>
          )}
          <SuggestionCard
            key={card.id}
            card={card}
            actions={
              <div className="mf-actions">
                <button
                  type="button"
                  className="btn btn-light mf-skip"
                  onClick={() => handle(card, 'skip')}
                  disabled={decide.isPending}
                  aria-label={t('matchFinder.skipLabel', { name: card.name })}
                  data-testid="match-skip"
                >
                  <CrossIcon />
                  <span className="small">{t('matchFinder.skip')}</span>
                </button>
                <button
                  type="button"
                  className="btn btn-primary mf-like"
                  onClick={() => handle(card, 'like')}
                  disabled={decide.isPending}
                  aria-label={t('matchFinder.likeLabel', { name: card.name })}
                  data-testid="match-like"
                >
                  <HeartIcon size={24} />
                  <span className="small">{t('matchFinder.like')}</span>
                </button>
              </div>
            }
          />
        </>
      )}
    </main>
  );
}

export { MatchFinderPage as Component };

import type { DiscoveryAction, DiscoveryCard } from '@amora/contracts/core';
import { useTranslation } from 'react-i18next';
import { Navigate } from 'react-router';
import { HeartIcon } from '@/components/ui/heart-icon';
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
    <svg viewBox="0 0 24 24" width={18} height={18} aria-hidden="true" focusable="false">
      <path d="M6 6l12 12M18 6 6 18" stroke="currentColor" strokeWidth={2.5} strokeLinecap="round" />
    </svg>
  );
}

/** The suggestion as a large card: the square match photo, name, age, place, about text and interests. */
function SuggestionCard({ card }: { card: DiscoveryCard }) {
  const { t } = useTranslation();
  const settings = useSettings();
  const locale = useLocale();
  const place = [card.city, countryName(card.country, locale)].filter(Boolean).join(', ');
  return (
    <article
      className="card shadow-sm border-0 overflow-hidden"
      aria-labelledby="suggestion-name"
      data-testid="match-card"
      data-profile-id={card.id}
    >
      {card.photo ? (
        <img
          src={card.photo.match}
          alt={t('member.photoOf', { name: card.name })}
          className="w-100"
          style={{ aspectRatio: '1 / 1', objectFit: 'cover' }}
        />
      ) : (
        <div
          className="w-100 bg-light d-flex align-items-center justify-content-center text-body-secondary"
          style={{ aspectRatio: '1 / 1' }}
        >
          {t('member.noPhotos')}
        </div>
      )}
      <div className="card-body">
        <h2 className="h4 mb-1 d-flex align-items-center gap-2 flex-wrap" id="suggestion-name">
          <LocalLink to={`/members/${card.id}`} className="text-body text-decoration-none">
            {card.name}, {card.age}
          </LocalLink>
          {card.is_premium && <span className="badge text-bg-secondary">{t('member.premium')}</span>}
          {card.is_fictional && <FictionalIcon size={20} />}
        </h2>
        <p className="text-body-secondary mb-2">{place}</p>
        {card.is_fictional && <p className="small border-start border-3 border-secondary ps-2">{settings.fictional_warning}</p>}
        {card.about && <p className="mb-2">{card.about}</p>}
        {card.interests.length > 0 && (
          <ul className="list-inline mb-0" aria-label={t('matchFinder.interests')}>
            {card.interests.map((i) => (
              <li key={i} className="list-inline-item badge rounded-pill text-bg-light border">
                {t(`interests.${i}`)}
              </li>
            ))}
          </ul>
        )}
      </div>
    </article>
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
    <main id="main" className="container py-4" style={{ maxWidth: 560 }}>
      <h1 className="h3 mb-1">{t('matchFinder.title')}</h1>
      <p className="text-body-secondary">{t('matchFinder.intro')}</p>
      <p className="visually-hidden" aria-live="polite">
        {card ? t('matchFinder.showing', { name: card.name, age: card.age }) : ''}
      </p>
      {isInvisible && (
        <div className="alert alert-info" data-testid="match-invisible">
          {t('matchFinder.invisible')} <LocalLink to="/profile">{t('matchFinder.toProfile')}</LocalLink>
        </div>
      )}
      {suggestion.isError && !isInvisible && <div className="alert alert-danger">{errorText(t, suggestion.error)}</div>}
      {suggestion.isPending && <div className="py-5" aria-busy="true" />}
      {suggestion.isSuccess && !card && (
        <div className="card border-0 bg-light text-center p-4" data-testid="match-empty">
          <h2 className="h5">{t('matchFinder.emptyTitle')}</h2>
          <p>{t('matchFinder.emptyText')}</p>
          <div className="d-flex gap-2 justify-content-center flex-wrap">
            <LocalLink to="/members" className="btn btn-primary">
              {t('matchFinder.toSearch')}
            </LocalLink>
            <LocalLink to="/swipe-game" className="btn btn-outline-primary">
              {t('matchFinder.toSwipeGame')}
            </LocalLink>
          </div>
        </div>
      )}
      {card && (
        <>
          <SuggestionCard key={card.id} card={card} />
          {decide.isError && (
            <div className="alert alert-danger mt-3" role="alert" data-testid="match-error">
              {errorText(t, decide.error)}
            </div>
          )}
          <div className="d-flex gap-3 justify-content-center mt-3">
            <button
              type="button"
              className="btn btn-outline-dark btn-lg d-inline-flex align-items-center gap-2 px-4"
              onClick={() => handle(card, 'skip')}
              disabled={decide.isPending}
              aria-label={t('matchFinder.skipLabel', { name: card.name })}
              data-testid="match-skip"
            >
              <CrossIcon />
              {t('matchFinder.skip')}
            </button>
            <button
              type="button"
              className="btn btn-primary btn-lg d-inline-flex align-items-center gap-2 px-4"
              onClick={() => handle(card, 'like')}
              disabled={decide.isPending}
              aria-label={t('matchFinder.likeLabel', { name: card.name })}
              data-testid="match-like"
            >
              <HeartIcon size={18} />
              {t('matchFinder.like')}
            </button>
          </div>
        </>
      )}
    </main>
  );
}

export { MatchFinderPage as Component };

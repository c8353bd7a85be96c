import '../components/likes.css';
import { LIKES_TYPES, type LikeCard, type LikedByCard, type LikesType } from '@amora/contracts/core';
import { useTranslation } from 'react-i18next';
import { useParams } from 'react-router';
import { CountBadge } from '@/components/ui/badge';
import { buttonClass } from '@/components/ui/button';
import { EmptyState } from '@/components/ui/empty-state';
import { HeartIcon } from '@/components/ui/heart-icon';
import { PhotoPlaceholder } from '@/components/ui/photo-placeholder';
import { SkeletonRegion } from '@/components/ui/skeleton';
import { ErrorPage } from '@/shared/errors/error-page';
import { useLikes } from '@/shared/session/likes';
import { useUser } from '@/shared/session/user';
import { countryName } from '@/shared/site/country-name';
import { FictionalIcon } from '@/shared/site/fictional-icon';
import { LocalLink } from '@/shared/site/local-link';
import { useLocale } from '@/shared/site/use-locale';
import { usePageTitle } from '@/shared/site/use-page-title';

const isLikesType = (value: string): value is LikesType => (LIKES_TYPES as readonly string[]).includes(value);
const TAB_PATH: Record<LikesType, string> = { received: '/likes', given: '/likes/given', mutual: '/likes/mutual' };

/** /likes and /likes/{type}: who likes me (default), whom I like, and our matches. */
export function LikesPage() {
  const { type = 'received' } = useParams();
  const { t } = useTranslation();
  const user = useUser();
  const likes = useLikes();
  usePageTitle(t('likes.title'));

  if (!isLikesType(type)) return <ErrorPage status={404} />;
  const cards: (LikeCard | LikedByCard)[] =
    type === 'received' ? (likes.data?.liked_by ?? []) : (likes.data?.profiles ?? []).filter((p) => type === 'given' || p.is_match);

  const newLikes = likes.data?.new_likes ?? 0;
  return (
    <main id="main" className="container py-3 py-md-4">
      <h1 className="h3 mb-3">{t('likes.title')}</h1>
      <nav aria-label={t('likes.tabsLabel')} className="mb-3 mb-md-4">
        <ul className="likes-tabs">
          {LIKES_TYPES.map((tab) => (
            <li key={tab}>
              <LocalLink
                to={TAB_PATH[tab]}
                className="likes-tab"
                aria-current={tab === type ? 'page' : undefined}
                data-testid={`likes-tab-${tab}`}
              >
                {t(`likes.tabs.${tab}`)}
                {tab === 'received' && <CountBadge count={newLikes} label={t('likes.newLikes', { count: newLikes })} />}
              </LocalLink>
            </li>
          ))}
        </ul>
      </nav>
      {!user && (
        <div className="alert alert-info">
          {t('likes.loginToSee')} <LocalLink to="/login">{t('nav.login')}</LocalLink>
        </div>
      )}
      {likes.isError && <div className="alert alert-danger">{t('errors.generic')}</div>}
      {user && likes.isPending && (
        <SkeletonRegion label={t('common.loading')} className="row g-2 g-md-3">
          {Array.from({ length: 8 }, (_, i) => (
            // biome-ignore lint/suspicious/noArrayIndexKey: identical placeholders, never reordered
            <div className="col-6 col-md-4 col-lg-3" key={i}>
              <div className="photo-card photo-card-portrait photo-card-skeleton" aria-hidden="true">
                <span className="skeleton photo-card-photo" />
                <div className="photo-card-info">
                  <span className="skeleton skeleton-text" style={{ width: '70%' }} />
                  <span className="skeleton skeleton-text" style={{ width: '45%' }} />
                </div>
              </div>
            </div>
          ))}
        </SkeletonRegion>
      )}
      {likes.data && cards.length === 0 && (
        <EmptyState
          testId="likes-empty"
          title={t(`likes.empty.${type}`)}
          action={
            <div className="d-flex flex-wrap justify-content-center gap-2 mt-3">
              <LocalLink to="/members" className={buttonClass({ variant: 'primary' })}>
                {t('likes.browse')}
              </LocalLink>
              <LocalLink to="/swipe-game" className={buttonClass({ variant: 'outline-primary' })}>
                {t('members.swipeGame')}
              </LocalLink>
            </div>
          }
        />
      )}
      <div className="row g-2 g-md-3" data-testid="likes-list">
        {cards.map((card, i) => (
          <div className="col-6 col-md-4 col-lg-3" key={card.id}>
            <LikesCard card={card} to={type === 'received' ? `/likes/m/${card.id}` : `/members/${card.id}`} isFirstScreen={i < 8} />
          </div>
        ))}
      </div>
    </main>
  );
}

function LikesCard({ card, to, isFirstScreen }: { card: LikeCard | LikedByCard; to: string; isFirstScreen: boolean }) {
  const { t } = useTranslation();
  const locale = useLocale();
  const isNew = 'like_new' in card && card.like_new;
  return (
    <LocalLink
      to={to}
      className={`photo-card photo-card-portrait${isNew ? ' is-new' : ''}`}
      data-testid="likes-card"
      data-profile-id={card.id}
    >
      {card.thumb_url ? (
        <img src={card.thumb_url} alt="" className="photo-card-photo" loading={isFirstScreen ? 'eager' : 'lazy'} />
      ) : (
        <PhotoPlaceholder className="photo-card-photo" />
      )}
      {(isNew || card.is_match) && (
        <div className="photo-card-badges">
          {isNew && (
            <span className="badge text-bg-primary" data-testid="like-new-badge">
              {t('likes.new')}
            </span>
          )}
          {card.is_match && (
            <span className="badge text-bg-light d-inline-flex align-items-center gap-1" data-testid="match-badge">
              <span className="text-primary">
                <HeartIcon size={12} />
              </span>
              {t('likes.match')}
            </span>
          )}
        </div>
      )}
      <div className="photo-card-info">
        <h2 className="photo-card-name d-flex align-items-center gap-1">
          <span className="text-truncate">
            {card.name}, {card.age}
          </span>
          {card.is_fictional && <FictionalIcon size={16} />}
        </h2>
        <p className="photo-card-place">{[card.city, countryName(card.country, locale)].filter(Boolean).join(', ')}</p>
      </div>
    </LocalLink>
  );
}

export { LikesPage as Component };

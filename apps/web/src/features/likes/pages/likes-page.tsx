import '../components/likes.css';
import { LIKES_TYPES, type LikeCard, type LikedByCard, type LikesType } from '@amora/contracts/core';
import { useTranslation } from 'react-i18next';
import { useParams } from 'react-router';
import { HeartIcon } from '@/components/ui/heart-icon';
import { PhotoPlaceholder } from '@/components/ui/photo-placeholder';
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

  return (
    <main id="main" className="container py-4">
      <h1 className="h3 mb-3">{t('likes.title')}</h1>
      <nav aria-label={t('likes.tabsLabel')}>
        <ul className="nav nav-tabs mb-3">
          {LIKES_TYPES.map((tab) => (
            <li className="nav-item" key={tab}>
              <LocalLink
                to={TAB_PATH[tab]}
                className={`nav-link${tab === type ? ' active' : ''}`}
                aria-current={tab === type ? 'page' : undefined}
                data-testid={`likes-tab-${tab}`}
              >
                {t(`likes.tabs.${tab}`)}
                {tab === 'received' && (likes.data?.new_likes ?? 0) > 0 && (
                  <span className="badge rounded-pill text-bg-primary ms-1">{likes.data?.new_likes}</span>
                )}
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
      {user && likes.isPending && <div className="py-5" aria-busy="true" />}
      {likes.data && cards.length === 0 && <p data-testid="likes-empty">{t(`likes.empty.${type}`)}</p>}
      <div className="row g-3" data-testid="likes-list">
        {cards.map((card) => (
          <div className="col-6 col-md-4 col-lg-3" key={card.id}>
            <LikesCard card={card} to={type === 'received' ? `/likes/m/${card.id}` : `/members/${card.id}`} />
          </div>
        ))}
      </div>
    </main>
  );
}

function LikesCard({ card, to }: { card: LikeCard | LikedByCard; to: string }) {
  const { t } = useTranslation();
  const locale = useLocale();
  const isNew = 'like_new' in card && card.like_new;
  return (
    <LocalLink to={to} className="card h-100 shadow-sm border-0 text-decoration-none text-body position-relative" data-testid="likes-card">
      {card.thumb_url ? (
        <img src={card.thumb_url} alt="" className="card-img-top" style={{ aspectRatio: '4 / 5', objectFit: 'cover' }} loading="lazy" />
      ) : (
        <PhotoPlaceholder className="card-img-top" style={{ aspectRatio: '4 / 5' }} />
      )}
      <div className="position-absolute top-0 start-0 p-2 d-flex gap-1">
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
      <div className="card-body">
        <h2 className="h6 mb-1 d-flex align-items-center gap-1">
          {card.name}, {card.age}
          {card.is_fictional && <FictionalIcon size={16} />}
        </h2>
        <p className="mb-0 small text-body-secondary">{[card.city, countryName(card.country, locale)].filter(Boolean).join(', ')}</p>
      </div>
    </LocalLink>
  );
}

export { LikesPage as Component };

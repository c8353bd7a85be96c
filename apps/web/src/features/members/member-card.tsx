import { SEARCH_CARD_HEIGHT, type SearchCard } from '@amora/contracts/core';
import { useTranslation } from 'react-i18next';
import { PhotoPlaceholder } from '@/components/ui/photo-placeholder';
import { countryName } from '@/shared/site/country-name';
import { FictionalIcon } from '@/shared/site/fictional-icon';
import { LocalLink } from '@/shared/site/local-link';
import { useLocale } from '@/shared/site/use-locale';

/**
 * A search card, 330 px high (spec §9): main photo (or a drawn placeholder), name, age, city and badges.
 * `priority`: a card of the first screen, whose photo loads at once (the first one before anything else: it is
 * the page's largest paint); the others wait until they come near the screen.
 */
export function MemberCard({ card, priority = 'lazy' }: { card: SearchCard; priority?: 'high' | 'eager' | 'lazy' }) {
  const { t } = useTranslation();
  const locale = useLocale();
  return (
    <LocalLink
      to={`/members/${card.id}`}
      // 330 px whatever the photo (Bootstrap's h-100 would win over it, !important, and let the photo set it).
      className="card shadow-sm border-0 text-decoration-none text-body overflow-hidden"
      style={{ height: SEARCH_CARD_HEIGHT }}
      data-testid="member-card"
    >
      <div className="position-relative flex-grow-1 bg-light" style={{ minHeight: 0 }}>
        {card.thumb_url ? (
          <img
            src={card.thumb_url}
            alt=""
            className="w-100 h-100"
            style={{ objectFit: 'cover' }}
            loading={priority === 'lazy' ? 'lazy' : 'eager'}
            fetchPriority={priority === 'high' ? 'high' : undefined}
          />
        ) : (
          <PhotoPlaceholder className="d-block w-100 h-100" />
        )}
        <div className="position-absolute top-0 start-0 m-2 d-flex gap-1">
          {card.is_premium && <span className="badge text-bg-secondary">{t('member.premium')}</span>}
          {card.is_fictional && <FictionalIcon size={20} />}
        </div>
      </div>
      <div className="card-body py-2">
        <h2 className="h6 mb-0 text-truncate">
          {card.name}, {card.age}
        </h2>
        <p className="mb-0 small text-body-secondary text-truncate">
          {[card.city, countryName(card.country, locale)].filter(Boolean).join(', ')}
        </p>
      </div>
    </LocalLink>
  );
}

import { SEARCH_CARD_HEIGHT, type SearchCard } from '@amora/contracts/core';
import { useTranslation } from 'react-i18next';
import { PhotoPlaceholder } from '@/components/ui/photo-placeholder';
import { countryName } from '@/shared/site/country-name';
import { FictionalIcon } from '@/shared/site/fictional-icon';
import { LocalLink } from '@/shared/site/local-link';
import { useLocale } from '@/shared/site/use-locale';

/**
 * A search card, 330 px high (spec §9): the main photo (or a drawn placeholder) fills it, as the swipe game's
 * cards do, with name, age and place on a dark fade at the bottom, and the badges at the top.
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
      className="photo-card"
      style={{ height: SEARCH_CARD_HEIGHT }}
      data-testid="member-card"
      data-profile-id={card.id}
    >
      {card.thumb_url ? (
        <img
          src={card.thumb_url}
          alt=""
          className="photo-card-photo"
          loading={priority === 'lazy' ? 'lazy' : 'eager'}
          fetchPriority={priority === 'high' ? 'high' : undefined}
        />
      ) : (
        <PhotoPlaceholder className="photo-card-photo d-block w-100 h-100" />
      )}
      {(card.is_premium || card.is_fictional) && (
        <div className="photo-card-badges">
          {card.is_premium && <span className="badge text-bg-secondary">{t('member.premium')}</span>}
          {card.is_fictional && <FictionalIcon size={20} />}
        </div>
      )}
      <div className="photo-card-info">
        <h2 className="photo-card-name">
          {card.name}, {card.age}
        </h2>
        <p className="photo-card-place">{[card.city, countryName(card.country, locale)].filter(Boolean).join(', ')}</p>
      </div>
    </LocalLink>
  );
}

/** A search card's place while the results load: the photo's block and the two lines of text, 330 px high. */
export function MemberCardSkeleton() {
  return (
    <div className="photo-card photo-card-skeleton" style={{ height: SEARCH_CARD_HEIGHT }} aria-hidden="true">
      <span className="skeleton photo-card-photo" />
      <div className="photo-card-info">
        <span className="skeleton skeleton-text" style={{ width: '70%' }} />
        <span className="skeleton skeleton-text" style={{ width: '45%' }} />
      </div>
    </div>
  );
}

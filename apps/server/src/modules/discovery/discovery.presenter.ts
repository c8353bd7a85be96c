import { CARD_ABOUT_LENGTH, type DiscoveryCard, photoUrl } from '@amora/contracts';
import { presentPerson } from '../profile-cards/profile-cards.presenter';
import type { Site } from '../sites/sites.service';
import type { SuggestionRow } from './discovery.repository';

/** The about text cut at a word boundary to fit a card. */
function shortAbout(text: string, max = CARD_ABOUT_LENGTH): string {
  const flat = text.replace(/\s+/g, ' ').trim();
  if (flat.length <= max) return flat;
  const cut = flat.slice(0, max - 1);
  const space = cut.lastIndexOf(' ');
  return `${(space > max / 2 ? cut.slice(0, space) : cut).replace(/[\s,.;:!?-]+$/, '')}…`;
}

/** A suggestion as a card; about and interests only where the site shows them on profiles. */
export function presentCard(row: SuggestionRow, site: Site, now: Date): DiscoveryCard {
  return {
    ...presentPerson(row, now),
    photo: row.mainPhotoId ? { match: photoUrl(row.mainPhotoId, 'match'), large: photoUrl(row.mainPhotoId, 'large') } : null,
    is_fictional: row.isFictional,
    is_premium: row.paidUser === true,
    about: site.visibleProfileNotes.includes('about') ? shortAbout(row.about) : '',
    interests: site.visibleProfileFields.includes('interests') ? row.interests : [],
  };
}

import type { AutoLikeProfile, LikeCard, LikedByCard } from '@amora/contracts';
import { photoUrl } from '@amora/contracts';
import { presentProfileCard } from '../profile-cards/profile-cards.presenter';
import type { LikeListRow } from './likes.repository';

/** Row → a profile card of likes.php. */
export function presentLikeCard(row: LikeListRow, now: Date): LikeCard {
  return { ...presentProfileCard(row, row.paidUser === true, now), is_match: Boolean(row.isMatch) };
}

export function presentLikedByCard(row: LikeListRow, now: Date): LikedByCard {
  return { ...presentLikeCard(row, now), like_new: row.isNew };
}

export function presentAutoLike(row: { id: number; name: string; mainPhotoId: number | null; isFictional: boolean }): AutoLikeProfile {
  return {
    id: row.id,
    name: row.name,
    is_fictional: row.isFictional,
    main_image: row.mainPhotoId ? { match: photoUrl(row.mainPhotoId, 'match') } : null,
  };
}

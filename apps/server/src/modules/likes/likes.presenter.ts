import { type AutoLikeProfile, ageOn, type LikeCard, type LikedByCard } from '@amora/contracts';
import { photoUrl } from '../photos/photos.routes';
import type { LikeListRow } from './likes.repository';

/** Row → a profile card of likes.php. */
export function presentLikeCard(row: LikeListRow, now: Date): LikeCard {
  return {
    id: row.id,
    name: row.name,
    age: ageOn(row.birthDate, now),
    city: row.city,
    country: row.country,
    thumb_url: row.mainPhotoId ? photoUrl(row.mainPhotoId, 'thumb') : null,
    is_fictional: row.isFictional,
    is_premium: row.paidUser === true,
    is_match: Boolean(row.isMatch),
  };
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

import { ageOn, type ProfileCard } from '@amora/contracts';
import { photoUrl } from '../photos/photos.routes';

/** The columns of `profileCardColumns` (packages/db). */
export interface ProfileCardRow {
  id: number;
  name: string;
  birthDate: string;
  city: string | null;
  country: string;
  mainPhotoId: number | null;
  isFictional: boolean;
}

/** Row → the profile card of search, likes and related profiles. */
export function presentProfileCard(row: ProfileCardRow, isPremium: boolean, now: Date): ProfileCard {
  return {
    id: row.id,
    name: row.name,
    age: ageOn(row.birthDate, now),
    city: row.city,
    country: row.country,
    thumb_url: row.mainPhotoId ? photoUrl(row.mainPhotoId, 'thumb') : null,
    is_fictional: row.isFictional,
    is_premium: isPremium,
  };
}

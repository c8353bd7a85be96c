import { ageOn, type ProfileCard, photoUrl } from '@amora/contracts';

/**
 * The profile card every list of profiles shows (search, likes, discovery, related profiles on a member page).
 * It is a module of its own, below all of them: it has no data, and the modules that show cards (profiles shows
 * discovery's suggestions, discovery likes through the likes module) can share it without depending on each other
 * in a circle.
 */

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

/** Who a card shows, as every card of the API has it: id, name, age, city and country. */
export function presentPerson(row: Pick<ProfileCardRow, 'id' | 'name' | 'birthDate' | 'city' | 'country'>, now: Date) {
  return { id: row.id, name: row.name, age: ageOn(row.birthDate, now), city: row.city, country: row.country };
}

/** Row → the profile card of search, likes and related profiles. */
export function presentProfileCard(row: ProfileCardRow, isPremium: boolean, now: Date): ProfileCard {
  return {
    ...presentPerson(row, now),
    thumb_url: row.mainPhotoId ? photoUrl(row.mainPhotoId, 'thumb') : null,
    is_fictional: row.isFictional,
    is_premium: isPremium,
  };
}

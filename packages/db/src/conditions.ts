import { isNull, ne, or, type SQL, sql } from 'drizzle-orm';
import { blocks, profiles, users } from './schema';

/** The listed profile and `viewerProfileId` have not blocked each other, in either direction (spec §4). */
export function notBlockedEitherWay(viewerProfileId: number): SQL {
  return sql`not exists (select 1 from ${blocks} b where (b.blocker_profile_id = ${profiles.id} and b.blocked_profile_id = ${viewerProfileId}) or (b.blocker_profile_id = ${viewerProfileId} and b.blocked_profile_id = ${profiles.id}))`;
}

/** The profile has no account (a site's own profile) or its account is not deleted; needs `users` joined. */
export function ownerNotDeleted(): SQL {
  return or(isNull(profiles.userId), ne(users.status, 'deleted')) as SQL;
}

/** What every profile card shows (search, likes, related profiles, suggestions); queries add their own columns. */
export const profileCardColumns = {
  id: profiles.id,
  name: profiles.name,
  birthDate: profiles.birthDate,
  city: profiles.city,
  country: profiles.country,
  mainPhotoId: profiles.mainPhotoId,
  isFictional: profiles.isFictional,
};

import { type AnyColumn, isNull, ne, or, type Placeholder, type SQL, sql } from 'drizzle-orm';
import { blocks, conversations, likes, messages, profiles, users } from './schema';

/**
 * The ids of the profiles in a block with `viewerProfileId`, either way (spec §4), as a subquery. It does not
 * depend on the listed row, so PostgreSQL runs it once per query and probes a hash of it for each row, instead of
 * two index lookups per row. The viewer may be a placeholder of a prepared statement.
 */
export function blockedEitherWay(viewerProfileId: number | Placeholder): SQL {
  return sql`(select b.blocked_profile_id from ${blocks} b where b.blocker_profile_id = ${viewerProfileId} union all select b.blocker_profile_id from ${blocks} b where b.blocked_profile_id = ${viewerProfileId})`;
}

/** The listed profile (`id`, by default profiles.id) and `viewerProfileId` have not blocked each other, in either direction. */
export function notBlockedEitherWay(viewerProfileId: number | Placeholder, id: AnyColumn = profiles.id): SQL {
  return sql`${id} not in ${blockedEitherWay(viewerProfileId)}`;
}

/**
 * The listed profile has contacted `viewerProfileId`: a like from it to the viewer, or a chat message it wrote to
 * the viewer (looked up through the pair's conversation, one index probe). Every rule built on it follows.
 */
export function hasContacted(viewerProfileId: number): SQL {
  return sql`(exists (select 1 from ${likes} c where c.liker_profile_id = ${profiles.id} and c.liked_profile_id = ${viewerProfileId})
    or exists (select 1 from ${conversations} cv join ${messages} m on m.conversation_id = cv.id
      where cv.profile_low_id = least(${profiles.id}, ${viewerProfileId}::bigint) and cv.profile_high_id = greatest(${profiles.id}, ${viewerProfileId}::bigint)
        and m.sender_profile_id = ${profiles.id}))`;
}

/**
 * Invisible mode (spec §4: hidden from search and from seeing or liking others; they must message first): an
 * invisible profile is seen only by its owner and by the members it contacted; by nobody when the viewer is a
 * visitor (null). Every path that shows a profile or its photos by id applies this one rule.
 */
export function notHiddenFrom(viewerProfileId: number | null): SQL {
  if (viewerProfileId === null) return sql`${profiles.isInvisible} = false`;
  return sql`(${profiles.isInvisible} = false or ${profiles.id} = ${viewerProfileId} or ${hasContacted(viewerProfileId)})`;
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

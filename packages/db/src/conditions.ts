import { IMPLIED_LOOKING_FOR } from '@amora/contracts';
import { type AnyColumn, and, inArray, isNull, ne, or, type Placeholder, type SQL, sql } from 'drizzle-orm';
import { blocks, conversations, likes, messages, profiles, users } from './schema';

/**
 * The ids of the profiles in a block with `viewerProfileId`, either way (spec §4), as a subquery. It does not
 * depend on the listed row, so PostgreSQL runs it once per query and probes a hash of it for each row, instead of
 * two index lookups per row. The viewer may be a placeholder of a prepared statement.
 */
function blockedEitherWay(viewerProfileId: number | Placeholder): SQL {
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
function hasContacted(viewerProfileId: number | SQL): SQL {
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
export function notHiddenFrom(viewerProfileId: number | SQL | null): SQL {
  if (viewerProfileId === null) return sql`${profiles.isInvisible} = false`;
  return sql`(${profiles.isInvisible} = false or ${profiles.id} = ${viewerProfileId} or ${hasContacted(viewerProfileId)})`;
}

/** A constant of the code (a gender, a sexuality) as an SQL literal: the plan of a prepared statement sees it. */
const literal = (value: string): SQL => sql.raw(`'${value.replaceAll("'", "''")}'`);

/**
 * The listed profile is looking for someone of `gender`: its looking_for answer holds it, or, without an answer,
 * its own gender and sexuality do not point elsewhere (IMPLIED_LOOKING_FOR; every other pair looks for everyone).
 * `gender` may be a placeholder of a prepared statement.
 */
function isLookingFor(gender: string | Placeholder): SQL {
  const implied = IMPLIED_LOOKING_FOR.map(
    (rule) =>
      sql`when ${profiles.gender} = ${literal(rule.gender)} and ${profiles.sexuality} in (${sql.join(rule.sexualities.map(literal), sql`, `)}) then ${gender}::text = ${literal(rule.lookingFor)}`,
  );
  return sql`(case when ${profiles.lookingFor} is not null then ${profiles.lookingFor} @> jsonb_build_array(${gender}::text) ${sql.join(implied, sql` `)} else true end)`;
}

/**
 * Mutual interest: the listed profile's gender is one the viewer is looking for (`seeks`, empty = everyone; a
 * profile without a gender only for a viewer looking for everyone) and the listed profile is looking for the
 * viewer's gender (unknown: that side cannot be told and does not filter). Search, suggestions (match-finder,
 * swipe game, signup matches, related profiles) and the auto-like all apply this; isMutualMatch in contracts says
 * the same for two profiles in hand. Undefined when nothing filters.
 */
export function mutualInterest(viewer: { gender: string | Placeholder | null; seeks: readonly string[] }): SQL | undefined {
  return and(
    viewer.seeks.length > 0 ? inArray(profiles.gender, [...viewer.seeks]) : undefined,
    viewer.gender !== null ? isLookingFor(viewer.gender) : undefined,
  );
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

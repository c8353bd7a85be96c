import { type SQL, sql } from 'drizzle-orm';
import { blocks, profiles } from './schema';

/** The listed profile and `viewerProfileId` have not blocked each other, in either direction (spec §4). */
export function notBlockedEitherWay(viewerProfileId: number): SQL {
  return sql`not exists (select 1 from ${blocks} b where (b.blocker_profile_id = ${profiles.id} and b.blocked_profile_id = ${viewerProfileId}) or (b.blocker_profile_id = ${viewerProfileId} and b.blocked_profile_id = ${profiles.id}))`;
}

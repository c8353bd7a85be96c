import {
  type Executor,
  likes,
  mutualInterest,
  notBlockedEitherWay,
  ownerNotDeleted,
  profileCardColumns,
  profiles,
  skips,
  swipeDays,
  users,
} from '@amora/db';
import { and, eq, lt, ne, or, type SQL, sql } from 'drizzle-orm';

/** What the suggestion query needs to know about the member it suggests for. */
export interface SuggestionQuery {
  viewerId: number;
  siteId: number;
  country: string;
  /** The viewer's region: profiles there come first within the country. */
  region: string | null;
  birthDate: string;
  /** The viewer's gender: only profiles looking for it are suggested (unknown: no one is left out for it). */
  viewerGender: string | null;
  /** Only these genders (the viewer's preference); empty = everyone. */
  genders: readonly string[];
  excludeSeen: boolean;
  /** Ages within this many years of the viewer's come first; the rest only fill up. */
  ageWindowYears: number;
  /** Profiles created after this moment are newcomers. */
  newcomerSince: Date;
  /** Varies the order among equal fits; the same seed gives the same order (one viewer, one day). */
  shuffleSeed: string;
  limit: number;
}

const DAYS_PER_YEAR = 365.25;
/** Ages closer than this (in years) count as equally close. */
const AGE_STEP_YEARS = 5;

/**
 * Profiles to suggest to a member (match-finder, swipe game, signup matches, related profiles): active, visible
 * profiles of the viewer's site, of accounts that are not deleted, never the viewer, nobody in a block with the
 * viewer either way, nobody the viewer already liked, optionally nobody the viewer skipped; only mutual interest
 * (mutualInterest: of a gender the viewer is looking for, and looking for the viewer's gender). Best fits first:
 *  1. ages within the window (outside it only to fill up, the nearest first);
 *  2. the viewer's country, then their region;
 *  3. with a main photo;
 *  4. nearer in age (5-year steps);
 *  5. newcomers (the newest first), so new members are seen;
 *  6. then a shuffle that is stable for one viewer for one day (variety, and no jumping around on reload).
 */
export async function suggestionRows(db: Executor, q: SuggestionQuery) {
  const days = sql`abs(${profiles.birthDate} - ${q.birthDate}::date)`;
  // Constants of this module, written into the SQL so they keep their numeric type.
  const outside = sql`(${days} > ${sql.raw(String(Math.round(q.ageWindowYears * DAYS_PER_YEAR)))})`;
  const ageStep = sql`floor(${days} / ${sql.raw(String(AGE_STEP_YEARS * DAYS_PER_YEAR))})`;
  const isNewcomer = sql`(${profiles.createdAt} > ${q.newcomerSince.toISOString()}::timestamptz)`;
  const filters: (SQL | undefined)[] = [
    eq(profiles.siteId, q.siteId),
    // Literals, not bind parameters, so PostgreSQL can use the partial search indexes (status, is_invisible).
    sql`${profiles.status} = 'active' and ${profiles.isInvisible} = false`,
    ne(profiles.id, q.viewerId),
    ownerNotDeleted(),
    mutualInterest({ gender: q.viewerGender, seeks: q.genders }),
    notBlockedEitherWay(q.viewerId),
    sql`not exists (select 1 from ${likes} l where l.liker_profile_id = ${q.viewerId} and l.liked_profile_id = ${profiles.id})`,
    q.excludeSeen
      ? sql`not exists (select 1 from ${skips} s where s.profile_id = ${q.viewerId} and s.skipped_profile_id = ${profiles.id})`
      : undefined,
  ];
  return db
    .select({ ...profileCardColumns, about: profiles.about, interests: profiles.interests, paidUser: users.paidUser })
    .from(profiles)
    .leftJoin(users, eq(users.id, profiles.userId))
    .where(and(...filters))
    .orderBy(
      ...[
        sql`${outside} asc`,
        sql`(case when ${outside} then ${ageStep} else 0 end) asc`,
        sql`(${profiles.country} = ${q.country}) desc`,
        q.region ? sql`coalesce(${profiles.region} = ${q.region}, false) desc` : undefined,
        sql`(${profiles.mainPhotoId} is not null) desc`,
        sql`${ageStep} asc`,
        sql`${isNewcomer} desc`,
        sql`(case when ${isNewcomer} then ${profiles.id} else 0 end) desc`,
        sql`md5(${profiles.id}::text || ${q.shuffleSeed})`,
      ].filter((part): part is SQL => part !== undefined),
    )
    .limit(q.limit);
}

export type SuggestionRow = Awaited<ReturnType<typeof suggestionRows>>[number];

export async function insertSkip(db: Executor, profileId: number, skippedProfileId: number, at: Date): Promise<void> {
  await db.insert(skips).values({ profileId, skippedProfileId, createdAt: at }).onConflictDoNothing();
}

/** Swipe-game likes granted to a member on `day` (YYYY-MM-DD, UTC), whether or not they still stand. */
export async function swipeLikesGranted(db: Executor, profileId: number, day: string): Promise<number> {
  const [row] = await db
    .select({ value: swipeDays.likesGranted })
    .from(swipeDays)
    .where(and(eq(swipeDays.profileId, profileId), eq(swipeDays.day, day)));
  return row?.value ?? 0;
}

/**
 * Grants one swipe like on `day` unless `limit` are granted already: one statement, so parallel requests queue on
 * the row and each sees the count the one before left. The new count, or null when the limit was reached. The
 * first grant of a day removes the member's earlier days (one row per member is all the game needs).
 */
export async function grantSwipeLike(tx: Executor, profileId: number, day: string, limit: number): Promise<number | null> {
  const [row] = await tx
    .insert(swipeDays)
    .values({ profileId, day, likesGranted: 1 })
    .onConflictDoUpdate({
      target: [swipeDays.profileId, swipeDays.day],
      set: { likesGranted: sql`${swipeDays.likesGranted} + 1` },
      setWhere: lt(swipeDays.likesGranted, limit),
    })
    .returning({ value: swipeDays.likesGranted });
  if (!row) return null;
  if (row.value === 1) await tx.delete(swipeDays).where(and(eq(swipeDays.profileId, profileId), lt(swipeDays.day, day)));
  return row.value;
}

/** The account purge: the profiles it skipped and was skipped by, and its swipe-game days. */
export async function deleteDiscoveryOf(db: Executor, profileId: number): Promise<void> {
  await db.delete(skips).where(or(eq(skips.profileId, profileId), eq(skips.skippedProfileId, profileId)));
  await db.delete(swipeDays).where(eq(swipeDays.profileId, profileId));
}

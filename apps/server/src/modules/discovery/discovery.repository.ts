import { type Database, likes, notBlockedEitherWay, ownerNotDeleted, profileCardColumns, profiles, skips, users } from '@amora/db';
import { and, count, eq, gte, inArray, lt, ne, not, or, type SQL, sql } from 'drizzle-orm';

export type Tx = Parameters<Parameters<Database['transaction']>[0]>[0];

/** What the suggestion query needs to know about the member it suggests for. */
export interface SuggestionQuery {
  viewerId: number;
  siteId: number;
  country: string;
  birthDate: string;
  /** Only these genders (the viewer's preference); empty = everyone. */
  genders: readonly string[];
  /** Profiles with these (gender, sexuality) pairs are not looking for someone like the viewer: ranked lower. */
  notInterested: readonly (readonly [string, string])[];
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
 * viewer either way, nobody the viewer already liked, optionally nobody the viewer skipped; only the genders the
 * viewer is looking for. Best fits first:
 *  1. ages within the window (outside it only to fill up, the nearest first);
 *  2. the viewer's country;
 *  3. looking for someone of the viewer's gender (or not saying);
 *  4. with a main photo;
 *  5. nearer in age (5-year steps);
 *  6. newcomers (the newest first), so new members are seen;
 *  7. then a shuffle that is stable for one viewer for one day (variety, and no jumping around on reload).
 */
export async function suggestionRows(db: Database, q: SuggestionQuery) {
  const days = sql`abs(${profiles.birthDate} - ${q.birthDate}::date)`;
  // Constants of this module, written into the SQL so they keep their numeric type.
  const outside = sql`(${days} > ${sql.raw(String(Math.round(q.ageWindowYears * DAYS_PER_YEAR)))})`;
  const ageStep = sql`floor(${days} / ${sql.raw(String(AGE_STEP_YEARS * DAYS_PER_YEAR))})`;
  const notInterested = q.notInterested.length
    ? or(...q.notInterested.map(([gender, sexuality]) => and(eq(profiles.gender, gender), eq(profiles.sexuality, sexuality))))
    : undefined;
  const isNewcomer = sql`(${profiles.createdAt} > ${q.newcomerSince.toISOString()}::timestamptz)`;
  const filters: (SQL | undefined)[] = [
    eq(profiles.siteId, q.siteId),
    // Literals, not bind parameters, so PostgreSQL can use the partial search indexes (status, is_invisible).
    sql`${profiles.status} = 'active' and ${profiles.isInvisible} = false`,
    ne(profiles.id, q.viewerId),
    ownerNotDeleted(),
    q.genders.length ? inArray(profiles.gender, [...q.genders]) : undefined,
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
        notInterested ? sql`coalesce(${not(notInterested)}, true) desc` : undefined,
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

export async function insertSkip(db: Database, profileId: number, skippedProfileId: number, at: Date): Promise<void> {
  await db.insert(skips).values({ profileId, skippedProfileId, createdAt: at }).onConflictDoNothing();
}

/**
 * Holds the member's profile row until the transaction ends: two swipe likes of one member run one after the
 * other, so the second counts the first (PostgreSQL; PGlite runs one transaction at a time anyway).
 */
export async function lockProfile(tx: Tx, profileId: number): Promise<void> {
  await tx.select({ id: profiles.id }).from(profiles).where(eq(profiles.id, profileId)).for('update');
}

/**
 * Dates a like the swipe game just wrote on the app's clock (ctx.now), which its day count reads, rather than the
 * database's own clock the row got by default.
 */
export async function dateLike(tx: Tx, likerProfileId: number, likedProfileId: number, at: Date): Promise<void> {
  await tx
    .update(likes)
    .set({ createdAt: at })
    .where(and(eq(likes.likerProfileId, likerProfileId), eq(likes.likedProfileId, likedProfileId)));
}

/** Swipe-game likes a member gave in [from, to). */
export async function countSwipeLikes(db: Database | Tx, profileId: number, from: Date, to: Date): Promise<number> {
  const [row] = await db
    .select({ value: count() })
    .from(likes)
    .where(and(eq(likes.likerProfileId, profileId), eq(likes.source, 'swipe'), gte(likes.createdAt, from), lt(likes.createdAt, to)));
  return row?.value ?? 0;
}

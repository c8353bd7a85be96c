import { type Executor, notBlockedEitherWay, profileCardColumns, profiles, users } from '@amora/db';
import { and, eq, gt, lte, ne, notInArray, type SQL, sql } from 'drizzle-orm';

export interface SearchFilters {
  siteId: number;
  viewerProfileId: number | null;
  gender?: string;
  country?: string;
  region?: string;
  /** Birth dates of the age range: born on or before `bornBefore`, after `bornAfter`. */
  bornOnOrBefore?: string;
  bornAfter?: string;
  excludeIds?: number[];
}

/**
 * What a search asks for, whoever asks: only columns of `profiles` (status covers deleted and unconfirmed
 * accounts), so the partial search indexes (site, gender, country, has_photo desc, id desc) serve it. matchesFilters says the
 * same of one profile row: keep the two in step.
 */
function filterConditions(f: SearchFilters): SQL[] {
  return [
    eq(profiles.siteId, f.siteId),
    // Literal constants, not parameters: only then can the planner match the partial search indexes.
    sql`${profiles.status} = 'active'`,
    sql`${profiles.isInvisible} = false`,
    f.gender ? eq(profiles.gender, f.gender) : undefined,
    f.country ? eq(profiles.country, f.country) : undefined,
    f.region ? eq(profiles.region, f.region) : undefined,
    f.bornOnOrBefore ? lte(profiles.birthDate, f.bornOnOrBefore) : undefined,
    f.bornAfter ? gt(profiles.birthDate, f.bornAfter) : undefined,
  ].filter((c): c is SQL => c !== undefined);
}

/** Whether a profile row meets the filters (filterConditions, for one row in hand). */
export function matchesFilters(
  p: Pick<typeof profiles.$inferSelect, 'siteId' | 'status' | 'isInvisible' | 'gender' | 'country' | 'region' | 'birthDate'>,
  f: SearchFilters,
): boolean {
  return (
    p.siteId === f.siteId &&
    p.status === 'active' &&
    !p.isInvisible &&
    (!f.gender || p.gender === f.gender) &&
    (!f.country || p.country === f.country) &&
    (!f.region || p.region === f.region) &&
    (!f.bornOnOrBefore || p.birthDate <= f.bornOnOrBefore) &&
    (!f.bornAfter || p.birthDate > f.bornAfter)
  );
}

/** The WHERE of a page: the filters, then never the viewer or anyone in a block with them (either way). */
function conditions(f: SearchFilters): SQL | undefined {
  const viewer = f.viewerProfileId;
  return and(
    ...filterConditions(f),
    viewer ? ne(profiles.id, viewer) : undefined,
    f.excludeIds && f.excludeIds.length > 0 ? notInArray(profiles.id, f.excludeIds) : undefined,
    viewer ? notBlockedEitherWay(viewer) : undefined,
  );
}

/** Where a page starts: after this profile, in the order of searchPage (photo first, then id descending). */
export interface SearchCursor {
  hasPhoto: boolean;
  id: number;
}

/**
 * One page, members with a photo first, each group newest first, after the keyset cursor (the last profile of
 * the previous page, with whether it had a photo then), with each card's premium badge: one query, the badge a
 * primary-key lookup for the rows returned only. The order is that of the search indexes (has_photo desc, id
 * desc), so the row comparison of the cursor is an index condition.
 */
export async function searchPage(db: Executor, f: SearchFilters, cursor: SearchCursor | null, limit: number) {
  return (
    db
      .select({
        ...profileCardColumns,
        hasPhoto: profiles.hasPhoto,
        // Written out: in the select list of a one-table query Drizzle leaves the table name off a column.
        isPremium: sql<boolean>`coalesce((select u.paid_user from ${users} u where u.id = profiles.user_id), false)`,
      })
      .from(profiles)
      .where(
        and(
          conditions(f),
          cursor !== null ? sql`(${profiles.hasPhoto}, ${profiles.id}) < (${cursor.hasPhoto}::boolean, ${cursor.id}::bigint)` : undefined,
        ),
      )
      // NULLS LAST as the indexes say (no value here is null): ORDER BY … DESC alone means NULLS FIRST, which no
      // search index matches, and PostgreSQL would then sort every matching row instead of reading 25 off an index.
      .orderBy(sql`${profiles.hasPhoto} desc nulls last`, sql`${profiles.id} desc nulls last`)
      .limit(limit)
  );
}

/**
 * How many profiles the filters match, counting no further than `cap` + 1: the same figure for everyone who
 * searches with them (the viewer and their blocks are not taken out).
 */
export async function countMatches(db: Executor, f: SearchFilters, cap: number): Promise<number> {
  const inner = db
    .select({ one: sql`1` })
    .from(profiles)
    .where(and(...filterConditions(f)))
    .limit(cap + 1)
    .as('m');
  const [row] = await db.select({ n: sql<number>`count(*)` }).from(inner);
  return Number(row?.n ?? 0);
}

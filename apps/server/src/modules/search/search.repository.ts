import { type Database, notBlockedEitherWay, profileCardColumns, profiles, users } from '@amora/db';
import { and, desc, eq, gt, inArray, lt, lte, ne, notInArray, type SQL, sql } from 'drizzle-orm';

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
 * The WHERE of member search. Only columns of `profiles` (status covers deleted and unconfirmed accounts), so
 * the partial index profiles_search_idx (site, gender, country, id desc) serves it; blocks are an anti-join on
 * the blocks primary key and its reverse index.
 */
function conditions(f: SearchFilters): SQL | undefined {
  const viewer = f.viewerProfileId;
  return and(
    eq(profiles.siteId, f.siteId),
    // Literal constants, not parameters: only then can the planner match the partial search indexes.
    sql`${profiles.status} = 'active'`,
    sql`${profiles.isInvisible} = false`,
    f.gender ? eq(profiles.gender, f.gender) : undefined,
    f.country ? eq(profiles.country, f.country) : undefined,
    f.region ? eq(profiles.region, f.region) : undefined,
    f.bornOnOrBefore ? lte(profiles.birthDate, f.bornOnOrBefore) : undefined,
    f.bornAfter ? gt(profiles.birthDate, f.bornAfter) : undefined,
    viewer ? ne(profiles.id, viewer) : undefined,
    f.excludeIds && f.excludeIds.length > 0 ? notInArray(profiles.id, f.excludeIds) : undefined,
    viewer ? notBlockedEitherWay(viewer) : undefined,
  );
}

/** One page, newest first, after the keyset cursor (the last id of the previous page). */
export async function searchPage(db: Database, f: SearchFilters, cursor: number | null, limit: number) {
  const rows = await db
    .select({ ...profileCardColumns, userId: profiles.userId })
    .from(profiles)
    .where(and(conditions(f), cursor !== null ? lt(profiles.id, cursor) : undefined))
    .orderBy(desc(profiles.id))
    .limit(limit);
  // Premium badges for the page only: a primary-key lookup of at most `limit` accounts.
  const userIds = rows.map((r) => r.userId).filter((id): id is number => id !== null);
  const paid = userIds.length
    ? new Set(
        (
          await db
            .select({ id: users.id })
            .from(users)
            .where(and(inArray(users.id, userIds), eq(users.paidUser, true)))
        ).map((u) => u.id),
      )
    : new Set<number>();
  return rows.map((r) => ({ ...r, isPremium: r.userId !== null && paid.has(r.userId) }));
}

/** How many match, counting no further than `cap` + 1. */
export async function countMatches(db: Database, f: SearchFilters, cap: number): Promise<number> {
  const inner = db
    .select({ one: sql`1` })
    .from(profiles)
    .where(conditions(f))
    .limit(cap + 1)
    .as('m');
  const [row] = await db.select({ n: sql<number>`count(*)` }).from(inner);
  return Number(row?.n ?? 0);
}

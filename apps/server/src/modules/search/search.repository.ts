import { isMutualMatch } from '@amora/contracts';
import { type Executor, mutualInterest, notBlockedEitherWay, plannedDatabase, profileCardColumns, profiles, users } from '@amora/db';
import { and, eq, gt, lte, ne, type Placeholder, type SQL, sql } from 'drizzle-orm';

export interface SearchFilters {
  siteId: number;
  viewerProfileId: number | null;
  gender?: string;
  /** One of these genders (a viewer looking for several, with no gender chosen); `gender` takes one. */
  genders?: string[];
  /** Only profiles looking for this gender (the viewer's): the other side of mutual interest. */
  seeking?: string;
  country?: string;
  /** One of these countries (a search widened to nearby countries); `country` takes one. */
  countries?: string[];
  region?: string;
  /** Birth dates of the age range: born on or before `bornBefore`, after `bornAfter`. */
  bornOnOrBefore?: string;
  bornAfter?: string;
  excludeIds?: number[];
}

/** The values of a page's statement, by placeholder name (filters, viewer, left-out ids, cursor). */
type PageValues = {
  siteId: number;
  gender?: string;
  genders?: string[];
  seeking?: string;
  country?: string;
  countries?: string[];
  region?: string;
  bornOnOrBefore?: string;
  bornAfter?: string;
  viewer?: number;
  excludeIds?: number[];
  cursorHasPhoto?: boolean;
  cursorId?: number;
};
type FilterName = 'siteId' | 'gender' | 'genders' | 'seeking' | 'country' | 'countries' | 'region' | 'bornOnOrBefore' | 'bornAfter';
/** A filter's value in the statement: the value itself, or a placeholder filled in at each execution. */
type Bind = <T>(name: FilterName, value: T) => T | Placeholder;
const inline: Bind = (_name, value) => value;
const placeholder: Bind = (name) => sql.placeholder(name);

/**
 * What a search asks for, whoever asks: only columns of `profiles` (status covers deleted and unconfirmed
 * accounts), so the partial search indexes (site, gender, country, has_photo desc, id desc) serve it. matchesFilters says the
 * same of one profile row: keep the two in step.
 */
function filterConditions(f: SearchFilters, bind: Bind = inline): SQL[] {
  // A list is one array value (Drizzle would write an inline list out as one parameter per element).
  const list = (name: FilterName, value: string[]) => {
    const bound = bind(name, value);
    return Array.isArray(bound) ? sql.param(bound) : bound;
  };
  return [
    eq(profiles.siteId, bind('siteId', f.siteId)),
    // Literal constants, not parameters: only then can the planner match the partial search indexes.
    sql`${profiles.status} = 'active'`,
    sql`${profiles.isInvisible} = false`,
    f.gender ? eq(profiles.gender, bind('gender', f.gender)) : undefined,
    f.genders ? sql`${profiles.gender} = any(${list('genders', f.genders)}::text[])` : undefined,
    f.seeking ? mutualInterest({ gender: bind('seeking', f.seeking), seeks: [] }) : undefined,
    f.country ? eq(profiles.country, bind('country', f.country)) : undefined,
    f.countries ? sql`${profiles.country} = any(${list('countries', f.countries)}::text[])` : undefined,
    f.region ? eq(profiles.region, bind('region', f.region)) : undefined,
    f.bornOnOrBefore ? lte(profiles.birthDate, bind('bornOnOrBefore', f.bornOnOrBefore)) : undefined,
    f.bornAfter ? gt(profiles.birthDate, bind('bornAfter', f.bornAfter)) : undefined,
  ].filter((c): c is SQL => c !== undefined);
}

/** Whether a profile row meets the filters (filterConditions, for one row in hand). */
export function matchesFilters(
  p: Pick<
    typeof profiles.$inferSelect,
    'siteId' | 'status' | 'isInvisible' | 'gender' | 'sexuality' | 'lookingFor' | 'country' | 'region' | 'birthDate'
  >,
  f: SearchFilters,
): boolean {
  return (
    p.siteId === f.siteId &&
    p.status === 'active' &&
    !p.isInvisible &&
    (!f.gender || p.gender === f.gender) &&
    (!f.genders || (p.gender !== null && f.genders.includes(p.gender))) &&
    (!f.seeking || isMutualMatch({ gender: f.seeking, sexuality: null, lookingFor: null }, p)) &&
    (!f.country || p.country === f.country) &&
    (!f.countries || f.countries.includes(p.country)) &&
    (!f.region || p.region === f.region) &&
    (!f.bornOnOrBefore || p.birthDate <= f.bornOnOrBefore) &&
    (!f.bornAfter || p.birthDate > f.bornAfter)
  );
}

/** Where a page starts: after this profile, in the order of searchPage (photo first, then id descending). */
export interface SearchCursor {
  hasPhoto: boolean;
  id: number;
}

/** A profile of a page as its statement sends it: one JSON array per profile, in this order (see preparePage). */
type PageTuple = [
  id: number,
  name: string,
  birthDate: string,
  city: string | null,
  country: string,
  mainPhotoId: number | null,
  isFictional: boolean,
  hasPhoto: boolean,
  isPremium: boolean,
];

/** A profile of a page: what its card shows, whether it has a photo (for the cursor) and its premium badge. */
export interface SearchPageRow {
  id: number;
  name: string;
  birthDate: string;
  city: string | null;
  country: string;
  mainPhotoId: number | null;
  isFictional: boolean;
  hasPhoto: boolean;
  isPremium: boolean;
}

/**
 * The statement of a page of one shape (which filters it has, whether a viewer, left-out ids and a cursor, its
 * limit), every value a placeholder: the filters, then never the viewer or anyone in a block with them (either
 * way), then the keyset cursor. Members with a photo first, each group newest first, with each card's premium
 * badge (a primary-key lookup for the rows returned only). The order is that of the search indexes (has_photo
 * desc, id desc), so the cursor's row comparison is an index condition.
 *
 * The page comes back as one JSON value, an array of PageTuple, built by the database: the driver then parses one
 * value with JSON.parse instead of 9 fields of 25 rows one by one, which cost the server more than the rest of
 * the search (docs/decisions.md, "Logged-in search: pages planned once, sent as one JSON value").
 */
function preparePage(db: Executor, f: SearchFilters, cursor: SearchCursor | null, limit: number, name: string) {
  const viewer = f.viewerProfileId ? sql.placeholder('viewer') : undefined;
  const p = db
    .select({
      ...profileCardColumns,
      hasPhoto: profiles.hasPhoto,
      // Written out: in the select list of a one-table query Drizzle leaves the table name off a column.
      isPremium: sql<boolean>`coalesce((select u.paid_user from ${users} u where u.id = profiles.user_id), false)`.as('is_premium'),
    })
    .from(profiles)
    .where(
      and(
        ...filterConditions(f, placeholder),
        viewer ? ne(profiles.id, viewer) : undefined,
        f.excludeIds && f.excludeIds.length > 0 ? sql`${profiles.id} <> all(${sql.placeholder('excludeIds')}::bigint[])` : undefined,
        viewer ? notBlockedEitherWay(viewer) : undefined,
        cursor !== null
          ? sql`(${profiles.hasPhoto}, ${profiles.id}) < (${sql.placeholder('cursorHasPhoto')}::boolean, ${sql.placeholder('cursorId')}::bigint)`
          : undefined,
      ),
    )
    // NULLS LAST as the indexes say (no value here is null): ORDER BY … DESC alone means NULLS FIRST, which no
    // search index matches, and PostgreSQL would then sort every matching row instead of reading 25 off an index.
    .orderBy(sql`${profiles.hasPhoto} desc nulls last`, sql`${profiles.id} desc nulls last`)
    // The limit written into the statement (Drizzle takes an SQL chunk there as it is): a generic plan then
    // knows that only the first rows are read, as a custom plan does.
    .limit(sql.raw(String(limit)) as unknown as number)
    .as('p');
  return db
    .select({
      page: sql<
        PageTuple[]
      >`coalesce(json_agg(json_build_array(${p.id}, ${p.name}, ${p.birthDate}, ${p.city}, ${p.country}, ${p.mainPhotoId}, ${p.isFictional}, ${p.hasPhoto}, ${p.isPremium}) order by ${p.hasPhoto} desc, ${p.id} desc), '[]'::json)`,
    })
    .from(p)
    .prepare(name);
}
type PreparedPage = ReturnType<typeof preparePage>;

/** The page statements made so far, per database and shape (at most 2^12 shapes times the two limits; a few dozen are used). */
const preparedPages = new WeakMap<Executor, Map<string, PreparedPage>>();

/**
 * One page of the search after the keyset cursor (the last profile of the previous page, with whether it had a
 * photo then). Each shape of page is a named prepared statement (`search_page_<shape>`): Drizzle builds its SQL
 * once per process, and PostgreSQL parses it once per connection and, after its first executions, plans it once
 * (a generic plan, which for these statements is the custom plan's index scan; docs/decisions.md, "Logged-in
 * search on PostgreSQL: prepared pages"). Planning cost more than running the page.
 */
export async function searchPage(db: Executor, f: SearchFilters, cursor: SearchCursor | null, limit: number): Promise<SearchPageRow[]> {
  const exclude = f.excludeIds && f.excludeIds.length > 0;
  const shape = `${f.gender ? 'g' : ''}${f.genders ? 'G' : ''}${f.seeking ? 's' : ''}${f.country ? 'c' : ''}${f.countries ? 'C' : ''}${f.region ? 'r' : ''}${f.bornOnOrBefore ? 'o' : ''}${f.bornAfter ? 'a' : ''}${f.viewerProfileId ? 'v' : ''}${exclude ? 'x' : ''}${cursor ? 'k' : ''}_${limit}`;
  const planned = plannedDatabase(db);
  let pages = preparedPages.get(planned);
  if (!pages) {
    pages = new Map();
    preparedPages.set(planned, pages);
  }
  let page = pages.get(shape);
  if (!page) {
    page = preparePage(planned, f, cursor, limit, `search_page_${shape}`);
    pages.set(shape, page);
  }
  const values: PageValues = {
    siteId: f.siteId,
    gender: f.gender,
    genders: f.genders,
    seeking: f.seeking,
    country: f.country,
    countries: f.countries,
    region: f.region,
    bornOnOrBefore: f.bornOnOrBefore,
    bornAfter: f.bornAfter,
    viewer: f.viewerProfileId ?? undefined,
    excludeIds: exclude ? f.excludeIds : undefined,
    cursorHasPhoto: cursor?.hasPhoto,
    cursorId: cursor?.id,
  };
  const [result] = await page.execute(values);
  return (result?.page ?? []).map(
    ([id, name, birthDate, city, country, mainPhotoId, isFictional, hasPhoto, isPremium]): SearchPageRow => ({
      id,
      name,
      birthDate,
      city,
      country,
      mainPhotoId,
      isFictional,
      hasPhoto,
      isPremium,
    }),
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

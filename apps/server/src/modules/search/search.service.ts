import {
  preferredGenders,
  SEARCH_COUNT_CAP,
  SEARCH_PAGE_SIZE,
  SEARCH_WIDEN_BELOW,
  type SearchCard,
  type SearchQuery,
  type SearchResponse,
  type SearchWidening,
  type User,
} from '@amora/contracts';
import type { Executor } from '@amora/db';
import { LRUCache } from 'lru-cache';
import type { AppContext } from '../../context';
import { badRequest, HttpError } from '../../lib/errors';
import { dbOf } from '../../lib/transaction';
import { presentProfileCard } from '../profile-cards/profile-cards.presenter';
import type { Auth } from '../sessions/sessions.service';
import type { Site } from '../sites/sites.service';
import { countMatches, matchesFilters, type SearchCursor, type SearchFilters, type SearchPageRow, searchPage } from './search.repository';

/** The ISO date `years` before `now` (UTC). */
function yearsBefore(now: Date, years: number): string {
  const d = new Date(Date.UTC(now.getUTCFullYear() - years, now.getUTCMonth(), now.getUTCDate()));
  return d.toISOString().slice(0, 10);
}

/**
 * Where the member search starts (the user object's search_defaults): the gender the member wants to meet when
 * that is one gender (their looking_for answer, else their gender and sexuality), their country and region.
 */
export function searchDefaultsFor(
  profile: Pick<Auth['profile'], 'gender' | 'sexuality' | 'lookingFor' | 'country' | 'region'>,
): User['search_defaults'] {
  const genders = preferredGenders(profile.gender, profile.sexuality, profile.lookingFor);
  return { gender: genders.length === 1 ? genders[0] : null, country: profile.country, countryregion: profile.region };
}

/**
 * The filters of a search: what the member asked for, and mutual interest. A member sees only the genders they are
 * looking for (the gender they chose, when it is one of those; none when it is not) and only members looking for
 * their gender; a visitor sees what they asked for. Null when the member chose a gender they are not looking for:
 * nobody to show, nothing to ask the database.
 */
function filtersFor(site: Site, viewer: Auth | null, query: SearchQuery, now: Date): SearchFilters | null {
  for (const [field, value] of Object.entries(query)) {
    if (value !== undefined && field !== 'cursor' && field !== 'widen' && !site.searchFields.includes(field)) {
      throw badRequest(field, `This site does not search by ${field}`);
    }
  }
  if (query.country && !site.countries.includes(query.country))
    throw badRequest('country', `Country ${query.country} is not served by this site`);
  if ((query.widen === 'country' || query.widen === 'nearby') && !query.country)
    throw badRequest('widen', 'Only a search in a country can be widened');
  if (query.widen === 'country' && !query.countryregion) throw badRequest('widen', 'Only a search in a region widens to its country');
  const seeks = viewer ? preferredGenders(viewer.profile.gender, viewer.profile.sexuality, viewer.profile.lookingFor) : [];
  if (query.gender && seeks.length > 0 && !seeks.includes(query.gender)) return null;
  const genders = query.gender ? [query.gender] : seeks;
  return {
    siteId: site.id,
    viewerProfileId: viewer?.profile.id ?? null,
    gender: genders.length === 1 ? genders[0] : undefined,
    genders: genders.length > 1 ? [...genders] : undefined,
    seeking: viewer?.profile.gender ?? undefined,
    country: query.country,
    region: query.countryregion,
    // min_age 30: born on or before today 30 years ago; max_age 40: born after today 41 years ago.
    bornOnOrBefore: query.min_age !== undefined ? yearsBefore(now, query.min_age) : undefined,
    bornAfter: query.max_age !== undefined ? yearsBefore(now, query.max_age + 1) : undefined,
  };
}

/**
 * The countries near each target country (shared borders, and the nearest across a sea where there is none):
 * where a member's default search goes after their own country.
 */
const NEARBY_COUNTRIES: Record<string, readonly string[]> = {
  NL: ['BE', 'DE'],
  BE: ['NL', 'FR', 'DE'],
  FR: ['BE', 'DE', 'CH', 'IT', 'ES', 'GB'],
  IT: ['FR', 'CH', 'AT'],
  ES: ['FR'],
  DE: ['NL', 'BE', 'FR', 'CH', 'AT', 'PL'],
  AT: ['DE', 'CH', 'IT'],
  IE: ['GB'],
  GB: ['IE', 'FR'],
  US: ['CA'],
  CA: ['US'],
  PL: ['DE'],
  AU: ['NZ'],
  NZ: ['AU'],
  CH: ['DE', 'FR', 'IT', 'AT'],
};

/**
 * The filters of a default search widened to `to`: the region dropped (the whole country), or the country with
 * the nearby ones the site serves. Null when that is no wider (no region; no nearby country on this site).
 */
function widened(site: Site, filters: SearchFilters, to: SearchWidening): SearchFilters | null {
  if (!filters.country) return null;
  if (to === 'country') return filters.region ? { ...filters, region: undefined } : null;
  const nearby = (NEARBY_COUNTRIES[filters.country] ?? []).filter((c) => site.countries.includes(c));
  if (nearby.length === 0) return null;
  return { ...filters, region: undefined, country: undefined, countries: [filters.country, ...nearby] };
}

/**
 * The first page of a default search (`widen=auto`): as asked, and only when that finds fewer than
 * SEARCH_WIDEN_BELOW, the whole country, then nearby countries, each kept only when it finds more. A search that
 * finds enough costs its one query, as any other.
 */
async function widenedFirstPage(
  ctx: AppContext,
  site: Site,
  filters: SearchFilters,
): Promise<{ filters: SearchFilters; rows: SearchPageRow[]; widened: SearchWidening | null }> {
  let best = { filters, rows: await searchPage(dbOf(ctx), filters, null, SEARCH_PAGE_SIZE + 1), widened: null as SearchWidening | null };
  for (const to of ['country', 'nearby'] as const) {
    if (best.rows.length >= SEARCH_WIDEN_BELOW) break;
    const wider = widened(site, filters, to);
    if (!wider) continue;
    const rows = await searchPage(dbOf(ctx), wider, null, SEARCH_PAGE_SIZE + 1);
    if (rows.length > best.rows.length) best = { filters: wider, rows, widened: to };
  }
  return best;
}

const noResults = (): SearchResponse => ({
  results: [],
  numResults: 0,
  numResults_capped: false,
  next_cursor: null,
  similar_results: [],
  similar_numResults: 0,
  widened: null,
});

function toCard(row: SearchPageRow, now: Date): SearchCard {
  return presentProfileCard(row, row.isPremium, now);
}

/** The cursor of the query ("123", or "n123" after a profile without a photo; the contract checked its form). */
function parseCursor(cursor: string | undefined): SearchCursor | null {
  if (!cursor) return null;
  return cursor.startsWith('n') ? { hasPhoto: false, id: Number(cursor.slice(1)) } : { hasPhoto: true, id: Number(cursor) };
}

function cursorAfter(row: { hasPhoto: boolean; id: number }): string {
  return `${row.hasPhoto ? '' : 'n'}${row.id}`;
}

/** How long a capped count serves every search with the same filters. */
const COUNT_TTL_MS = 30_000;
/** Filter sets remembered per database (each a short key and a number). */
const COUNT_CACHE_SIZE = 5_000;
const countCaches = new WeakMap<Executor, LRUCache<string, number>>();
/** Counts being made, per database and key (see sharedCount). */
const countsInFlight = new WeakMap<Executor, Map<string, Promise<number>>>();

/**
 * The capped count of the filters (up to SEARCH_COUNT_CAP + 1), shared by everyone who searches with them for
 * COUNT_TTL_MS. Counting is the dearest part of a first page (up to a thousand rows visited) and its figure is
 * shown as "N members" or "more than 1000": half a minute old is as good as exact. Kept per database, in
 * process memory: two server processes may each count once.
 */
async function sharedCount(db: Executor, filters: SearchFilters): Promise<number> {
  let cache = countCaches.get(db);
  if (!cache) {
    cache = new LRUCache<string, number>({ max: COUNT_CACHE_SIZE, ttl: COUNT_TTL_MS });
    countCaches.set(db, cache);
  }
  const key = JSON.stringify([
    filters.siteId,
    filters.gender,
    filters.genders,
    filters.seeking,
    filters.country,
    filters.countries,
    filters.region,
    filters.bornOnOrBefore,
    filters.bornAfter,
  ]);
  const cached = cache.get(key);
  if (cached !== undefined) return cached;
  // One count per key at a time: when the kept count runs out under load, the searches that arrive meanwhile wait
  // for it instead of each counting again (on PGlite, one connection, they would queue behind each other).
  const running = countsInFlight.get(db) ?? new Map<string, Promise<number>>();
  countsInFlight.set(db, running);
  let pending = running.get(key);
  if (!pending) {
    pending = countMatches(db, filters, SEARCH_COUNT_CAP)
      .then((counted) => {
        cache.set(key, counted);
        return counted;
      })
      .finally(() => running.delete(key));
    running.set(key, pending);
  }
  return pending;
}

/**
 * Member search (spec §2 members, §3 search state). Members with a photo come first, then those without, each
 * newest first; keyset paging on (has photo, profile id), so page 100 costs what page 1 costs. When the first
 * page finds few, similar profiles (region and country dropped, ages widened by five years) fill in below them.
 * A member's default search (`widen`) that finds fewer than a screenful widens first (widenedFirstPage), and its
 * next pages go on in the area its first page answered.
 *
 * One query per page in the common case, premium badges included. numResults: a first page that is not full
 * is its own exact count; a full one takes the shared count of its filters (see sharedCount) less the viewer
 * when they match their own search. The members in a block with the viewer are left out of the results, not
 * out of that number: it says the same to everyone, so it tells nobody who blocked them.
 */
export async function search(ctx: AppContext, site: Site, viewer: Auth | null, query: SearchQuery): Promise<SearchResponse> {
  if (viewer?.profile.isInvisible) {
    throw new HttpError(403, 'invisible', 'Invisible members cannot browse other members', { message_key: 'search.errors.invisible' });
  }
  const now = ctx.now();
  const asked = filtersFor(site, viewer, query, now);
  if (!asked) return noResults();
  const cursor = parseCursor(query.cursor);
  const isFirstPage = cursor === null;
  let filters = asked;
  let rows: SearchPageRow[];
  let widenedTo: SearchWidening | null = null;
  if (query.widen === 'auto' && isFirstPage) {
    ({ filters, rows, widened: widenedTo } = await widenedFirstPage(ctx, site, asked));
  } else {
    if (query.widen === 'country' || query.widen === 'nearby') {
      const wider = widened(site, asked, query.widen);
      if (wider) [filters, widenedTo] = [wider, query.widen];
    }
    rows = await searchPage(dbOf(ctx), filters, cursor, SEARCH_PAGE_SIZE + 1);
  }
  const page = rows.slice(0, SEARCH_PAGE_SIZE);
  const results = page.map((r) => toCard(r, now));
  let numResults = -1;
  let capped = false;
  if (isFirstPage) {
    if (rows.length <= SEARCH_PAGE_SIZE) {
      numResults = rows.length;
    } else {
      const counted = await sharedCount(dbOf(ctx), filters);
      capped = counted > SEARCH_COUNT_CAP;
      const others = counted - (viewer && matchesFilters(viewer.profile, filters) ? 1 : 0);
      // A count up to half a minute old can be below what this page just found.
      numResults = Math.min(SEARCH_COUNT_CAP, Math.max(rows.length, others));
    }
  }
  let similar: SearchCard[] = [];
  if (isFirstPage && results.length < SEARCH_PAGE_SIZE) {
    const wider: SearchFilters = {
      ...filters,
      region: undefined,
      country: undefined,
      countries: undefined,
      bornOnOrBefore: query.min_age !== undefined ? yearsBefore(now, Math.max(18, query.min_age - 5)) : undefined,
      bornAfter: query.max_age !== undefined ? yearsBefore(now, query.max_age + 6) : undefined,
      excludeIds: results.map((r) => r.id),
    };
    similar = (await searchPage(dbOf(ctx), wider, null, SEARCH_PAGE_SIZE)).map((r) => toCard(r, now));
  }
  return {
    results,
    numResults,
    numResults_capped: capped,
    next_cursor: rows.length > SEARCH_PAGE_SIZE ? cursorAfter(page[page.length - 1]) : null,
    similar_results: similar,
    similar_numResults: similar.length,
    widened: widenedTo,
  };
}

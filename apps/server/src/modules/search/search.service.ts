import { SEARCH_COUNT_CAP, SEARCH_PAGE_SIZE, type SearchCard, type SearchQuery, type SearchResponse } from '@amora/contracts';
import type { AppContext } from '../../context';
import { badRequest, HttpError } from '../../lib/errors';
import type { Auth } from '../../plugins/auth';
import { presentProfileCard } from '../profiles/profiles.presenter';
import type { Site } from '../sites/sites.repository';
import { countMatches, type SearchFilters, searchPage } from './search.repository';

/** The ISO date `years` before `now` (UTC). */
function yearsBefore(now: Date, years: number): string {
  const d = new Date(Date.UTC(now.getUTCFullYear() - years, now.getUTCMonth(), now.getUTCDate()));
  return d.toISOString().slice(0, 10);
}

export function filtersFor(site: Site, viewer: Auth | null, query: SearchQuery, now: Date): SearchFilters {
  for (const [field, value] of Object.entries(query)) {
    if (value !== undefined && field !== 'cursor' && !site.searchFields.includes(field)) {
      throw badRequest(field, `This site does not search by ${field}`);
    }
  }
  if (query.country && !site.countries.includes(query.country))
    throw badRequest('country', `Country ${query.country} is not served by this site`);
  return {
    siteId: site.id,
    viewerProfileId: viewer?.profile.id ?? null,
    gender: query.gender,
    country: query.country,
    region: query.countryregion,
    // min_age 30: born on or before today 30 years ago; max_age 40: born after today 41 years ago.
    bornOnOrBefore: query.min_age !== undefined ? yearsBefore(now, query.min_age) : undefined,
    bornAfter: query.max_age !== undefined ? yearsBefore(now, query.max_age + 1) : undefined,
  };
}

function toCard(row: Awaited<ReturnType<typeof searchPage>>[number], now: Date): SearchCard {
  return presentProfileCard(row, row.isPremium, now);
}

/**
 * Member search (spec §2 members, §3 search state). Keyset paging on the profile id, so page 100 costs what
 * page 1 costs. When the first page finds few, similar profiles (region and country dropped, ages widened by
 * five years) fill in below them.
 */
export async function search(ctx: AppContext, site: Site, viewer: Auth | null, query: SearchQuery): Promise<SearchResponse> {
  if (viewer?.profile.isInvisible) {
    throw new HttpError(403, 'invisible', 'Invisible members cannot browse other members', { message_key: 'search.errors.invisible' });
  }
  const now = ctx.now();
  const filters = filtersFor(site, viewer, query, now);
  const cursor = query.cursor ? Number(query.cursor) : null;
  const [rows, counted] = await Promise.all([
    searchPage(ctx.db, filters, cursor, SEARCH_PAGE_SIZE + 1),
    cursor === null ? countMatches(ctx.db, filters, SEARCH_COUNT_CAP) : Promise.resolve(-1),
  ]);
  const page = rows.slice(0, SEARCH_PAGE_SIZE);
  const results = page.map((r) => toCard(r, now));
  let similar: SearchCard[] = [];
  if (cursor === null && results.length < SEARCH_PAGE_SIZE) {
    const wider: SearchFilters = {
      ...filters,
      region: undefined,
      country: undefined,
      bornOnOrBefore: query.min_age !== undefined ? yearsBefore(now, Math.max(18, query.min_age - 5)) : undefined,
      bornAfter: query.max_age !== undefined ? yearsBefore(now, query.max_age + 6) : undefined,
      excludeIds: results.map((r) => r.id),
    };
    similar = (await searchPage(ctx.db, wider, null, SEARCH_PAGE_SIZE)).map((r) => toCard(r, now));
  }
  return {
    results,
    numResults: counted === -1 ? -1 : Math.min(counted, SEARCH_COUNT_CAP),
    numResults_capped: counted > SEARCH_COUNT_CAP,
    next_cursor: rows.length > SEARCH_PAGE_SIZE ? String(page[page.length - 1].id) : null,
    similar_results: similar,
    similar_numResults: similar.length,
  };
}

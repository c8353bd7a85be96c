import { GENDERS, SEARCH_CARD_HEIGHT, SEARCH_PAGE_SIZE, type SearchResponse, type User } from '@amora/contracts/core';
import { useInfiniteQuery, useQueryClient } from '@tanstack/react-query';
import { type FormEvent, useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useSearchParams } from 'react-router';
import { Skeleton, SkeletonRegion } from '@/components/ui/skeleton';
import { ApiRequestError, api } from '@/lib/api-client';
import { errorText } from '@/lib/error-text';
import { rememberProfileCards } from '@/shared/profiles/card-cache';
import { useUser } from '@/shared/session/user';
import { useRegions } from '@/shared/site/api/get-regions';
import { useSettings } from '@/shared/site/api/get-settings';
import { countryName } from '@/shared/site/country-name';
import { LocalLink } from '@/shared/site/local-link';
import { useLocale } from '@/shared/site/use-locale';
import { usePageTitle } from '@/shared/site/use-page-title';
import { MemberCard } from './member-card';

const FILTERS = ['gender', 'country', 'countryregion', 'min_age', 'max_age'] as const;
type Filters = Partial<Record<(typeof FILTERS)[number], string>>;
type SearchDefaults = User['search_defaults'];
/** The cards a first screen shows at most (two rows on a desktop): their photos load at once. */
const FIRST_SCREEN_CARDS = 8;
/** The most pages an address brings back by itself: about the 1,000 cards where the result count stops. */
const MAX_RESTORED_PAGES = Math.ceil(1000 / SEARCH_PAGE_SIZE);

/** The `page` of the address: how many pages of results the search shows (1 when absent or not a number). */
function pageNumberOf(value: string | null): number {
  return value && /^\d{1,3}$/.test(value) ? Math.min(Math.max(Number(value), 1), MAX_RESTORED_PAGES) : 1;
}

/** The member's search defaults, as far as the site searches by them. */
function defaultFilters(defaults: SearchDefaults | undefined, fields: readonly string[]): Filters {
  if (!defaults) return {};
  const filters: Filters = {};
  if (defaults.gender && fields.includes('gender')) filters.gender = defaults.gender;
  if (fields.includes('country')) {
    filters.country = defaults.country;
    if (defaults.countryregion && fields.includes('countryregion')) filters.countryregion = defaults.countryregion;
  }
  return filters;
}

/**
 * /members: member search (spec §2, §3 search state). Filters and the number of pages shown (`page`) live in
 * the address, so the browser's back button returns to the same search at the same page: from the query
 * cache at once, or loaded again page by page when the cache has let it go. The cards shown are remembered
 * (shared/profiles/card-cache) so the profile page opened from one paints at once.
 */
export function MembersPage() {
  const { t } = useTranslation();
  usePageTitle(t('members.title'));
  const settings = useSettings();
  const locale = useLocale();
  const [params, setParams] = useSearchParams();
  const queryClient = useQueryClient();
  const user = useUser();
  const pageNumber = pageNumberOf(params.get('page'));
  const fields = FILTERS.filter((f) => settings.search_fields.includes(f));
  // An address without any filter starts from the member's search defaults (spec §3 search state: whom they
  // want to meet, their country and region, from /complete-signup); a search with every filter cleared says so
  // in the address (an empty filter), so it shows everyone.
  const hasFilters = FILTERS.some((f) => params.has(f));
  const filters: Filters = hasFilters
    ? Object.fromEntries(FILTERS.filter((f) => params.get(f)).map((f) => [f, params.get(f) as string]))
    : defaultFilters(user?.search_defaults, fields);
  const [draft, setDraft] = useState<Filters>(filters);

  const results = useInfiniteQuery({
    queryKey: ['search', filters],
    queryFn: async ({ pageParam }) => {
      const page = await api<SearchResponse>('/api/search.php', { query: { ...filters, cursor: pageParam ?? undefined } });
      rememberProfileCards(queryClient, [...page.results, ...page.similar_results]);
      return page;
    },
    initialPageParam: null as string | null,
    getNextPageParam: (last) => last.next_cursor,
    staleTime: 60_000,
  });
  const regions = useRegions(draft.country, { enabled: Boolean(draft.country) && fields.includes('countryregion') });

  const handleSubmit = (event: FormEvent) => {
    event.preventDefault();
    const next = new URLSearchParams();
    for (const [key, value] of Object.entries(draft)) if (value) next.set(key, value);
    if (next.size === 0 && fields.length > 0) next.set(fields[0], '');
    setParams(next);
  };
  const setField = (key: keyof Filters, value: string) =>
    setDraft((d) => ({ ...d, [key]: value, ...(key === 'country' ? { countryregion: '' } : {}) }));

  const loadedPages = results.data?.pages.length ?? 0;
  const { hasNextPage, isFetching, fetchNextPage } = results;
  useEffect(() => {
    if (loadedPages > 0 && loadedPages < pageNumber && hasNextPage && !isFetching) void fetchNextPage();
  }, [loadedPages, pageNumber, hasNextPage, isFetching, fetchNextPage]);
  const handleMore = () => {
    if (loadedPages >= MAX_RESTORED_PAGES) {
      void fetchNextPage();
      return;
    }
    setParams(
      (current) => {
        const next = new URLSearchParams(current);
        next.set('page', String(loadedPages + 1));
        return next;
      },
      { replace: true },
    );
  };

  const error = results.error;
  const needsLogin = error instanceof ApiRequestError && error.status === 403 && error.body.authentication_required;
  const first = results.data?.pages[0];
  const cards = results.data?.pages.flatMap((p) => p.results) ?? [];
  const ages = Array.from({ length: 82 }, (_, i) => String(18 + i));

  return (
    <main id="main" className="container py-4">
      <div className="d-flex flex-wrap justify-content-between align-items-baseline gap-2 mb-3">
        <h1 className="h3 mb-0">{t('members.title')}</h1>
        <nav className="d-flex gap-2" aria-label={t('members.discover')}>
          <LocalLink to="/match-finder" className="btn btn-sm btn-outline-primary" data-testid="link-match-finder">
            {t('members.matchFinder')}
          </LocalLink>
          <LocalLink to="/swipe-game" className="btn btn-sm btn-outline-primary" data-testid="link-swipe-game">
            {t('members.swipeGame')}
          </LocalLink>
        </nav>
      </div>
      <form className="card card-body mb-4" onSubmit={handleSubmit} data-testid="search-form" aria-label={t('members.filters')}>
        <div className="row g-2 align-items-end">
          {fields.includes('gender') && (
            <div className="col-6 col-md-2">
              <label className="form-label small" htmlFor="f-gender">
                {t('profile.attributes.gender.label')}
              </label>
              <select id="f-gender" className="form-select" value={draft.gender ?? ''} onChange={(e) => setField('gender', e.target.value)}>
                <option value="">{t('members.any')}</option>
                {GENDERS.map((g) => (
                  <option key={g} value={g}>
                    {t(`profile.attributes.gender.${g}`)}
                  </option>
                ))}
              </select>
            </div>
          )}
          {fields.includes('country') && (
            <div className="col-6 col-md-3">
              <label className="form-label small" htmlFor="f-country">
                {t('profile.location.country')}
              </label>
              <select
                id="f-country"
                className="form-select"
                value={draft.country ?? ''}
                onChange={(e) => setField('country', e.target.value)}
              >
                <option value="">{t('members.any')}</option>
                {settings.countries.map((c) => (
                  <option key={c} value={c}>
                    {countryName(c, locale)}
                  </option>
                ))}
              </select>
            </div>
          )}
          {fields.includes('countryregion') && (
            <div className="col-6 col-md-3">
              <label className="form-label small" htmlFor="f-region">
                {t('profile.location.region')}
              </label>
              <select
                id="f-region"
                className="form-select"
                value={draft.countryregion ?? ''}
                disabled={!draft.country}
                onChange={(e) => setField('countryregion', e.target.value)}
              >
                <option value="">{t('members.any')}</option>
                {regions.data?.map((r) => (
                  <option key={r.code} value={r.code}>
                    {r.name}
                  </option>
                ))}
              </select>
            </div>
          )}
          {fields.includes('min_age') && (
            <div className="col-3 col-md-1">
              <label className="form-label small" htmlFor="f-min">
                {t('members.minAge')}
              </label>
              <select id="f-min" className="form-select" value={draft.min_age ?? ''} onChange={(e) => setField('min_age', e.target.value)}>
                <option value="">–</option>
                {ages.map((a) => (
                  <option key={a}>{a}</option>
                ))}
              </select>
            </div>
          )}
          {fields.includes('max_age') && (
            <div className="col-3 col-md-1">
              <label className="form-label small" htmlFor="f-max">
                {t('members.maxAge')}
              </label>
              <select id="f-max" className="form-select" value={draft.max_age ?? ''} onChange={(e) => setField('max_age', e.target.value)}>
                <option value="">–</option>
                {ages.map((a) => (
                  <option key={a}>{a}</option>
                ))}
              </select>
            </div>
          )}
          <div className="col-12 col-md-2">
            <button type="submit" className="btn btn-primary w-100" data-testid="search-submit">
              {t('members.search')}
            </button>
          </div>
        </div>
      </form>

      {needsLogin && (
        <div className="alert alert-info" data-testid="login-to-search">
          {t('members.loginToSearch')} <LocalLink to="/login">{t('nav.login')}</LocalLink>
        </div>
      )}
      {error && !needsLogin && (
        <div className="alert alert-warning" role="alert">
          {errorText(t, error)}
        </div>
      )}
      {/* The count's line is there before the count, so the cards do not move down when it comes. */}
      <p className="text-body-secondary" data-testid={first ? 'num-results' : undefined} style={{ minHeight: '1.5em' }}>
        {first &&
          (first.numResults_capped ? t('members.countMany', { count: first.numResults }) : t('members.count', { count: first.numResults }))}
      </p>
      <div className="row g-3" data-testid="member-list">
        {cards.map((m, i) => (
          <div className="col-6 col-md-4 col-lg-3" key={m.id}>
            <MemberCard card={m} priority={i === 0 ? 'high' : i < FIRST_SCREEN_CARDS ? 'eager' : 'lazy'} />
          </div>
        ))}
      </div>
      {user && results.isPending && !error && (
        // The first page's place, kept while it loads, so nothing below it (the footer) moves when it comes.
        <SkeletonRegion label={t('common.loading')} className="row g-3">
          {Array.from({ length: FIRST_SCREEN_CARDS }, (_, i) => (
            // biome-ignore lint/suspicious/noArrayIndexKey: identical placeholders, never reordered
            <div className="col-6 col-md-4 col-lg-3" key={i}>
              <Skeleton shape="rect" width="100%" height={SEARCH_CARD_HEIGHT} />
            </div>
          ))}
        </SkeletonRegion>
      )}
      {first && cards.length === 0 && <p>{t('members.empty')}</p>}
      {results.hasNextPage && (
        <div className="text-center mt-4">
          <button
            type="button"
            className="btn btn-outline-dark"
            onClick={handleMore}
            disabled={results.isFetching}
            data-testid="search-more"
          >
            {t('members.more', { page: (results.data?.pages.length ?? 1) + 1 })}
          </button>
        </div>
      )}
      {first && first.similar_results.length > 0 && (
        <section className="mt-5" aria-labelledby="similar-title" data-testid="similar-results">
          <h2 className="h5" id="similar-title">
            {t('members.similar')}
          </h2>
          <div className="row g-3">
            {first.similar_results.map((m) => (
              <div className="col-6 col-md-4 col-lg-3" key={m.id}>
                <MemberCard card={m} />
              </div>
            ))}
          </div>
        </section>
      )}
    </main>
  );
}

export { MembersPage as Component };

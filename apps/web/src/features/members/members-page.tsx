import './members.css';
import { GENDERS, SEARCH_PAGE_SIZE, type SearchResponse, type SearchWidening, type User } from '@amora/contracts/core';
import { useInfiniteQuery, useQueryClient } from '@tanstack/react-query';
import { type FormEvent, useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useSearchParams } from 'react-router';
import { Button, buttonClass } from '@/components/ui/button';
import { EmptyState } from '@/components/ui/empty-state';
import { Sheet } from '@/components/ui/sheet';
import { SkeletonRegion } from '@/components/ui/skeleton';
import { ApiRequestError, api } from '@/lib/api-client';
import { errorText } from '@/lib/error-text';
import { isHydratingServerPage } from '@/lib/hydration';
import { useIsPhone } from '@/lib/use-media-query';
import { rememberProfileCards } from '@/shared/profiles/card-cache';
import { useUser } from '@/shared/session/user';
import { useRegions } from '@/shared/site/api/get-regions';
import { useSettings } from '@/shared/site/api/get-settings';
import { countryName } from '@/shared/site/country-name';
import { LocalLink } from '@/shared/site/local-link';
import { useLocale } from '@/shared/site/use-locale';
import { usePageTitle } from '@/shared/site/use-page-title';
import { MemberCard, MemberCardSkeleton } from './member-card';

const FILTERS = ['gender', 'country', 'countryregion', 'min_age', 'max_age'] as const;
type Filters = Partial<Record<(typeof FILTERS)[number], string>>;
type SearchDefaults = User['search_defaults'];
/** Where the next page starts, and the area the first page searched. */
type NextPage = { cursor: string; widened: SearchWidening | null };
/** The cards a first screen shows at most (two rows on a desktop, two on a phone): their photos load at once. */
const FIRST_SCREEN_CARDS = 8;
const FIRST_SCREEN_CARDS_PHONE = 4;
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
  // The member's own default search widens on the server when their area finds fewer than a screenful; a search
  // they set themselves answers as asked.
  const isDefaultSearch = !hasFilters && Boolean(user) && Boolean(filters.country);
  const [draft, setDraft] = useState<Filters>(filters);
  const isPhone = useIsPhone();
  const [isSheetOpen, setIsSheetOpen] = useState(false);

  const results = useInfiniteQuery({
    queryKey: ['search', filters, isDefaultSearch ? 'default' : 'asked'],
    queryFn: async ({ pageParam }) => {
      // The next pages go on in the area the first page answered (widened or not).
      const widen = pageParam ? (pageParam.widened ?? undefined) : isDefaultSearch ? 'auto' : undefined;
      const page = await api<SearchResponse>('/api/search.php', { query: { ...filters, widen, cursor: pageParam?.cursor } });
      rememberProfileCards(queryClient, [...page.results, ...page.similar_results]);
      return page;
    },
    initialPageParam: null as NextPage | null,
    getNextPageParam: (last): NextPage | null => (last.next_cursor ? { cursor: last.next_cursor, widened: last.widened } : null),
    staleTime: 60_000,
  });
  const regions = useRegions(draft.country, { enabled: Boolean(draft.country) && fields.includes('countryregion') });

  const handleSubmit = (event: FormEvent) => {
    event.preventDefault();
    const next = new URLSearchParams();
    for (const [key, value] of Object.entries(draft)) if (value) next.set(key, value);
    if (next.size === 0 && fields.length > 0) next.set(fields[0], '');
    setParams(next);
    setIsSheetOpen(false);
  };
  // Clears every filter: everyone, said in the address by an empty filter (as clearing them by hand does).
  const handleShowEveryone = () => {
    setDraft({});
    if (fields.length > 0) setParams(new URLSearchParams([[fields[0], '']]));
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
      // The next page joins below the cards already read: the window stays where it is (a new history entry
      // would otherwise be scrolled to the top by the scroll restoration).
      { replace: true, preventScrollReset: true },
    );
  };

  const error = results.error;
  const needsLogin = error instanceof ApiRequestError && error.status === 403 && error.body.authentication_required;
  const first = results.data?.pages[0];
  const allCards = results.data?.pages.flatMap((p) => p.results) ?? [];
  // A page the server rendered carries the first screen's cards; the others join as soon as the app has taken it
  // over, so the page's first bytes and the photos the browser fetches first are the first screen's.
  const [isWhole, setIsWhole] = useState(() => typeof window !== 'undefined' && !isHydratingServerPage());
  useEffect(() => setIsWhole(true), []);
  const firstScreen = isPhone ? FIRST_SCREEN_CARDS_PHONE : FIRST_SCREEN_CARDS;
  const cards = isWhole ? allCards : allCards.slice(0, firstScreen);
  const allSimilar = first?.similar_results ?? [];
  const similar = isWhole ? allSimilar : allSimilar.slice(0, Math.max(0, firstScreen - cards.length));

  const activeFilters = Object.values(filters).filter(Boolean).length;
  const filterForm = (
    <SearchFilters
      fields={fields}
      draft={draft}
      regions={regions.data}
      onChange={setField}
      onSubmit={handleSubmit}
      isStacked={isPhone}
      // In the sheet, the button sits in its footer, tied to the form by id.
      hasSubmit={!isPhone}
    />
  );
  const widenedRegion = regions.data?.find((r) => r.code === filters.countryregion)?.name ?? filters.countryregion ?? '';
  const widenedLine = first?.widened && (
    <p className="text-body-secondary small mb-3" data-testid="search-widened">
      {first.widened === 'country' ? t('members.widenedCountry', { region: widenedRegion }) : t('members.widenedNearby')}
    </p>
  );
  const countLine = (
    // The count's line is there before the count, so the cards do not move down when it comes.
    <p className="text-body-secondary mb-0" data-testid={first ? 'num-results' : undefined} style={{ minHeight: '1.5em' }}>
      {first &&
        (first.numResults_capped ? t('members.countMany', { count: first.numResults }) : t('members.count', { count: first.numResults }))}
    </p>
  );

  return (
    <main id="main" className="container py-3 py-md-4">
      <div className="members-head">
        <h1 className="h3 mb-0">{t('members.title')}</h1>
        <nav className="members-discover" aria-label={t('members.discover')}>
          <LocalLink to="/match-finder" className={buttonClass({ variant: 'outline-primary', size: 'sm' })} data-testid="link-match-finder">
            {t('members.matchFinder')}
          </LocalLink>
          <LocalLink to="/swipe-game" className={buttonClass({ variant: 'outline-primary', size: 'sm' })} data-testid="link-swipe-game">
            {t('members.swipeGame')}
          </LocalLink>
        </nav>
      </div>
      {isPhone ? (
        <>
          <div className="members-toolbar">
            {countLine}
            <Button
              variant={activeFilters > 0 ? 'primary' : 'outline-dark'}
              size="sm"
              className="d-inline-flex align-items-center gap-2 flex-shrink-0"
              onClick={() => setIsSheetOpen(true)}
              aria-haspopup="dialog"
              testId="search-filters-open"
            >
              <FilterIcon />
              {t('members.filtersOpen')}
              {activeFilters > 0 && (
                <>
                  <span className="members-filter-count" aria-hidden="true">
                    {activeFilters}
                  </span>
                  <span className="visually-hidden">{t('members.filtersSet', { count: activeFilters })}</span>
                </>
              )}
            </Button>
          </div>
          <Sheet
            isOpen={isSheetOpen}
            onClose={() => setIsSheetOpen(false)}
            title={t('members.filters')}
            testId="search-filters-sheet"
            footer={
              <Button type="submit" form={FORM_ID} isBlock testId="search-submit">
                {t('members.search')}
              </Button>
            }
          >
            {filterForm}
          </Sheet>
        </>
      ) : (
        <>
          <div className="members-filter-bar">{filterForm}</div>
          <div className="mb-3">{countLine}</div>
        </>
      )}

      {widenedLine}
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
      <div className="row g-2 g-md-3" data-testid="member-list">
        {cards.map((m, i) => (
          <div className="col-6 col-md-4 col-lg-3" key={m.id}>
            <MemberCard card={m} priority={i === 0 ? 'high' : i < firstScreen ? 'eager' : 'lazy'} />
          </div>
        ))}
      </div>
      {user && results.isPending && !error && (
        // The first page's place, kept while it loads, so nothing below it (the footer) moves when it comes.
        <SkeletonRegion label={t('common.loading')} className="row g-2 g-md-3">
          {Array.from({ length: FIRST_SCREEN_CARDS }, (_, i) => (
            // biome-ignore lint/suspicious/noArrayIndexKey: identical placeholders, never reordered
            <div className="col-6 col-md-4 col-lg-3" key={i}>
              <MemberCardSkeleton />
            </div>
          ))}
        </SkeletonRegion>
      )}
      {first && cards.length === 0 && (
        <EmptyState
          testId="search-empty"
          icon={<SearchIcon />}
          title={activeFilters > 0 ? t('members.noResultsTitle') : t('members.empty')}
          text={activeFilters > 0 ? t('members.noResultsText') : undefined}
          action={
            activeFilters > 0 && fields.length > 0 ? (
              <Button variant="outline-primary" onClick={handleShowEveryone} testId="search-show-everyone">
                {t('members.showEveryone')}
              </Button>
            ) : undefined
          }
        />
      )}
      {results.hasNextPage && (
        <div className="text-center mt-4">
          <Button
            variant="outline-dark"
            onClick={handleMore}
            isLoading={results.isFetchingNextPage}
            disabled={results.isFetching}
            testId="search-more"
          >
            {t('members.more', { page: (results.data?.pages.length ?? 1) + 1 })}
          </Button>
        </div>
      )}
      {similar.length > 0 && (
        <section className="mt-5" aria-labelledby="similar-title" data-testid="similar-results">
          <h2 className="h5" id="similar-title">
            {t('members.similar')}
          </h2>
          <div className="row g-2 g-md-3">
            {similar.map((m) => (
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

const FORM_ID = 'search-form';
const AGES = Array.from({ length: 82 }, (_, i) => String(18 + i));

interface SearchFiltersProps {
  fields: readonly (typeof FILTERS)[number][];
  draft: Filters;
  regions: { code: string; name: string }[] | undefined;
  onChange: (key: keyof Filters, value: string) => void;
  onSubmit: (event: FormEvent) => void;
  /** One field a row (the phone's sheet), or one row of fields (desktop). */
  isStacked: boolean;
  hasSubmit: boolean;
}

/** The search filters: a row above the results from md up, the body of the filter sheet on phones. */
function SearchFilters({ fields, draft, regions, onChange, onSubmit, isStacked, hasSubmit }: SearchFiltersProps) {
  const { t } = useTranslation();
  const settings = useSettings();
  const locale = useLocale();
  const wide = isStacked ? 'col-12' : 'col-md-3 col-lg';
  const narrow = isStacked ? 'col-6' : 'col-md-2 col-lg-1';
  return (
    <form id={FORM_ID} onSubmit={onSubmit} data-testid="search-form" aria-label={t('members.filters')}>
      <div className="row g-2 g-md-3 align-items-end">
        {fields.includes('gender') && (
          <div className={wide}>
            <label className="form-label small fw-semibold" htmlFor="f-gender">
              {t('profile.attributes.gender.label')}
            </label>
            <select id="f-gender" className="form-select" value={draft.gender ?? ''} onChange={(e) => onChange('gender', e.target.value)}>
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
          <div className={wide}>
            <label className="form-label small fw-semibold" htmlFor="f-country">
              {t('profile.location.country')}
            </label>
            <select
              id="f-country"
              className="form-select"
              value={draft.country ?? ''}
              onChange={(e) => onChange('country', e.target.value)}
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
          <div className={wide}>
            <label className="form-label small fw-semibold" htmlFor="f-region">
              {t('profile.location.region')}
            </label>
            <select
              id="f-region"
              className="form-select"
              value={draft.countryregion ?? ''}
              disabled={!draft.country}
              onChange={(e) => onChange('countryregion', e.target.value)}
            >
              <option value="">{t('members.any')}</option>
              {regions?.map((r) => (
                <option key={r.code} value={r.code}>
                  {r.name}
                </option>
              ))}
            </select>
          </div>
        )}
        {fields.includes('min_age') && (
          <div className={narrow}>
            <label className="form-label small fw-semibold" htmlFor="f-min">
              {t('members.minAge')}
            </label>
            <select id="f-min" className="form-select" value={draft.min_age ?? ''} onChange={(e) => onChange('min_age', e.target.value)}>
              <option value="">–</option>
              {AGES.map((a) => (
                <option key={a}>{a}</option>
              ))}
            </select>
          </div>
        )}
        {fields.includes('max_age') && (
          <div className={narrow}>
            <label className="form-label small fw-semibold" htmlFor="f-max">
              {t('members.maxAge')}
            </label>
            <select id="f-max" className="form-select" value={draft.max_age ?? ''} onChange={(e) => onChange('max_age', e.target.value)}>
              <option value="">–</option>
              {AGES.map((a) => (
                <option key={a}>{a}</option>
              ))}
            </select>
          </div>
        )}
        {hasSubmit && (
          <div className="col-md-2 col-lg-auto">
            <Button type="submit" isBlock testId="search-submit" className="px-4">
              {t('members.search')}
            </Button>
          </div>
        )}
      </div>
    </form>
  );
}

function FilterIcon() {
  return (
    <svg viewBox="0 0 24 24" width="18" height="18" aria-hidden="true" focusable="false">
      <path d="M4 6h16M7 12h10M10 18h4" fill="none" stroke="currentColor" strokeWidth="2" strokeLinecap="round" />
    </svg>
  );
}

function SearchIcon() {
  return (
    <svg viewBox="0 0 24 24" width="32" height="32" aria-hidden="true" focusable="false">
      <circle cx="11" cy="11" r="6.5" fill="none" stroke="currentColor" strokeWidth="2" />
      <path d="m16 16 4.5 4.5" fill="none" stroke="currentColor" strokeWidth="2" strokeLinecap="round" />
    </svg>
  );
}

export { MembersPage as Component };

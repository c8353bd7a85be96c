import './members.css';
import { SEARCH_PAGE_SIZE } from '@amora/contracts/core';
import { useInfiniteQuery } from '@tanstack/react-query';
import { type FormEvent, useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useSearchParams } from 'react-router';
import { Button, buttonClass } from '@/components/ui/button';
import { EmptyState } from '@/components/ui/empty-state';
import { Sheet } from '@/components/ui/sheet';
import { SkeletonRegion } from '@/components/ui/skeleton';
import { ApiRequestError } from '@/lib/api-client';
import { errorText } from '@/lib/error-text';
import { isHydratingServerPage } from '@/lib/hydration';
import { useIsPhone } from '@/lib/use-media-query';
import { useUser } from '@/shared/session/user';
import { useRegions } from '@/shared/site/api/get-regions';
import { useSettings } from '@/shared/site/api/get-settings';
import { LocalLink } from '@/shared/site/local-link';
import { usePageTitle } from '@/shared/site/use-page-title';
import { type Filters, searchOf, searchQuery } from './api/search';
import { FilterIcon, FORM_ID, SearchFilters, SearchIcon } from './components/search-filters';
import { MemberCard, MemberCardSkeleton } from './member-card';

/** The cards a first screen shows at most (two rows on a desktop, two on a phone): their photos load at once. */
const FIRST_SCREEN_CARDS = 8;
const FIRST_SCREEN_CARDS_PHONE = 4;
/** The most pages an address brings back by itself: about the 1,000 cards where the result count stops. */
const MAX_RESTORED_PAGES = Math.ceil(1000 / SEARCH_PAGE_SIZE);

/** The `page` of the address: how many pages of results the search shows (1 when absent or not a number). */
function pageNumberOf(value: string | null): number {
  return value && /^\d{1,3}$/.test(value) ? Math.min(Math.max(Number(value), 1), MAX_RESTORED_PAGES) : 1;
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
  const user = useUser();
  const pageNumber = pageNumberOf(params.get('page'));
  const search = searchOf(params, user, settings);
  const { fields, filters } = search;
  const [draft, setDraft] = useState<Filters>(filters);
  const isPhone = useIsPhone();
  const [isSheetOpen, setIsSheetOpen] = useState(false);

  const results = useInfiniteQuery(searchQuery(search));
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

export { MembersPage as Component };

import { type SearchResponse, searchResponseSchema } from '@amora/contracts';
import { screen, waitFor, within } from '@testing-library/react';
import { delay, http } from 'msw';
import { describe, expect, it } from 'vitest';
import { runOnPhone } from '@/testing/browser';
import { contractJson } from '@/testing/contract';
import { settingsFixture, userFixture } from '@/testing/fixtures';
import { renderApp } from '@/testing/render';
import { server } from '@/testing/server';
import { text } from '@/testing/text';

const settings = settingsFixture({ search_fields: ['gender', 'country', 'countryregion', 'min_age', 'max_age'] });

function answer(page: Partial<SearchResponse>) {
  return contractJson(searchResponseSchema, {
    results: [],
    numResults: 0,
    numResults_capped: false,
    next_cursor: null,
    similar_results: [],
    similar_numResults: 0,
    widened: null,
    ...page,
  });
}

/** Every search.php query string asked, answered with nothing found. */
function recordEmptySearches(): string[] {
  const queries: string[] = [];
  server.use(
    http.get('*/api/search.php', ({ request }) => {
      queries.push(new URL(request.url).searchParams.toString());
      return answer({});
    }),
  );
  return queries;
}

describe('members search look', () => {
  it('shows card-shaped skeletons, 330 px high, while the first page loads', async () => {
    server.use(
      http.get('*/api/search.php', async () => {
        await delay('infinite');
        return answer({});
      }),
    );
    await renderApp('/members', { user: userFixture(), settings });
    const region = await screen.findByRole('status', { name: text('common.loading') });
    const skeletons = region.querySelectorAll('.photo-card-skeleton');
    expect(skeletons.length).toBe(8);
    expect(skeletons[0]).toHaveStyle({ height: '330px' });
  });

  it('nothing found with filters: says so and offers everyone, which clears the filters in the address', async () => {
    const queries = recordEmptySearches();
    const { user, router } = await renderApp('/members?gender=woman&min_age=60', { user: userFixture(), settings });
    const empty = await screen.findByTestId('search-empty');
    expect(within(empty).getByRole('heading', { name: text('members.noResultsTitle') })).toBeVisible();
    await user.click(within(empty).getByRole('button', { name: text('members.showEveryone') }));
    await waitFor(() => expect(queries.at(-1)).toBe(''));
    expect(router.state.location.search).toBe('?gender=');
  });

  it('on a phone the filters are in a sheet, opened by a button that counts them; searching closes it', async () => {
    runOnPhone();
    const queries = recordEmptySearches();
    const { user, router } = await renderApp('/members?gender=woman', { user: userFixture(), settings });
    await waitFor(() => expect(queries).toEqual(['gender=woman']));
    expect(screen.queryByTestId('search-form')).toBeNull();
    const open = screen.getByTestId('search-filters-open');
    expect(open).toHaveAccessibleName(`${text('members.filtersOpen')} ${text('members.filtersSet', { count: 1 })}`);
    await user.click(open);
    const sheet = await screen.findByRole('dialog', { name: text('members.filters') });
    await user.selectOptions(within(sheet).getByLabelText(text('members.minAge')), '30');
    await user.click(within(sheet).getByRole('button', { name: text('members.search') }));
    await waitFor(() => expect(router.state.location.search).toBe('?gender=woman&min_age=30'));
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
  });
});

import { searchResponseSchema } from '@amora/contracts';
import { screen, waitFor } from '@testing-library/react';
import { http } from 'msw';
import { describe, expect, it } from 'vitest';
import { contractJson } from '@/testing/contract';
import { settingsFixture, userFixture } from '@/testing/fixtures';
import { renderApp } from '@/testing/render';
import { server } from '@/testing/server';
import { text } from '@/testing/text';

/** The queries search.php was asked, as `gender=woman&country=DE`. */
function recordSearches(): string[] {
  const queries: string[] = [];
  server.use(
    http.get('*/api/search.php', ({ request }) => {
      queries.push(new URL(request.url).searchParams.toString());
      return contractJson(searchResponseSchema, {
        results: [],
        numResults: 0,
        numResults_capped: false,
        next_cursor: null,
        similar_results: [],
        similar_numResults: 0,
        widened: null,
      });
    }),
  );
  return queries;
}

const settings = settingsFixture({ search_fields: ['gender', 'country', 'countryregion', 'min_age', 'max_age'] });
/** A man who answered after signup that he wants to meet women and lives in Berlin. */
const member = userFixture({ search_defaults: { gender: 'woman', country: 'DE', countryregion: 'DE-BE' } });

describe('search defaults (spec §3 search state)', () => {
  it("an address without filters searches from the member's answers, and the form shows them", async () => {
    const queries = recordSearches();
    await renderApp('/members', { user: member, settings });
    await waitFor(() => expect(queries).toEqual(['gender=woman&country=DE&countryregion=DE-BE&widen=auto']));
    expect(screen.getByLabelText(text('profile.attributes.gender.label'))).toHaveValue('woman');
  });

  it('a search with every filter cleared shows everyone, and its address says so', async () => {
    const queries = recordSearches();
    const { user, router } = await renderApp('/members', { user: member, settings });
    await waitFor(() => expect(queries).toHaveLength(1));
    await user.selectOptions(screen.getByLabelText(text('profile.attributes.gender.label')), '');
    await user.selectOptions(screen.getByLabelText(text('profile.location.country')), '');
    await user.click(screen.getByRole('button', { name: text('members.search') }));
    await waitFor(() => expect(queries.at(-1)).toBe(''));
    expect(router.state.location.search).toBe('?gender=');
  });

  it('filters in the address win over the defaults', async () => {
    const queries = recordSearches();
    await renderApp('/members?country=NL', { user: member, settings });
    await waitFor(() => expect(queries).toEqual(['country=NL']));
  });

  it('only the fields the site searches by', async () => {
    const queries = recordSearches();
    await renderApp('/members', { user: member, settings: settingsFixture({ search_fields: ['gender'] }) });
    await waitFor(() => expect(queries).toEqual(['gender=woman']));
  });

  it('a default search that found few in the region says in one line that it shows the whole country, and its next page goes on there', async () => {
    const queries: string[] = [];
    const card = (id: number) => ({
      id,
      name: `Member ${id}`,
      age: 30,
      city: null,
      country: 'DE',
      thumb_url: null,
      is_fictional: false,
      is_premium: false,
    });
    server.use(
      http.get('*/api/search.php', ({ request }) => {
        const query = new URL(request.url).searchParams;
        queries.push(query.toString());
        const isFirst = !query.has('cursor');
        return contractJson(searchResponseSchema, {
          results: Array.from({ length: 24 }, (_, i) => card(isFirst ? 1000 - i : 900 - i)),
          numResults: isFirst ? 40 : -1,
          numResults_capped: false,
          next_cursor: isFirst ? '977' : null,
          similar_results: [],
          similar_numResults: 0,
          widened: 'country',
        });
      }),
    );
    const { user } = await renderApp('/members', { user: member, settings });
    expect(await screen.findByTestId('search-widened')).toHaveTextContent(text('members.widenedCountry', { region: 'Berlin' }));
    await user.click(screen.getByTestId('search-more'));
    await waitFor(() => expect(queries).toHaveLength(2));
    expect(queries[1]).toBe('gender=woman&country=DE&countryregion=DE-BE&widen=country&cursor=977');
  });

  it('a search the member set themselves is not widened, and says nothing of it', async () => {
    const queries = recordSearches();
    await renderApp('/members?country=DE&countryregion=DE-BE', { user: member, settings });
    await waitFor(() => expect(queries).toEqual(['country=DE&countryregion=DE-BE']));
    expect(screen.queryByTestId('search-widened')).toBeNull();
  });

  it('a visitor has no defaults: everyone', async () => {
    const queries = recordSearches();
    await renderApp('/members', { settings });
    await waitFor(() => expect(queries).toEqual(['']));
  });
});

import { type SearchCard, type SearchResponse, searchResponseSchema } from '@amora/contracts';
import { screen, within } from '@testing-library/react';
import { HttpResponse, http } from 'msw';
import { describe, expect, it } from 'vitest';
import { contractJson } from '@/testing/contract';
import { settingsFixture } from '@/testing/fixtures';
import { renderApp } from '@/testing/render';
import { server } from '@/testing/server';
import { text } from '@/testing/text';

function searchCard(id: number, overrides: Partial<SearchCard> = {}): SearchCard {
  return {
    id,
    name: `Member ${id}`,
    age: 20 + (id % 40),
    city: 'Utrecht',
    country: 'NL',
    thumb_url: `/photos/${id}-thumb.webp`,
    is_fictional: false,
    is_premium: false,
    ...overrides,
  };
}

function searchAnswer(page: Partial<SearchResponse>) {
  return contractJson(searchResponseSchema, {
    results: [],
    numResults: 0,
    numResults_capped: false,
    next_cursor: null,
    similar_results: [],
    similar_numResults: 0,
    ...page,
  });
}

describe('members page for a visitor', () => {
  it('refused search (logged_out_search off): shows its "Log in to search members" prompt, not a generic error', async () => {
    server.use(
      http.get('*/api/search.php', () =>
        HttpResponse.json({ error: 'authentication_required', message: 'Log in first', authentication_required: true }, { status: 403 }),
      ),
    );
    await renderApp('/members', { settings: settingsFixture({ logged_out_search: false, logged_out_search_trafficsource: false }) });
    const prompt = await screen.findByTestId('login-to-search');
    expect(prompt).toHaveTextContent(text('members.loginToSearch'));
    expect(within(prompt).getByRole('link', { name: text('nav.login') })).toHaveAttribute('href', '/login');
    expect(screen.queryByText(text('errors.generic'))).toBeNull();
  });

  it('allowed search: shows the cards', async () => {
    server.use(http.get('*/api/search.php', () => searchAnswer({ results: [searchCard(1)], numResults: 1 })));
    await renderApp('/members');
    expect(await screen.findByText(/Member 1, 21/)).toBeVisible();
    expect(screen.queryByTestId('login-to-search')).toBeNull();
  });
});

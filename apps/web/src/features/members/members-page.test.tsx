import { memberResponseSchema, type SearchCard, type SearchResponse, searchResponseSchema } from '@amora/contracts';
import { screen, waitFor, within } from '@testing-library/react';
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
    widened: null,
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

/** Three pages of two cards: page n answers the cursor `p{n}` (the first, no cursor). Returns the cursors asked. */
function threePages(): (string | null)[] {
  const cursors: (string | null)[] = [];
  server.use(
    http.get('*/api/search.php', ({ request }) => {
      const cursor = new URL(request.url).searchParams.get('cursor');
      cursors.push(cursor);
      const n = cursor ? Number(cursor.slice(1)) : 1;
      return searchAnswer({
        results: [searchCard(n * 10 + 1), searchCard(n * 10 + 2)],
        numResults: 6,
        next_cursor: n < 3 ? `p${n + 1}` : null,
      });
    }),
  );
  return cursors;
}

/** member.php held until the test lets it answer, as a slow server would. */
function holdMember() {
  let release: () => void = () => {};
  const released = new Promise<void>((resolve) => {
    release = resolve;
  });
  server.use(
    http.get('*/api/member.php', async ({ request }) => {
      await released;
      const id = Number(new URL(request.url).searchParams.get('id'));
      const { thumb_url: _, ...card } = searchCard(id);
      return contractJson(memberResponseSchema, {
        profile: {
          ...card,
          region: null,
          about: 'Loves long walks.',
          attributes: {},
          interests: [],
          photos: [{ id: 90, is_locked: false, url: `/photos/${id}.webp`, thumb_url: `/photos/${id}-thumb.webp` }],
          hidden_photo_count: 0,
          is_blocked_by_me: false,
          is_own: false,
        },
        related: [],
      });
    }),
  );
  return { release };
}

describe('search state (spec §3: pages with their number, other cached profiles)', () => {
  it('keeps the number of pages shown in the address', async () => {
    threePages();
    const { user, router } = await renderApp('/members');
    await screen.findByText(/Member 11,/);
    await user.click(screen.getByTestId('search-more'));
    expect(await screen.findByText(/Member 21,/)).toBeVisible();
    expect(router.state.location.search).toBe('?page=2');
    expect(screen.getByTestId('search-more')).toHaveTextContent(text('members.more', { page: 3 }));
  });

  it('an address with page=2 (back once the cache let the search go, or a reload) shows both pages again', async () => {
    const cursors = threePages();
    await renderApp('/members?page=2');
    expect(await screen.findByText(/Member 22,/)).toBeVisible();
    expect(screen.getByText(/Member 11,/)).toBeVisible();
    expect(cursors).toEqual([null, 'p2']);
    expect(screen.getByTestId('search-more')).toHaveTextContent(text('members.more', { page: 3 }));
  });

  it('the profile opened from a card paints at once with its photo, name and age; back returns to the same page', async () => {
    threePages();
    const member = holdMember();
    const { user, router } = await renderApp('/members');
    await screen.findByText(/Member 11,/);
    await user.click(screen.getByTestId('search-more'));
    await user.click(await screen.findByText(/Member 21,/));

    const profile = await screen.findByTestId('member-profile');
    expect(within(profile).getByRole('heading', { level: 1, name: 'Member 21, 41' })).toBeVisible();
    expect(within(profile).getByRole('img', { name: text('member.photoOf', { name: 'Member 21' }) })).toHaveAttribute(
      'src',
      '/photos/21-thumb.webp',
    );
    expect(profile).toHaveAttribute('aria-busy', 'true');
    expect(screen.queryByTestId('like-button')).toBeNull();

    member.release();
    expect(await within(profile).findByText('Loves long walks.')).toBeVisible();
    expect(profile).toHaveAttribute('aria-busy', 'false');
    expect(within(profile).getByRole('img', { name: text('member.photoOf', { name: 'Member 21' }) })).toHaveAttribute(
      'src',
      '/photos/21.webp',
    );

    await router.navigate(-1);
    await waitFor(() => expect(router.state.location.search).toBe('?page=2'));
    expect(await screen.findByText(/Member 22,/)).toBeVisible();
    expect(screen.getByText(/Member 12,/)).toBeVisible();
  });
});

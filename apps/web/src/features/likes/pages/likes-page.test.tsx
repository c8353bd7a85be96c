import { screen, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { likesFixture, userFixture } from '@/testing/fixtures';
import { renderApp } from '@/testing/render';
import { text } from '@/testing/text';

const card = (id: number, name: string) => ({
  id,
  name,
  age: 30,
  city: 'Utrecht',
  country: 'NL',
  thumb_url: null,
  is_fictional: false,
  is_premium: false,
});

describe('likes pages', () => {
  it('the open tab is marked, the new likes are counted on their tab, and a new like stands out', async () => {
    const likes = likesFixture({ liked_by: [{ ...card(3, 'Noor'), is_match: false, like_new: true }], new_likes: 1 });
    await renderApp('/likes', { user: userFixture(), likes });
    const likesCard = await screen.findByTestId('likes-card');
    const tab = screen.getByTestId('likes-tab-received');
    expect(tab).toHaveAttribute('aria-current', 'page');
    expect(tab).toHaveAccessibleName(`${text('likes.tabs.received')} ${text('likes.newLikes', { count: 1 })}`);
    expect(screen.getByTestId('likes-tab-given')).not.toHaveAttribute('aria-current');
    expect(likesCard).toHaveAttribute('href', '/likes/m/3');
    expect(within(likesCard).getByRole('heading', { name: 'Noor, 30' })).toBeVisible();
    expect(within(likesCard).getByTestId('like-new-badge')).toHaveTextContent(text('likes.new'));
    expect(within(likesCard).getByTestId('photo-placeholder')).toBeInTheDocument();
  });

  it('an empty tab says why and offers the search and the swipe game', async () => {
    await renderApp('/likes/mutual', { user: userFixture(), likes: likesFixture() });
    const empty = await screen.findByTestId('likes-empty');
    expect(within(empty).getByRole('heading', { name: text('likes.empty.mutual') })).toBeVisible();
    expect(within(empty).getByRole('link', { name: text('likes.browse') })).toHaveAttribute('href', '/members');
    expect(within(empty).getByRole('link', { name: text('members.swipeGame') })).toHaveAttribute('href', '/swipe-game');
  });
});

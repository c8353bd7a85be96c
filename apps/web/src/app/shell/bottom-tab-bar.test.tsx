import { screen, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { DefaultLayout } from '@/app/layouts/default-layout';
import type { RouteHandle } from '@/shared/site/use-route-name';
import { runOnPhone } from '@/testing/browser';
import { likesFixture, userFixture } from '@/testing/fixtures';
import { renderInRoute } from '@/testing/render';
import { BottomTabBar } from './bottom-tab-bar';

const tabBar = () => screen.getByRole('navigation', { name: 'Main navigation' });

describe('bottom tab bar', () => {
  const cases: [NonNullable<RouteHandle['name']>, string, string | null][] = [
    ['members', '/members', 'Search'],
    ['members-id', '/members/12', 'Search'],
    ['likes', '/likes', 'Likes'],
    ['likes-type', '/likes/matches', 'Likes'],
    ['likes-m-id', '/likes/m/12', 'Likes'],
    ['chats', '/chats', 'Messages'],
    ['chats-id', '/chats/3', 'Messages'],
    ['members-id-chat', '/members/12/chat', 'Messages'],
    ['profile', '/profile', null],
  ];
  for (const [routeName, path, activeTab] of cases) {
    it(`marks ${activeTab ?? 'no tab'} as open on ${path}`, async () => {
      await renderInRoute(<BottomTabBar />, { path, routeName, user: userFixture() });
      const links = within(tabBar()).getAllByRole('link');
      expect(links.map((l) => l.textContent)).toEqual(['Search', 'Messages', 'Likes']);
      const current = links.filter((l) => l.getAttribute('aria-current') === 'page').map((l) => l.textContent);
      expect(current).toEqual(activeTab ? [activeTab] : []);
    });
  }

  it('links in the page language and shows the new likes on the Likes tab', async () => {
    await renderInRoute(<BottomTabBar />, {
      path: '/de/members',
      routeName: 'members',
      user: userFixture(),
      likes: likesFixture({ new_likes: 120 }),
    });
    const likes = await screen.findByTestId('nav-likes');
    expect(likes).toHaveAttribute('href', '/de/likes');
    expect(await within(likes).findByTestId('likes-badge')).toHaveTextContent('99+');
    expect(screen.getByTestId('nav-search')).toHaveAttribute('href', '/de/members');
  });

  it('replaces the top navigation for members on phones; desktop keeps the links in the top bar', async () => {
    runOnPhone();
    const phone = await renderInRoute(<DefaultLayout />, { path: '/members', routeName: 'members', user: userFixture() });
    expect(screen.getByTestId('tab-bar')).toBeInTheDocument();
    expect(within(screen.getByTestId('top-bar')).queryByTestId('nav-search')).toBeNull();
    expect(screen.getAllByTestId('nav-likes')).toHaveLength(1);
    phone.unmount();
  });

  it('is not there for visitors, nor on desktop', async () => {
    runOnPhone();
    const visitor = await renderInRoute(<DefaultLayout />, { path: '/', routeName: 'index', user: null });
    expect(screen.queryByTestId('tab-bar')).toBeNull();
    visitor.unmount();
  });

  it('on desktop the member links stay in the top bar, the open one marked', async () => {
    await renderInRoute(<DefaultLayout />, { path: '/likes', routeName: 'likes', user: userFixture() });
    expect(screen.queryByTestId('tab-bar')).toBeNull();
    const top = screen.getByTestId('top-bar');
    expect(within(top).getByTestId('nav-likes')).toHaveAttribute('aria-current', 'page');
    expect(within(top).getByTestId('nav-search')).not.toHaveAttribute('aria-current');
    expect(within(top).getByTestId('nav-search')).toHaveTextContent('Search members');
  });
});

import { screen, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { DefaultLayout } from '@/app/layouts/default-layout';
import type { RouteHandle } from '@/shared/site/use-route-name';
import { runOnPhone } from '@/testing/browser';
import { likesFixture, userFixture } from '@/testing/fixtures';
import { renderInRoute } from '@/testing/render';
import { text } from '@/testing/text';
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
    ['premium', '/premium', 'Premium'],
    ['credits-id-paymentmethod', '/credits/2/ideal', 'Premium'],
    ['profile', '/profile', null],
  ];
  for (const [routeName, path, activeTab] of cases) {
    it(`marks ${activeTab ?? 'no tab'} as open on ${path}`, async () => {
      await renderInRoute(<BottomTabBar />, { path, routeName, user: userFixture({ credits: 20 }) });
      const links = within(tabBar()).getAllByRole('link');
      expect(links.map((l) => l.textContent)).toEqual(['Search', 'Messages', 'Likes', 'Premium']);
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

  it('offers Get Premium to a member who has not paid and Credits to one who has, with the credits badge at 10 or fewer', async () => {
    runOnPhone();
    const free = await renderInRoute(<BottomTabBar />, { path: '/members', routeName: 'members', user: userFixture({ credits: 11 }) });
    expect(screen.getByTestId('nav-credits')).toHaveAttribute('href', '/premium');
    expect(screen.getByTestId('nav-credits')).toHaveTextContent('Premium');
    expect(screen.queryByTestId('credits-badge')).toBeNull();
    free.unmount();

    const paid = await renderInRoute(<BottomTabBar />, {
      path: '/members',
      routeName: 'members',
      user: userFixture({ credits: 4, paid_user: true }),
    });
    const credits = screen.getByTestId('nav-credits');
    expect(credits).toHaveAttribute('href', '/credits');
    expect(credits).toHaveTextContent('Credits');
    const badge = within(credits).getByTestId('credits-badge');
    expect(badge).toHaveAttribute('data-level', 'low');
    expect(badge).toHaveTextContent(text('credits.badge', { count: 4 }));
    paid.unmount();

    await renderInRoute(<BottomTabBar />, { path: '/members', routeName: 'members', user: userFixture({ credits: 0, paid_user: true }) });
    expect(screen.getByTestId('credits-badge')).toHaveAttribute('data-level', 'empty');
  });

  it('draws the balance as a muted count, never as a red notification badge, even at 0', async () => {
    runOnPhone();
    await renderInRoute(<BottomTabBar />, { path: '/members', routeName: 'members', user: userFixture({ credits: 0, paid_user: true }) });
    const badge = screen.getByTestId('credits-badge');
    expect(badge).toHaveClass('credits-pill');
    expect(badge).not.toHaveClass('count-badge');
    expect(badge.className).not.toMatch(/danger|warning/);
    expect(badge).toHaveTextContent(text('credits.badge', { count: 0 }));
  });

  it('on desktop the top bar says Get Premium or Credits in full', async () => {
    await renderInRoute(<DefaultLayout />, { path: '/premium', routeName: 'premium', user: userFixture() });
    const item = within(screen.getByTestId('top-bar')).getByTestId('nav-credits');
    expect(item).toHaveTextContent(text('credits.navPremium'));
    expect(item).toHaveAttribute('aria-current', 'page');
  });
});

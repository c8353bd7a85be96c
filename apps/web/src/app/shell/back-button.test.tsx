import { act, screen } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import type { RouteHandle } from '@/shared/site/use-route-name';
import { runAsInstalledApp } from '@/testing/browser';
import { userFixture } from '@/testing/fixtures';
import { renderInRoute } from '@/testing/render';
import { text } from '@/testing/text';
import { TopBar } from './top-bar';

type RouteName = NonNullable<RouteHandle['name']>;

const backButton = () => screen.queryByRole('button', { name: text('nav.back') });

/** The top bar on a page of `routeName` at `from`, then the member goes on to `to` (a page of the same route). */
async function topBarAfterNavigating(routeName: RouteName, from: string, to: string) {
  const view = await renderInRoute(<TopBar />, { path: from, routeName, user: userFixture() });
  await screen.findByTestId('top-bar');
  await act(() => view.router.navigate(to));
  return view;
}

const WITH_BACK: [RouteName, string, string][] = [
  ['members-id', '/members/5', '/members/6'],
  ['likes', '/likes/new', '/likes'],
  ['likes-type', '/likes', '/likes/matches'],
  ['likes-m-id', '/likes/m/5', '/likes/m/6'],
  ['credits', '/premium', '/credits'],
  ['credits-id-paymentmethod', '/credits', '/credits/3/paymentmethod'],
  ['credits-repeat-order', '/credits', '/credits/repeat-order'],
];

describe('back button of the top bar (spec §2: installed app, with history, on members-id, likes and credits)', () => {
  it.each(WITH_BACK)('shows on %s in the installed app after going there from another page', async (routeName, from, to) => {
    runAsInstalledApp();
    await topBarAfterNavigating(routeName, from, to);
    expect(backButton()).toBeVisible();
  });

  it('takes the member back to the page before', async () => {
    runAsInstalledApp();
    const { router, user } = await topBarAfterNavigating('members-id', '/members/5', '/members/6');
    await user.click(backButton() as HTMLElement);
    expect(router.state.location.pathname).toBe('/members/5');
  });

  it('does not show on the page the app started on: there is nowhere to go back to', async () => {
    runAsInstalledApp();
    await renderInRoute(<TopBar />, { path: '/members/5', routeName: 'members-id', user: userFixture() });
    await screen.findByTestId('top-bar');
    expect(backButton()).toBeNull();
  });

  it('does not show in a browser tab, which has its own back button', async () => {
    await topBarAfterNavigating('members-id', '/members/5', '/members/6');
    expect(screen.getByTestId('top-bar')).toBeVisible();
    expect(backButton()).toBeNull();
  });

  it.each([
    ['members', '/members/5', '/members'],
    ['profile', '/members', '/profile'],
    ['settings', '/members', '/settings'],
    ['transactions-id', '/credits', '/transactions/7'],
  ] as [RouteName, string, string][])('does not show on %s, even in the installed app with history', async (routeName, from, to) => {
    runAsInstalledApp();
    await topBarAfterNavigating(routeName, from, to);
    expect(screen.getByTestId('top-bar')).toBeVisible();
    expect(backButton()).toBeNull();
  });

  it('shows to a visitor too, on a profile they may see', async () => {
    runAsInstalledApp();
    const view = await renderInRoute(<TopBar />, { path: '/', routeName: 'members-id' });
    await screen.findByTestId('top-bar');
    await act(() => view.router.navigate('/members/5'));
    expect(backButton()).toBeVisible();
  });
});

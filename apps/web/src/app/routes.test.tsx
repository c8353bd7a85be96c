import { ROUTES, ROUTES_WITHOUT_PAGE, type RouteName } from '@amora/contracts/core';
import { cleanup, screen } from '@testing-library/react';
import { createMemoryRouter, type RouteObject } from 'react-router';
import { describe, expect, it } from 'vitest';
import type { RouteHandle } from '@/shared/site/use-route-name';
import { renderApp } from '@/testing/render';
import { text } from '@/testing/text';
import { buildRoutes, lazyLocaleRoutes } from './routes';

const routeName = (router: ReturnType<typeof createMemoryRouter>) =>
  (router.state.matches.at(-1)?.route.handle as RouteHandle | undefined)?.name;
const prefixes = (router: ReturnType<typeof createMemoryRouter>) => router.routes.map((r) => r.path);

describe('the route table a browser starts with', () => {
  it('holds the tree of the page language only, and takes in another language when a link first leads there', async () => {
    const { routes, patchRoutesOnNavigation } = lazyLocaleRoutes('/de/pages/terms');
    const router = createMemoryRouter(routes, { initialEntries: ['/de/complaintsx/1'], patchRoutesOnNavigation });
    expect(prefixes(router)).toEqual(['/de']);

    await router.navigate('/de');
    expect(routeName(router)).toBe('index');
    // The default language has no prefix: a path without one finds no match yet, then its tree.
    await router.navigate('/');
    expect(routeName(router)).toBe('index');
    expect(prefixes(router)).toEqual(['/de', '/']);
    // A language reached only through the default tree's catch-all still gets its own tree.
    await router.navigate('/fr/unknown/page');
    expect(routeName(router)).toBe('not-found');
    expect(router.state.location.pathname).toBe('/fr/unknown/page');
    expect(prefixes(router)).toEqual(['/de', '/', '/fr']);
    await router.navigate('/fr');
    expect(routeName(router)).toBe('index');
    // Each tree is added once.
    await router.navigate('/de');
    await router.navigate('/fr');
    expect(prefixes(router)).toEqual(['/de', '/', '/fr']);
    router.dispose();
  });

  it('matches what the whole table matches, for every language', async () => {
    for (const path of ['/', '/nl', '/sv/does/not/exist', '/pl']) {
      const whole = createMemoryRouter(buildRoutes(), { initialEntries: [path] });
      const { routes, patchRoutesOnNavigation } = lazyLocaleRoutes('/');
      const lazy = createMemoryRouter(routes, { initialEntries: ['/'], patchRoutesOnNavigation });
      await lazy.navigate(path);
      expect(routeName(lazy), path).toBe(routeName(whole));
      whole.dispose();
      lazy.dispose();
    }
  });
});

describe('the route table and spec §2', () => {
  /** Every route name the table holds, in any layout. */
  const namesIn = (routes: RouteObject[]): string[] =>
    routes.flatMap((route) => [
      ...((route.handle as RouteHandle | undefined)?.name ? [(route.handle as RouteHandle).name as string] : []),
      ...namesIn(route.children ?? []),
    ]);

  it('has a page for every route but those the server answers 404 for (not built yet), and none of those', () => {
    const names = new Set(namesIn(buildRoutes()));
    const expected = (Object.keys(ROUTES) as RouteName[]).filter(
      (name) => !ROUTES_WITHOUT_PAGE.includes(name) && !(name.startsWith('pages-') && name !== 'pages-terms'),
    );
    for (const name of expected) expect(names.has(name), name).toBe(true);
    for (const name of ROUTES_WITHOUT_PAGE) expect(names.has(name), name).toBe(false);
  });
});

describe('landers', () => {
  it('shows the lander for an existing slug and the not-found page for an unknown one', async () => {
    await renderApp('/landers/gallery/milf-eng');
    expect(await screen.findByTestId('lander-gallery')).toBeVisible();
    cleanup();
    await renderApp('/landers/gallery/no-such-slug');
    expect(await screen.findByRole('heading', { name: text('errors.notFound') })).toBeVisible();
    expect(screen.queryByTestId('lander-gallery')).toBeNull();
  });
});

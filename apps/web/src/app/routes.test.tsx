import { createMemoryRouter } from 'react-router';
import { describe, expect, it } from 'vitest';
import type { RouteHandle } from '@/shared/site/use-route-name';
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

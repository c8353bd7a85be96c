import type { Locale, Settings, User } from '@amora/contracts/core';
import type { QueryClient } from '@tanstack/react-query';

/** What a route's data declaration is given: the page's address and the member it is rendered for. */
interface RouteDataArgs {
  /** The cache the page renders from: a declaration fills it with `queryClient.prefetchQuery(someQuery(…))`. */
  queryClient: QueryClient;
  /** The route's path parameters (`/members/:id` → `{ id }`). */
  params: Readonly<Record<string, string | undefined>>;
  /** The address's query (the search's filters). */
  search: URLSearchParams;
  user: User;
  settings: Settings;
  locale: Locale;
}

/**
 * The data a page's first screen shows, declared on its route (app/routes.tsx, `handle.data`) with the same query
 * options its components use (each feature's `api/`): the server loads it through the member's own API, then
 * renders the page once (entry-server.tsx). A page route with a declaration is rendered on the server for a
 * member; the data of the layouts above it (the members' shell) is loaded with it. Resolves when the cache holds
 * everything; a query that fails is left for the browser.
 */
export type RouteData = (args: RouteDataArgs) => Promise<unknown>;

/**
 * The data of a page the server renders for anyone, visitors included (the landers): the same declaration, given
 * no member. The server renders such a page whoever asks for it (entry-server.tsx prerenderLander).
 */
export type VisitorRouteData = (args: Omit<RouteDataArgs, 'user'>) => Promise<unknown>;

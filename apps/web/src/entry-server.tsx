import { AsyncLocalStorage } from 'node:async_hooks';
import {
  ENTRY_WARNING_STORAGE_KEY,
  type LanderData,
  type Locale,
  type MemberLandingProfile,
  type Settings,
  TIME_ZONE_COOKIE,
  type User,
} from '@amora/contracts/core';
import { type DehydratedState, dehydrate, type Query, QueryClient, QueryClientProvider } from '@tanstack/react-query';
import i18next from 'i18next';
import { StrictMode, Suspense } from 'react';
import { renderToString } from 'react-dom/server';
import { I18nextProvider } from 'react-i18next';
import { createStaticHandler, createStaticRouter, matchRoutes, type RouteObject, StaticRouterProvider } from 'react-router';
import { localeRoutes } from './app/routes';
import { loadMemberShell } from './app/shell/member-parts';
import { LANDER_DESIGNS } from './features/landers/designs';
import { LanderApp } from './features/landers/lander-app';
import { landerNameOf, landerQueryKey } from './features/landers/lander-types';
import { MEMBER_LANDING_LAYOUTS } from './features/landers/members';
import { MemberLandingApp } from './features/landers/members/member-landing-app';
import {
  landingProfileIdOf,
  type MemberLandingLayout,
  memberLandingLayoutOf,
  memberLandingQueryKey,
} from './features/landers/members/member-landing-types';
import { setApiTransport } from './lib/api-client';
import { cookieOf } from './lib/cookies';
import { isTimeZone } from './lib/format-time';
import { I18N_OPTIONS } from './lib/i18n-options';
import { type PageRequest, PageRequestProvider } from './lib/page-request';
import { userQueryKey } from './shared/session/user';
import { settingsQueryKey } from './shared/site/api/get-settings';
import type { RouteData, VisitorRouteData } from './shared/site/route-data';
import type { RouteHandle } from './shared/site/use-route-name';

/** What the server knows of a visitor's page: the same data it writes into the page's data block. */
export interface PrerenderInput {
  /** The page's address: path and query. */
  url: string;
  locale: Locale;
  settings: Settings;
  messages: Record<string, unknown>;
  /** The catalogues of the other namespaces (pages, payments) in the page's language: a page that uses one shows its words. */
  catalogues?: Record<string, Record<string, unknown>>;
  /** The visitor's cookies that the first screen depends on, as a Cookie header (the entry warning's dismissal). */
  cookies?: string;
}

/**
 * The first screen of a visitor's page as HTML (apps/server/src/plugins/web.ts puts it into the page's root
 * element), rendered by the app's own components from the data the page carries, so the browser paints it
 * before any script has run; the app then hydrates it (main.tsx). Null when the route redirects or fails: the
 * page then comes with an empty root, as before.
 */
export async function prerender({ url, locale, settings, messages, cookies = '' }: PrerenderInput): Promise<string | null> {
  const page = await preparePage({ url, locale, settings, messages, user: null });
  if (!page) return null;
  try {
    return page.render({ cookies });
  } finally {
    page.queryClient.clear();
  }
}

/**
 * What a render starts from: a query cache holding the settings and the member (null for a visitor), i18next in
 * the page's language and the matched routes (their lazy modules loaded); `render` renders the page from them as
 * they stand. Null when the route redirects or fails.
 */
async function preparePage({ url, locale, settings, messages, catalogues, user }: Omit<PrerenderInput, 'cookies'> & { user: User | null }) {
  const queryClient = new QueryClient({ defaultOptions: { queries: { retry: false, staleTime: Number.POSITIVE_INFINITY } } });
  queryClient.setQueryData(settingsQueryKey(locale), settings);
  queryClient.setQueryData(userQueryKey, user);
  const i18n = i18next.createInstance();
  await i18n.init({ ...I18N_OPTIONS, lng: locale, resources: { [locale]: { ...catalogues, common: messages } }, initAsync: false });
  const handler = createStaticHandler([localeRoutes(locale)]);
  const context = await handler.query(new Request(new URL(url, 'http://prerender.invalid')));
  if (context instanceof Response || context.errors) return null;
  const render = (request: Partial<PageRequest>) =>
    renderToString(
      <StrictMode>
        <PageRequestProvider value={request}>
          <I18nextProvider i18n={i18n}>
            <QueryClientProvider client={queryClient}>
              <Suspense fallback={null}>
                <StaticRouterProvider router={createStaticRouter(handler.dataRoutes, context)} context={context} hydrate={false} />
              </Suspense>
            </QueryClientProvider>
          </I18nextProvider>
        </PageRequestProvider>
      </StrictMode>,
    );
  const handles = context.matches.map((match) => match.route.handle as RouteHandle | undefined);
  return { queryClient, render, handles, params: context.matches.at(-1)?.params ?? {} };
}

/**
 * A member's page: what the server renders it from, beyond a visitor's. `api` answers the app's calls as the API
 * answers that member (the server's own routes, never the network); `phone` is the server's guess of the
 * screen (the browser's client hints or user agent), so the first screen has the layout the browser will show.
 */
export interface MemberPrerenderInput extends PrerenderInput {
  user: User;
  api: (path: string, init: RequestInit) => Promise<Response>;
  phone: boolean;
}

/** A member's first screen and the answers it was rendered from, which the app starts from in the browser. */
export interface MemberPrerender {
  html: string;
  queries: DehydratedState;
  /**
   * Queries the page asked for that its route's data did not load (their hashes): they ship loading. The
   * render test (entry-server.test.tsx) fails on any; the server logs them.
   */
  undeclared: string[];
}

/** The calls of the data being loaded (loads of several members' pages may interleave while they wait for answers). */
const calls = new AsyncLocalStorage<MemberPrerenderInput['api']>();
setApiTransport((url, init) => {
  const api = calls.getStore();
  if (!api) return Promise.reject(new Error(`not called while rendering: ${url.pathname} (declare it in the route's data)`));
  return api(url.pathname + url.search, init);
});

/** Each language's route table, made once: what rendersForMember matches against. */
const routeTables = new Map<Locale, RouteObject[]>();

/**
 * The data declaration of the page at `url` (its deepest route with a name: `handle.data` in app/routes.tsx), if
 * it has one. The server renders a member's page only when its route declares one.
 */
function routeTableOf(locale: Locale): RouteObject[] {
  let routes = routeTables.get(locale);
  if (!routes) {
    routes = [localeRoutes(locale)];
    routeTables.set(locale, routes);
  }
  return routes;
}

function declaredPageData(url: string, locale: Locale): RouteData | undefined {
  const matches = matchRoutes(routeTableOf(locale), new URL(url, 'http://prerender.invalid').pathname) ?? [];
  const handle = matches.map((match) => match.route.handle as RouteHandle | undefined).findLast((h) => h?.name);
  // A lander is rendered as the landers' own page, for anyone (prerenderLander).
  const isLanderPage = handle?.name === 'landers' || handle?.name === 'landers-tinderswipe' || memberLandingLayoutOf(handle?.name) !== null;
  return isLanderPage ? undefined : handle?.data;
}

/** Whether the server renders the page at `url` for a member: its route declares the data its first screen shows. */
export function rendersForMember(url: string, locale: Locale): boolean {
  return declaredPageData(url, locale) !== undefined;
}

/**
 * The first screen of a member's page (a page whose route declares its data: the search, a profile, the swipe
 * game) with the answers it shows: the data declared by the page's route and the layouts above it is loaded
 * through the member's own API (`api`), then the page is rendered once, and the answers go with the page so the
 * app's first render in the browser shows the same. A query that fails is left out: both sides then show it
 * loading. Null when the route declares no data, redirects or fails.
 */
export async function prerenderMember(input: MemberPrerenderInput): Promise<MemberPrerender | null> {
  const { url, locale, settings, messages, catalogues, cookies = '', user, api, phone } = input;
  if (!rendersForMember(url, locale)) return null;
  const [, page] = await Promise.all([loadMemberShell(), preparePage({ url, locale, settings, messages, catalogues, user })]);
  if (!page) return null;
  const { queryClient } = page;
  const search = new URL(url, 'http://prerender.invalid').searchParams;
  const declared = page.handles.flatMap((handle) => (handle?.data ? [handle.data] : []));
  try {
    await calls.run(api, () =>
      Promise.all(declared.map((data) => data({ queryClient, params: page.params, search, user, settings, locale }))),
    );
    // A failed answer is left to the browser: both sides show it loading.
    const failed = new Set(
      queryClient
        .getQueryCache()
        .findAll({ predicate: (query) => query.state.status === 'error' })
        .map((q) => q.queryHash),
    );
    queryClient.removeQueries({ predicate: (query) => failed.has(query.queryHash) });
    // The browser's time zone, as its cookie says: times on the page read as the app will show them.
    const zone = cookieOf(cookies, TIME_ZONE_COOKIE);
    const html = page.render({ cookies, phone, timeZone: zone && isTimeZone(zone) ? zone : undefined });
    if (html.includes('<!--$!-->')) return null;
    // The settings and the member come with the page's data block already.
    const queries = dehydrate(queryClient, {
      shouldDehydrateQuery: (query) =>
        query.state.status === 'success' &&
        query.queryHash !== JSON.stringify(userQueryKey) &&
        query.queryKey[0] !== settingsQueryKey(locale)[0],
    });
    const undeclared = queryClient
      .getQueryCache()
      .getAll()
      .filter((query) => isWaiting(query) && !failed.has(query.queryHash))
      .map((query) => query.queryHash);
    return { html, queries, undeclared };
  } finally {
    queryClient.clear();
  }
}

/** A query the render asked for (enabled) that has no answer: the page shows it loading. */
function isWaiting(query: Query): boolean {
  return (
    query.state.status === 'pending' && query.options.queryFn !== undefined && (query.options as { enabled?: unknown }).enabled !== false
  );
}

/** A lander's page (any visitor, or a member): the API as it answers this request, and who asks. */
export interface LanderPrerenderInput extends PrerenderInput {
  user: User | null;
  api: (path: string, init: RequestInit) => Promise<Response>;
}

/**
 * A lander's first screen (/landers/…, served as the landers' own small page, apps/web/src/app/lander) and the
 * answers it shows: the data its route declares (`handle('landers', landerPageData)` in app/routes.tsx) loaded
 * through the API as it answers this visitor, then the lander (its layout and design, features/landers) rendered
 * once. Null when the path is no lander or its data could not be had: the page then renders in the browser.
 */
export async function prerenderLander(input: LanderPrerenderInput): Promise<MemberPrerender | null> {
  const { url, locale, settings, messages, catalogues, cookies = '', user, api } = input;
  const address = new URL(url, 'http://prerender.invalid');
  const matches = matchRoutes(routeTableOf(locale), address.pathname) ?? [];
  const handle = matches.map((match) => match.route.handle as RouteHandle | undefined).findLast((h) => h?.name);
  const params = matches.at(-1)?.params ?? {};
  // A profile's landing (members-id-landing, -landing2-slug, -landing3-slug): the same page, its own tree.
  const memberLayout = memberLandingLayoutOf(handle?.name);
  if (memberLayout && handle?.data) return prerenderMemberLanding(input, memberLayout, handle.data as VisitorRouteData, params);
  const name = landerNameOf(params);
  if (!name || (handle?.name !== 'landers' && handle?.name !== 'landers-tinderswipe') || !handle.data) return null;
  const declared = handle.data as VisitorRouteData;
  const queryClient = new QueryClient({ defaultOptions: { queries: { retry: false, staleTime: Number.POSITIVE_INFINITY } } });
  try {
    const [, Design] = await Promise.all([
      calls.run(api, () => declared({ queryClient, params, search: address.searchParams, settings, locale })),
      LANDER_DESIGNS[name](),
    ]);
    const data = queryClient.getQueryData<LanderData>(landerQueryKey(name, params.slug, address.searchParams.get('forced_country')));
    if (!data) return null;
    const i18n = i18next.createInstance();
    await i18n.init({ ...I18N_OPTIONS, lng: locale, resources: { [locale]: { ...catalogues, common: messages } }, initAsync: false });
    const html = renderToString(
      <StrictMode>
        <I18nextProvider i18n={i18n}>
          <LanderApp
            site={{ settings, locale }}
            name={name}
            data={data}
            Design={Design}
            isLoggedIn={user !== null}
            isEntryWarningDismissed={cookieOf(cookies, ENTRY_WARNING_STORAGE_KEY) !== null}
            onSignup={() => {}}
          />
        </I18nextProvider>
      </StrictMode>,
    );
    const queries = dehydrate(queryClient, { shouldDehydrateQuery: (query) => query.state.status === 'success' });
    return { html, queries, undeclared: [] };
  } finally {
    queryClient.clear();
  }
}

/**
 * A member landing's first screen (/members/{id}/landing, landing2, landing3; the landers' own page): the profile
 * its route declares (`memberLandingPageData`), then the landing rendered once, its call to action carrying the
 * address's query. Null when the profile is not to be had (the server answers such an address with the 404 page).
 */
async function prerenderMemberLanding(
  input: LanderPrerenderInput,
  layout: MemberLandingLayout,
  declared: VisitorRouteData,
  params: Readonly<Record<string, string | undefined>>,
): Promise<MemberPrerender | null> {
  const { url, locale, settings, messages, catalogues, cookies = '', user, api } = input;
  const address = new URL(url, 'http://prerender.invalid');
  const profileId = landingProfileIdOf(params.id);
  if (profileId === null) return null;
  const queryClient = new QueryClient({ defaultOptions: { queries: { retry: false, staleTime: Number.POSITIVE_INFINITY } } });
  try {
    const [, Layout] = await Promise.all([
      calls.run(api, () => declared({ queryClient, params, search: address.searchParams, settings, locale })),
      MEMBER_LANDING_LAYOUTS[layout](),
    ]);
    const profile = queryClient.getQueryData<MemberLandingProfile>(memberLandingQueryKey(profileId));
    if (!profile) return null;
    const i18n = i18next.createInstance();
    await i18n.init({ ...I18N_OPTIONS, lng: locale, resources: { [locale]: { ...catalogues, common: messages } }, initAsync: false });
    const html = renderToString(
      <StrictMode>
        <I18nextProvider i18n={i18n}>
          <MemberLandingApp
            site={{ settings, locale }}
            layout={layout}
            profile={profile}
            query={address.search}
            Layout={Layout}
            isLoggedIn={user !== null}
            isEntryWarningDismissed={cookieOf(cookies, ENTRY_WARNING_STORAGE_KEY) !== null}
          />
        </I18nextProvider>
      </StrictMode>,
    );
    const queries = dehydrate(queryClient, { shouldDehydrateQuery: (query) => query.state.status === 'success' });
    return { html, queries, undeclared: [] };
  } finally {
    queryClient.clear();
  }
}

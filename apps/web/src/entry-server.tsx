import { AsyncLocalStorage } from 'node:async_hooks';
import { type Locale, type Settings, TIME_ZONE_COOKIE, type User } from '@amora/contracts/core';
import { type DehydratedState, dehydrate, QueryClient, QueryClientProvider } from '@tanstack/react-query';
import i18next from 'i18next';
import { StrictMode, Suspense } from 'react';
import { renderToString } from 'react-dom/server';
import { I18nextProvider } from 'react-i18next';
import { createStaticHandler, createStaticRouter, StaticRouterProvider } from 'react-router';
import { localeRoutes } from './app/routes';
import { loadMemberShell } from './app/shell/member-parts';
import { setApiTransport } from './lib/api-client';
import { readCookie, withServerCookies } from './lib/cookies';
import { withServerTimeZone } from './lib/format-time';
import { I18N_OPTIONS } from './lib/i18n-options';
import { withServerPhone } from './lib/use-media-query';
import { userQueryKey } from './shared/session/user';
import { settingsQueryKey } from './shared/site/api/get-settings';

/** What the server knows of a visitor's page: the same data it writes into the page's data block. */
export interface PrerenderInput {
  /** The page's address: path and query. */
  url: string;
  locale: Locale;
  settings: Settings;
  messages: Record<string, unknown>;
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
    return withServerCookies(cookies, page.render);
  } finally {
    page.queryClient.clear();
  }
}

/**
 * What both renders start from: a query cache holding the settings and the member (null for a visitor), i18next
 * in the page's language and the route's data; `render` renders the page from them as it stands. Null when the
 * route redirects or fails.
 */
async function preparePage({ url, locale, settings, messages, user }: Omit<PrerenderInput, 'cookies'> & { user: User | null }) {
  const queryClient = new QueryClient({ defaultOptions: { queries: { retry: false, staleTime: Number.POSITIVE_INFINITY } } });
  queryClient.setQueryData(settingsQueryKey(locale), settings);
  queryClient.setQueryData(userQueryKey, user);
  const i18n = i18next.createInstance();
  await i18n.init({ ...I18N_OPTIONS, lng: locale, resources: { [locale]: { common: messages } }, initAsync: false });
  const handler = createStaticHandler([localeRoutes(locale)]);
  const context = await handler.query(new Request(new URL(url, 'http://prerender.invalid')));
  if (context instanceof Response || context.errors) return null;
  const render = () =>
    renderToString(
      <StrictMode>
        <I18nextProvider i18n={i18n}>
          <QueryClientProvider client={queryClient}>
            <Suspense fallback={null}>
              <StaticRouterProvider router={createStaticRouter(handler.dataRoutes, context)} context={context} hydrate={false} />
            </Suspense>
          </QueryClientProvider>
        </I18nextProvider>
      </StrictMode>,
    );
  return { queryClient, render };
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
}

/** The calls of the render in progress (renders of several members may interleave while they wait for answers). */
const calls = new AsyncLocalStorage<MemberPrerenderInput['api']>();
setApiTransport((url, init) => {
  const api = calls.getStore();
  if (!api) return Promise.reject(new Error('no API outside a member render'));
  return api(url.pathname + url.search, init);
});

/** Rounds of render, then fetch what it asked for: the page, then what its answers lead to (a profile's photos). */
const RENDER_ROUNDS = 3;

/**
 * The first screen of a member's page (the searches, a profile, the swipe game) with the answers it shows: the
 * app's own queries run against the API (through `api`), the page is rendered again with their answers, up to
 * RENDER_ROUNDS times, and the answers go with the page so the app's first render in the browser shows the same.
 * A query that fails is left out: both sides then show it loading. Null when the route redirects or fails.
 */
export async function prerenderMember(input: MemberPrerenderInput): Promise<MemberPrerender | null> {
  const { url, locale, settings, messages, cookies = '', user, api, phone } = input;
  await loadMemberShell();
  const page = await preparePage({ url, locale, settings, messages, user });
  if (!page) return null;
  const { queryClient } = page;
  // The browser's time zone, as its cookie says: times on the page read as the app will show them.
  const timeZone = withServerCookies(cookies, () => readCookie(TIME_ZONE_COOKIE));
  const render = () => withServerPhone(phone, () => withServerCookies(cookies, () => withServerTimeZone(timeZone, page.render)));
  const asked = new Set<string>();
  try {
    let html = render();
    for (let round = 1; round < RENDER_ROUNDS; round++) {
      const waiting = queryClient
        .getQueryCache()
        .getAll()
        .filter((query) => query.state.status === 'pending' && query.state.fetchStatus === 'idle' && !asked.has(query.queryHash))
        .filter((query) => query.options.queryFn && (query.options as { enabled?: unknown }).enabled !== false);
      if (waiting.length === 0) break;
      await calls.run(api, () =>
        Promise.all(
          waiting.map((query) => {
            asked.add(query.queryHash);
            return query.fetch().catch(() => queryClient.removeQueries({ queryKey: query.queryKey, exact: true }));
          }),
        ),
      );
      html = render();
    }
    if (html.includes('<!--$!-->')) return null;
    // The settings and the member come with the page's data block already.
    const queries = dehydrate(queryClient, {
      shouldDehydrateQuery: (query) =>
        query.state.status === 'success' &&
        query.queryHash !== JSON.stringify(userQueryKey) &&
        query.queryKey[0] !== settingsQueryKey(locale)[0],
    });
    return { html, queries };
  } finally {
    queryClient.clear();
  }
}

import type { Locale, Settings } from '@amora/contracts/core';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import i18next from 'i18next';
import { StrictMode, Suspense } from 'react';
import { renderToString } from 'react-dom/server';
import { I18nextProvider } from 'react-i18next';
import { createStaticHandler, createStaticRouter, StaticRouterProvider } from 'react-router';
import { localeRoutes } from './app/routes';
import { withServerCookies } from './lib/cookies';
import { I18N_OPTIONS } from './lib/i18n-options';
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
  const queryClient = new QueryClient({ defaultOptions: { queries: { retry: false, staleTime: Number.POSITIVE_INFINITY } } });
  queryClient.setQueryData(settingsQueryKey(locale), settings);
  queryClient.setQueryData(userQueryKey, null);
  const i18n = i18next.createInstance();
  await i18n.init({ ...I18N_OPTIONS, lng: locale, resources: { [locale]: { common: messages } }, initAsync: false });
  const handler = createStaticHandler([localeRoutes(locale)]);
  const context = await handler.query(new Request(new URL(url, 'http://prerender.invalid')));
  if (context instanceof Response || context.errors) return null;
  const router = createStaticRouter(handler.dataRoutes, context);
  try {
    return withServerCookies(cookies, () =>
      renderToString(
        <StrictMode>
          <I18nextProvider i18n={i18n}>
            <QueryClientProvider client={queryClient}>
              <Suspense fallback={null}>
                <StaticRouterProvider router={router} context={context} hydrate={false} />
              </Suspense>
            </QueryClientProvider>
          </I18nextProvider>
        </StrictMode>,
      ),
    );
  } finally {
    queryClient.clear();
  }
}

import './styles/theme.scss';
import { isLocale, LOCALE_COOKIE, type Locale, localizePath, splitLocalePath } from '@amora/contracts/core';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { StrictMode, Suspense } from 'react';
import { createRoot } from 'react-dom/client';
import { createBrowserRouter, RouterProvider } from 'react-router';
import { fetchUser, userQueryKey } from '@/shared/session/user';
import { fetchSettings, settingsQueryKey } from '@/shared/site/api/get-settings';
import { buildRoutes } from './app/routes';
import { SwallowedError } from './lib/api-client';
import { showBootFailure } from './lib/boot-failure';
import { installChunkReload } from './lib/chunk-reload';
import { readCookie } from './lib/cookies';
import { initI18n } from './lib/i18n';
import { installPageHiddenBeacon } from './lib/page-hidden';

installChunkReload();
installPageHiddenBeacon();

const queryClient = new QueryClient({
  defaultOptions: {
    queries: { retry: (count, error) => !(error instanceof SwallowedError) && count < 1, refetchOnWindowFocus: false },
  },
});

/**
 * Boot: settings first (they may set the language cookie from the site's domain language), then the
 * redirect of an unprefixed path to the remembered language, then the catalogue, then the app.
 */
async function boot(): Promise<void> {
  const path = splitLocalePath(window.location.pathname);
  let locale: Locale = path.locale;
  const userPromise = fetchUser().catch(() => null);
  let settings = await fetchSettings(locale);
  const remembered = readCookie(LOCALE_COOKIE);
  if (!path.prefixed && isLocale(remembered) && remembered !== locale && settings.languages.includes(remembered)) {
    window.history.replaceState(null, '', localizePath(path.rest, remembered) + window.location.search + window.location.hash);
    locale = remembered;
    settings = await fetchSettings(locale);
  }
  queryClient.setQueryData(settingsQueryKey(locale), settings);
  queryClient.setQueryData(userQueryKey, await userPromise);
  await initI18n(locale);

  const router = createBrowserRouter(buildRoutes());
  createRoot(document.getElementById('root') as HTMLElement).render(
    <StrictMode>
      <QueryClientProvider client={queryClient}>
        <Suspense fallback={null}>
          <RouterProvider router={router} />
        </Suspense>
      </QueryClientProvider>
    </StrictMode>,
  );
}

boot().catch((error) => {
  console.error(error);
  showBootFailure();
});

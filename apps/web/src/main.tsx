import './styles/theme.scss';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { StrictMode, Suspense } from 'react';
import { createRoot } from 'react-dom/client';
import { createBrowserRouter, RouterProvider } from 'react-router';
import { prepareBoot } from './app/boot';
import { buildRoutes } from './app/routes';
import { SwallowedError } from './lib/api-client';
import { takeBootData } from './lib/boot-data';
import { showBootFailure } from './lib/boot-failure';
import { installChunkReload } from './lib/chunk-reload';
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
 * Boot (app/boot.ts): the settings, the member and the catalogue, from the data the server put into the page,
 * else asked for (settings first, then the redirect of an unprefixed path to the remembered language), then the app.
 */
async function boot(): Promise<void> {
  const { locale, messages } = await prepareBoot(queryClient, takeBootData());
  await initI18n(locale, messages);

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

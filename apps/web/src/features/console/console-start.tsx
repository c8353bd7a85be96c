import { QueryClientProvider } from '@tanstack/react-query';
import { StrictMode, Suspense } from 'react';
import { createRoot } from 'react-dom/client';
import { I18nextProvider } from 'react-i18next';
import { createBrowserRouter, RouterProvider } from 'react-router';
import { i18next, initI18n } from '@/lib/i18n';
import { meQuery } from './api/console';
import { createConsoleQueryClient } from './console-query-client';
import { consoleRoutes } from './console-routes';

/**
 * The operator console's start (main.tsx, on a /console address): no member boot (settings, member, their
 * language), its own query client and router. Who is signed in comes first; the console then speaks their
 * language, English until then.
 */
export async function startConsole(): Promise<void> {
  const queryClient = createConsoleQueryClient();
  await Promise.all([initI18n('en'), queryClient.prefetchQuery(meQuery)]);
  await i18next.loadNamespaces('console');
  const router = createBrowserRouter(consoleRoutes());
  createRoot(document.getElementById('root') as HTMLElement).render(
    <StrictMode>
      <I18nextProvider i18n={i18next}>
        <QueryClientProvider client={queryClient}>
          <Suspense fallback={null}>
            <RouterProvider router={router} />
          </Suspense>
        </QueryClientProvider>
      </I18nextProvider>
    </StrictMode>,
  );
}

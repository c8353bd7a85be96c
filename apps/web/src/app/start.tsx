import { TIME_ZONE_COOKIE } from '@amora/contracts/core';
import { type DehydratedState, hydrate, QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { StrictMode, Suspense, startTransition } from 'react';
import { createRoot, hydrateRoot } from 'react-dom/client';
import { I18nextProvider } from 'react-i18next';
import { createBrowserRouter, RouterProvider } from 'react-router';
import { SIGNUP_STARTED } from '@/features/auth/components/signup-events';
import { SwallowedError } from '@/lib/api-client';
import { takeBootData, takeBootQueries } from '@/lib/boot-data';
import { readCookie, writeCookie } from '@/lib/cookies';
import { copyDismissalsToCookies } from '@/lib/dismissals';
import { browserTimeZone } from '@/lib/format-time';
import { onAppRendered, setHydratingServerPage } from '@/lib/hydration';
import { i18next, initI18n } from '@/lib/i18n';
import { installPageHiddenBeacon } from '@/lib/page-hidden';
import { PageRequestProvider } from '@/lib/page-request';
import { userQueryKey } from '@/shared/session/user';
import { prepareBoot } from './boot';
import { lazyLocaleRoutes } from './routes';
import { loadMemberShell, prefetchMemberShell } from './shell/member-parts';

installPageHiddenBeacon();
// What the server's render of a member's next page reads: banners dismissed here (once the first render, which
// had to agree with this page's, is on the screen) and the browser's time zone.
onAppRendered(copyDismissalsToCookies);
if (readCookie(TIME_ZONE_COOKIE) !== browserTimeZone()) writeCookie(TIME_ZONE_COOKIE, browserTimeZone(), 365);
// A visitor who signs up is a member a moment later: the member parts of the shell load meanwhile.
window.addEventListener(SIGNUP_STARTED, prefetchMemberShell);

const queryClient = new QueryClient({
  defaultOptions: {
    queries: { retry: (count, error) => !(error instanceof SwallowedError) && count < 1, refetchOnWindowFocus: false },
  },
});

/**
 * Lets the browser handle input and paint between the boot's steps: none of them is one long task on a phone.
 * A message to itself rather than a timer: no 4 ms clamp, and a page whose clock is held (tests) still boots.
 */
const nextTask = () =>
  new Promise<void>((resolve) => {
    const channel = new MessageChannel();
    channel.port1.onmessage = () => {
      channel.port1.close();
      resolve();
    };
    channel.port2.postMessage(null);
  });

/**
 * Boot (app/boot.ts): the settings, the member and the catalogue, from the data the server put into the page,
 * else asked for (settings first, then the redirect of an unprefixed path to the remembered language), then the app.
 * A member's page also waits for the member parts of the shell (app/shell/member-parts.ts; the server preloads
 * them with it), so its first screen has its navigation and banners at once.
 */
export async function start(): Promise<void> {
  const embedded = takeBootData();
  // A member's page the server rendered comes with the answers it shows: the first render here shows the same.
  const answers = takeBootQueries();
  if (answers) hydrate(queryClient, answers.state as DehydratedState);
  const { locale, messages } = await prepareBoot(queryClient, embedded);
  const isMember = queryClient.getQueryData(userQueryKey) != null;
  // Not loaded: the layouts ask again (a chunk gone after a deploy reloads the page, lib/chunk-reload.ts).
  await Promise.all([initI18n(locale, messages), isMember ? loadMemberShell().catch(() => {}) : null]);
  await nextTask();

  const { routes, patchRoutesOnNavigation } = lazyLocaleRoutes(window.location.pathname);
  const router = createBrowserRouter(routes, { patchRoutesOnNavigation });
  const app = (
    <StrictMode>
      {/* The layout the server rendered a member's page for: the first render (the takeover) answers the same. */}
      <PageRequestProvider value={{ phone: answers?.phone ?? false }}>
        <I18nextProvider i18n={i18next}>
          <QueryClientProvider client={queryClient}>
            <Suspense fallback={null}>
              <RouterProvider router={router} />
            </Suspense>
          </QueryClientProvider>
        </I18nextProvider>
      </PageRequestProvider>
    </StrictMode>
  );
  await nextTask();
  const container = document.getElementById('root') as HTMLElement;
  // The server's render is in the page's language; an app that ended up in another one (a language cookie the
  // browser would not keep) renders anew instead of taking over text it would not match.
  if (container.firstElementChild && messages === undefined) container.replaceChildren();
  if (container.firstElementChild) {
    // The server rendered the first screen (entry-server.tsx; a member's page with the answers it shows, now in
    // the query cache, and the layout it guessed): hydrated once the route's modules are in, so the first render
    // matches it. React hydrates in slices, between which the browser stays responsive.
    if (!router.state.initialized) {
      await new Promise<void>((resolve) => {
        const stop = router.subscribe((state) => {
          if (!state.initialized) return;
          stop();
          resolve();
        });
      });
    }
    setHydratingServerPage(true);
    startTransition(() => {
      hydrateRoot(container, app);
    });
    return;
  }
  // A transition: React renders the first screen in slices instead of one long task, so a phone answers a tap
  // meanwhile.
  const root = createRoot(container);
  startTransition(() => root.render(app));
}

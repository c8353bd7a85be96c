import type { LikesResponse, Settings, User } from '@amora/contracts';
import { splitLocalePath } from '@amora/contracts/core';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { render, renderHook } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { type ReactElement, type ReactNode, Suspense } from 'react';
import { createMemoryRouter, MemoryRouter, RouterProvider } from 'react-router';
import { buildRoutes } from '@/app/routes';
import { loadMemberShell } from '@/app/shell/member-parts';
import { i18next } from '@/lib/i18n';
import { fetchUser, userQueryKey } from '@/shared/session/user';
import { fetchSettings, settingsQueryKey } from '@/shared/site/api/get-settings';
import type { RouteHandle } from '@/shared/site/use-route-name';
import { answers, server } from './server';

export interface Answers {
  /** settings.php (default: settingsFixture()). */
  settings?: Settings;
  /** user.php: a member, or null for a visitor (the default). */
  user?: User | null;
  /** likes.php (default: no likes). */
  likes?: LikesResponse;
}

/** Answers the shell's calls with these fixtures for the rest of the test (through their contracts). */
function answerWith({ settings, user, likes }: Answers): void {
  server.use(
    ...(settings ? [answers.settings(settings)] : []),
    ...(user !== undefined ? [answers.user(user)] : []),
    ...(likes ? [answers.likes(likes)] : []),
  );
}

/** Like main.tsx's client, without retries, so a failing call fails the test at once. */
export function createTestQueryClient(): QueryClient {
  return new QueryClient({
    defaultOptions: { queries: { retry: false, refetchOnWindowFocus: false }, mutations: { retry: false } },
  });
}

/**
 * What main.tsx does before the first render: settings and the user through the real API client (answered
 * by MSW), into the query cache, the member parts of the shell for a member, and the page's language.
 */
async function boot(queryClient: QueryClient, path: string): Promise<void> {
  const { locale } = splitLocalePath(new URL(path, window.location.origin).pathname);
  const [settings, user] = await Promise.all([fetchSettings(locale, ''), fetchUser()]);
  queryClient.setQueryData(settingsQueryKey(locale), settings);
  queryClient.setQueryData(userQueryKey, user);
  if (user) await loadMemberShell();
  await i18next.changeLanguage(locale);
}

function Providers({ queryClient, children }: { queryClient: QueryClient; children: ReactNode }) {
  return (
    <QueryClientProvider client={queryClient}>
      <Suspense fallback={null}>{children}</Suspense>
    </QueryClientProvider>
  );
}

export interface RenderOptions extends Answers {
  /** For tests on fake timers: user-event then waits on them (pass vi.advanceTimersByTime). */
  advanceTimers?: (ms: number) => unknown;
}

async function renderRouter(routes: Parameters<typeof createMemoryRouter>[0], path: string, options: RenderOptions) {
  answerWith(options);
  const queryClient = createTestQueryClient();
  await boot(queryClient, path);
  const router = createMemoryRouter(routes, { initialEntries: [path] });
  const user = userEvent.setup(options.advanceTimers ? { advanceTimers: options.advanceTimers } : {});
  const view = render(
    <Providers queryClient={queryClient}>
      <RouterProvider router={router} />
    </Providers>,
  );
  return { ...view, router, queryClient, user };
}

/** The whole web app (route table, layouts, lazy pages) at a path, in a memory router. */
export function renderApp(path: string, options: RenderOptions = {}) {
  return renderRouter(buildRoutes(), path, options);
}

/**
 * One component or layout inside the app's providers, as the element of a route named `routeName` (the spec's
 * route names, which components read through useRouteName), at a path such as '/de/pages/terms'.
 */
export function renderInRoute(
  ui: ReactElement,
  { path = '/', routeName, ...options }: RenderOptions & { path?: string; routeName?: RouteHandle['name'] } = {},
) {
  const handle: RouteHandle = { name: routeName };
  return renderRouter([{ path: '*', element: ui, handle }], path, options);
}

/**
 * A hook inside the app's providers and a router at `path`, after the same boot as renderApp. With a fake
 * clock, call useFakeClock() (testing/timers.ts) first: the load then happens at its zero.
 */
export async function renderAppHook<T>(hook: () => T, { path = '/', ...answersToGive }: Answers & { path?: string } = {}) {
  answerWith(answersToGive);
  const queryClient = createTestQueryClient();
  await boot(queryClient, path);
  const view = renderHook(hook, {
    wrapper: ({ children }) => (
      <Providers queryClient={queryClient}>
        <MemoryRouter initialEntries={[path]}>{children}</MemoryRouter>
      </Providers>
    ),
  });
  return { ...view, queryClient };
}

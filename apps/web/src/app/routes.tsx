import { DEFAULT_LOCALE, LOCALES, type Locale, splitLocalePath } from '@amora/contracts/core';
import type { RouteObject } from 'react-router';
import { IndexPage } from '@/features/home/index-page';
import { landerPageData } from '@/features/landers/lander-page.data';
import { memberLandingPageData } from '@/features/landers/members/member-landing-page.data';
import { likesPageData } from '@/features/likes/pages/likes-page.data';
import { matchFinderPageData } from '@/features/match-finder/match-finder-page.data';
import { membersPageData } from '@/features/members/members-page.data';
import { creditsPageData } from '@/features/payments/pages/credits-page.data';
import { memberPageData } from '@/features/profiles/pages/member-page.data';
import { swipeGamePageData } from '@/features/swipe-game/swipe-game-page.data';
import { NotFoundPage, RouteError } from '@/shared/errors/route-error';
import type { RouteData } from '@/shared/site/route-data';
import type { RouteHandle } from '@/shared/site/use-route-name';
import { ChatLayout } from './layouts/chat-layout';
import { DefaultLayout } from './layouts/default-layout';
import { EmptyLayout } from './layouts/empty-layout';
import { LocaleRoot } from './locale-root';
import { prefetchMemberShell } from './shell/member-parts';
import { memberShellData } from './shell/member-shell.data';

/**
 * A page's spec name, and the data its first screen shows when the server renders it for a member (route-data.ts):
 * a page with `data` is rendered on the server for members, with its data and the layout's loaded first.
 */
const handle = (name: RouteHandle['name'], data?: RouteData): RouteHandle => (data ? { name, data } : { name });
/** The layouts' own data, loaded with the data of the page under them. */
const memberLayout: RouteHandle = { data: memberShellData };
const authPage = (name: 'ResetPasswordPage' | 'ResetPasswordDoPage') =>
  import('@/features/auth/pages/reset-password-pages').then((m) => ({ Component: m[name] }));
const activatePage = (name: 'ActivateDonePage' | 'ActivateErrorPage') =>
  import('@/features/auth/pages/activate-pages').then((m) => ({ Component: m[name] }));

const memberLandingPage = () => import('@/features/landers/members/member-landing-page').then((m) => ({ Component: m.MemberLandingPage }));

/** The login page; the member parts of the shell load with it, so the page after logging in has them at once. */
const loginPage = () => {
  prefetchMemberShell();
  return import('@/features/auth/pages/login-page');
};

/** Pages of spec §2 that exist so far, by layout. Later features add theirs here. */
function pageRoutes(): RouteObject[] {
  return [
    {
      element: <DefaultLayout />,
      errorElement: <RouteError />,
      handle: memberLayout,
      children: [
        { index: true, element: <IndexPage />, handle: handle('index') },
        { path: 'login', lazy: loginPage, handle: handle('login') },
        { path: 'complete-signup', lazy: () => import('@/features/auth/pages/complete-signup-page'), handle: handle('complete-signup') },
        { path: 'signup-matches', lazy: () => import('@/features/auth/pages/signup-matches-page'), handle: handle('signup-matches') },
        { path: 'reset-password', lazy: () => authPage('ResetPasswordPage'), handle: handle('reset-password') },
        { path: 'reset-password/do', lazy: () => authPage('ResetPasswordDoPage'), handle: handle('reset-password-do') },
        { path: 'mail-change/do', lazy: () => import('@/features/auth/pages/mail-change-do-page'), handle: handle('mail-change-do') },
        { path: 'activate/done', lazy: () => activatePage('ActivateDonePage'), handle: handle('activate-done') },
        { path: 'activate/error', lazy: () => activatePage('ActivateErrorPage'), handle: handle('activate-error') },
        { path: 'account-deleted', lazy: () => import('@/features/auth/pages/account-deleted-page'), handle: handle('account-deleted') },
        { path: 'settings', lazy: () => import('@/app/pages/settings-page'), handle: handle('settings') },
        { path: 'notifications', lazy: () => import('@/app/pages/notifications-page'), handle: handle('notifications') },
        {
          path: 'unsubscribe',
          lazy: () => import('@/features/notifications/pages/unsubscribe-page'),
          handle: handle('unsubscribe'),
        },
        { path: 'members', lazy: () => import('@/features/members/members-page'), handle: handle('members', membersPageData) },
        { path: 'members/:id', lazy: () => import('@/app/pages/member-page'), handle: handle('members-id', memberPageData) },
        { path: 'likes/m/:id', lazy: () => import('@/app/pages/member-page'), handle: handle('likes-m-id', memberPageData) },
        { path: 'likes', lazy: () => import('@/features/likes/pages/likes-page'), handle: handle('likes', likesPageData) },
        { path: 'likes/:type', lazy: () => import('@/features/likes/pages/likes-page'), handle: handle('likes-type', likesPageData) },
        { path: 'profile', lazy: () => import('@/features/profiles/pages/own-profile-page'), handle: handle('profile') },
        {
          path: 'match-finder',
          lazy: () => import('@/features/match-finder/match-finder-page'),
          handle: handle('match-finder', matchFinderPageData),
        },
        {
          path: 'swipe-game',
          lazy: () => import('@/features/swipe-game/swipe-game-page'),
          handle: handle('swipe-game', swipeGamePageData),
        },
        { path: 'directdebit', lazy: () => import('@/features/directdebit/pages/directdebit-page'), handle: handle('directdebit') },
        { path: 'credits', lazy: () => import('@/features/payments/pages/credits-page'), handle: handle('credits', creditsPageData) },
        {
          path: 'credits/repeat-order',
          lazy: () => import('@/features/payments/pages/repeat-order-page'),
          handle: handle('credits-repeat-order'),
        },
        {
          path: 'credits/:id/:paymentmethod?',
          lazy: () => import('@/features/payments/pages/checkout-page'),
          handle: handle('credits-id-paymentmethod'),
        },
        { path: 'premium', lazy: () => import('@/features/payments/pages/premium-page'), handle: handle('premium') },
        { path: 'pricing', lazy: () => import('@/features/payments/pages/pricing-page'), handle: handle('pricing') },
        { path: 'transactions/:id?', lazy: () => import('@/features/payments/pages/transactions-page'), handle: handle('transactions-id') },
        {
          path: 'pages/:page',
          lazy: () => import('@/features/static-pages/static-page').then((m) => ({ Component: m.StaticPage })),
          handle: handle('pages-terms'),
        },
        { path: 'complaints', lazy: () => import('@/features/complaints/complaints-page'), handle: handle('complaints') },
        { path: 'lang-config', lazy: () => import('@/features/language/lang-config-page'), handle: handle('lang-config') },
        {
          path: ':token',
          lazy: () => import('@/features/static-pages/static-page').then((m) => ({ Component: m.TokenPage })),
          handle: handle('token'),
        },
        { path: '*', element: <NotFoundPage />, handle: handle('not-found') },
      ],
    },
    {
      element: <EmptyLayout />,
      errorElement: <RouteError />,
      children: [
        { path: 'signup', lazy: () => import('@/features/auth/pages/signup-page'), handle: handle('signup') },
        { path: 'members/:id/signup', lazy: () => import('@/features/auth/pages/signup-page'), handle: handle('members-id-signup') },
      ],
    },
    {
      element: <ChatLayout />,
      errorElement: <RouteError />,
      handle: memberLayout,
      children: [
        { path: 'chats', lazy: () => import('@/features/chat/pages/chats-page'), handle: handle('chats') },
        { path: 'chats/:id', lazy: () => import('@/features/chat/pages/chats-page'), handle: handle('chats-id') },
        { path: 'members/:id/chat', lazy: () => import('@/features/chat/pages/chats-page'), handle: handle('members-id-chat') },
      ],
    },
    {
      // The lander layout is the lander's own (features/landers/lander-app.tsx): the server serves these addresses
      // with the landers' small page (app/lander), rendered from this data declaration.
      errorElement: <RouteError />,
      children: [
        {
          path: 'landers/tinderswipe',
          lazy: () => import('@/features/landers/lander-page').then((m) => ({ Component: m.LanderPage })),
          handle: handle('landers-tinderswipe', landerPageData),
        },
        {
          path: 'landers/:name/:slug?',
          lazy: () => import('@/features/landers/lander-page').then((m) => ({ Component: m.LanderPage })),
          handle: handle('landers', landerPageData),
        },
        // A profile's landings (features/landers/members), served and rendered as the landers are.
        { path: 'members/:id/landing', lazy: memberLandingPage, handle: handle('members-id-landing', memberLandingPageData) },
        { path: 'members/:id/landing2/:slug?', lazy: memberLandingPage, handle: handle('members-id-landing2-slug', memberLandingPageData) },
        { path: 'members/:id/landing3/:slug?', lazy: memberLandingPage, handle: handle('members-id-landing3-slug', memberLandingPageData) },
      ],
    },
  ];
}

/** One language's route tree: the pages under its prefix (none for the default language). */
export function localeRoutes(locale: Locale): RouteObject {
  return {
    path: locale === DEFAULT_LOCALE ? '/' : `/${locale}`,
    element: <LocaleRoot />,
    errorElement: <RouteError />,
    hydrateFallbackElement: null,
    children: pageRoutes(),
  };
}

/** The same pages without a prefix (default locale) and under /da, /de, … */
export function buildRoutes(): RouteObject[] {
  return [DEFAULT_LOCALE, ...LOCALES.filter((l) => l !== DEFAULT_LOCALE)].map(localeRoutes);
}

/**
 * The browser's router starts with the tree of the page's language only: React Router ranks every route of the
 * table when it starts, and eleven copies of the pages cost a phone a few hundred milliseconds before the first
 * paint. Another language's tree joins the table when a navigation first reaches it (React Router asks
 * `patchRoutesOnNavigation` whenever a path has no match or only a match by parameter).
 */
export function lazyLocaleRoutes(pathname: string): {
  routes: RouteObject[];
  patchRoutesOnNavigation: (args: { path: string; patch: (routeId: string | null, children: RouteObject[]) => void }) => void;
} {
  const present = new Set<Locale>([splitLocalePath(pathname).locale]);
  return {
    routes: [localeRoutes(splitLocalePath(pathname).locale)],
    patchRoutesOnNavigation({ path, patch }) {
      const { locale } = splitLocalePath(path);
      if (present.has(locale)) return;
      present.add(locale);
      patch(null, [localeRoutes(locale)]);
    },
  };
}

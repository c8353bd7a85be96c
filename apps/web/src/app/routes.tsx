import { DEFAULT_LOCALE, LOCALES } from '@amora/contracts/core';
import type { RouteObject } from 'react-router';
import { NotFoundPage, RouteError } from '@/features/errors/route-error';
import { IndexPage } from '@/features/home/index-page';
import type { RouteHandle } from '@/features/site/use-route-name';
import { DefaultLayout } from './layouts/default-layout';
import { LanderLayout } from './layouts/lander-layout';
import { LocaleRoot } from './locale-root';

const handle = (name: RouteHandle['name']): RouteHandle => ({ name });

/** Pages of spec §2 that exist so far, by layout. Later features add theirs here. */
function pageRoutes(): RouteObject[] {
  return [
    {
      element: <DefaultLayout />,
      errorElement: <RouteError />,
      children: [
        { index: true, element: <IndexPage />, handle: handle('index') },
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
      element: <LanderLayout />,
      errorElement: <RouteError />,
      children: [
        {
          path: 'landers/tinderswipe',
          lazy: () => import('@/features/landers/lander-page').then((m) => ({ Component: m.TinderswipeLander })),
          handle: handle('landers-tinderswipe'),
        },
        {
          path: 'landers/:name/:slug?',
          lazy: () => import('@/features/landers/lander-page').then((m) => ({ Component: m.LanderPage })),
          handle: handle('landers'),
        },
      ],
    },
  ];
}

/** The same pages without a prefix (default locale) and under /da, /de, … */
export function buildRoutes(): RouteObject[] {
  return [
    { path: '/', element: <LocaleRoot />, errorElement: <RouteError />, hydrateFallbackElement: null, children: pageRoutes() },
    ...LOCALES.filter((l) => l !== DEFAULT_LOCALE).map((l) => ({
      path: `/${l}`,
      element: <LocaleRoot />,
      errorElement: <RouteError />,
      hydrateFallbackElement: null,
      children: pageRoutes(),
    })),
  ];
}

import type { RouteObject } from 'react-router';
import { ConsoleHome } from './home/console-home';
import { CONSOLE_SECTIONS, type ConsoleSection } from './sections';
import { ConsoleError, ConsoleNotFound, SectionGate } from './shell/console-errors';
import { ConsoleLayout } from './shell/console-layout';

/** What a console route tells the layout: the section it belongs to. */
interface ConsoleHandle {
  section?: ConsoleSection;
}

/**
 * The console's route tree: /console and its sections (sections.ts), each page loaded when first opened, under
 * the console's own layout (sign-in, top bar, nav). Not localized, never rendered on the server; the member app's
 * routes (app/routes.tsx) know nothing of it, and main.tsx starts it instead of them on a /console address.
 */
export function consoleRoutes(): RouteObject[] {
  return [
    {
      path: '/console',
      element: <ConsoleLayout />,
      errorElement: <ConsoleError />,
      hydrateFallbackElement: null,
      children: [
        { index: true, element: <ConsoleHome /> },
        ...CONSOLE_SECTIONS.map(
          (section): RouteObject => ({
            path: section.path,
            handle: { section } satisfies ConsoleHandle,
            element: <SectionGate roles={section.roles} />,
            errorElement: <ConsoleError />,
            // A section may have pages of its own under its path (its own <Routes>).
            children: [
              { index: true, lazy: section.page },
              { path: '*', lazy: section.page },
            ],
          }),
        ),
        { path: '*', element: <ConsoleNotFound /> },
      ],
    },
  ];
}

import type { ReactNode } from 'react';
import { startTransition } from 'react';
import { setHydratingServerPage } from '@/lib/hydration';

type ReactDomClient = typeof import('react-dom/client');

/** React DOM, asked for at the start of a lander's page (its own file; vite.config.ts). */
export function loadReactDom(): Promise<ReactDomClient> {
  const reactDom = import('react-dom/client');
  // Failing, it fails the takeover where it is awaited; not an unhandled rejection meanwhile.
  reactDom.catch(() => {});
  return reactDom;
}

/**
 * Puts a lander's page (or a profile's landing) under React: hydrated where the server rendered it (the page
 * holds its markup and the data it was rendered from came with it, `hasRenderedData`), else rendered. React DOM comes as a file of its own (`loadReactDom`, asked for beside the page's code), so a
 * phone evaluates it in a task of its own rather than in one long task with the page's code; and the work is
 * done in a transition, so React hydrates in slices and a tap is answered meanwhile (as the app does).
 */
export async function takeOver(reactDom: Promise<ReactDomClient>, container: HTMLElement, app: ReactNode, hasRenderedData: boolean) {
  const { createRoot, hydrateRoot } = await reactDom;
  if (container.firstElementChild && hasRenderedData) {
    setHydratingServerPage(true);
    startTransition(() => {
      hydrateRoot(container, app);
    });
  } else {
    const root = createRoot(container);
    startTransition(() => root.render(app));
  }
}

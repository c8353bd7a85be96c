import './app/lander/lander.css';
import { splitLocalePath } from '@amora/contracts/core';
import { whenFirstScreenShown } from './app/lander/first-screen';
import { LANDER_DESIGNS } from './features/landers/designs';
import { landerNameOf } from './features/landers/lander-types';
import { keepEarlyClicks } from './lib/early-clicks';
import { isHydratingServerPage, onAppRendered } from './lib/hydration';

/**
 * The landers' own page (the server serves it for /landers/…, plugins/lander-pages.ts): React, i18next and the
 * lander, no router, query cache or Bootstrap, so a lander's JavaScript stays small. This entry is only its start:
 * the lander the server rendered paints from its HTML, styles and first photo, and the code that takes it over
 * (app/lander/lander-start.tsx and the lander's design) is fetched once those are in and painted (the page's load
 * event and its largest paint, app/lander/first-screen.ts), so it does not share a phone's line with what the
 * first screen needs. A tap on a button meanwhile is made again once the lander has taken the page over
 * (lib/early-clicks.ts). Signup opens the app's modal (desktop) or page (phone).
 */
const root = document.getElementById('root') as HTMLElement;

function start(): void {
  // The design's chunk together with the page's code, not after it.
  const lander = /^\/landers\/([^/]+)/.exec(splitLocalePath(window.location.pathname).rest);
  const name = lander ? landerNameOf({ name: lander[1] }) : null;
  if (name) LANDER_DESIGNS[name]().catch(() => {});
  import('./app/lander/lander-start').then((page) => page.startLander()).catch((error: unknown) => console.error(error));
}

if (root.firstElementChild) {
  keepEarlyClicks(root, onAppRendered, { isTakingOver: isHydratingServerPage });
  whenFirstScreenShown(start, root.querySelector('img[fetchpriority="high"]'));
} else {
  start();
}

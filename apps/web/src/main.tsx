import './styles/theme.scss';
import { showBootFailure } from './lib/boot-failure';
import { installChunkReload, isChunkLoadError, reloadForChunkError } from './lib/chunk-reload';
import { keepEarlyClicks } from './lib/early-clicks';
import { isHydratingServerPage, onAppRendered } from './lib/hydration';

installChunkReload();
const isPrerendered = Boolean(document.getElementById('root')?.firstElementChild);

/** The operator console (features/console) has its own start: members never download it. */
const isConsole = /^\/console(\/|$)/.test(window.location.pathname);
/**
 * Each import with its own call on its result: written as one expression (`a ? import(x) : import(y)`), the
 * minifier merges the two loads and the build then preloads the styles and chunks of one of them only.
 */
async function startApp(): Promise<void> {
  if (isConsole) {
    const consoleApp = await import('./features/console/console-start');
    return consoleApp.startConsole();
  }
  const app = await import('./app/start');
  return app.start();
}

/**
 * The entry: small, so that a page the server rendered (entry-server.tsx) paints before the app's code runs.
 * The app (app/start.tsx) is fetched and started after that first paint on such a page (the server leaves
 * out its preload links there), else at once (preloaded with the page).
 */
function start(): void {
  startApp().catch((error: unknown) => {
    console.error(error);
    // The app's code gone after a deploy: the page loads anew (once a minute at most).
    if (isChunkLoadError(error) && reloadForChunkError()) return;
    // A page the server rendered stays readable (its links still work); an empty one says what happened.
    if (!isPrerendered) showBootFailure();
  });
}

if (isPrerendered) {
  // A tap on a button of the server's page while the app loads is made again once it runs, not lost.
  keepEarlyClicks(document.getElementById('root') as HTMLElement, onAppRendered, { isTakingOver: isHydratingServerPage });
  let started = false;
  const once = () => {
    if (started) return;
    started = true;
    start();
  };
  // After the first contentful paint as the browser reports it (when the frame was shown, later than the frame's
  // own callbacks): the app's code is then fetched and run without competing with what that paint needs. A
  // browser without paint timing, or a tab in the background, which paints nothing, starts within a second.
  try {
    new PerformanceObserver((list, observer) => {
      if (list.getEntriesByName('first-contentful-paint').length === 0) return;
      observer.disconnect();
      const channel = new MessageChannel();
      channel.port1.onmessage = once;
      channel.port2.postMessage(null);
    }).observe({ type: 'paint', buffered: true });
  } catch {
    // no paint timing here: the timer below starts the app
  }
  setTimeout(once, 1_000);
} else {
  start();
}

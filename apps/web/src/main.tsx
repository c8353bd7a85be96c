import './styles/theme.scss';
import { showBootFailure } from './lib/boot-failure';
import { installChunkReload, isChunkLoadError, reloadForChunkError } from './lib/chunk-reload';

installChunkReload();
const isPrerendered = Boolean(document.getElementById('root')?.firstElementChild);

/**
 * The entry: small, so that a page the server rendered (entry-server.tsx) paints before the app's code runs.
 * The app (app/start.tsx, fetched at once: the server preloads it with the page) starts after that first paint
 * on such a page, else at once.
 */
function start(): void {
  import('./app/start')
    .then((app) => app.start())
    .catch((error: unknown) => {
      console.error(error);
      // The app's code gone after a deploy: the page loads anew (once a minute at most).
      if (isChunkLoadError(error) && reloadForChunkError()) return;
      // A page the server rendered stays readable (its links still work); an empty one says what happened.
      if (!isPrerendered) showBootFailure();
    });
}

if (isPrerendered) {
  let started = false;
  const once = () => {
    if (started) return;
    started = true;
    start();
  };
  // A frame's callback runs before its paint; a task queued from it runs after. A tab in the background paints
  // no frames: it starts within a second all the same.
  requestAnimationFrame(() => setTimeout(once, 0));
  setTimeout(once, 1_000);
} else {
  start();
}

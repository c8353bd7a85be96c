import './app/lander/lander.css';
import { startLander } from './app/lander/lander-start';

/**
 * The landers' own page (the server serves it for /landers/…, plugins/lander-pages.ts): React and i18next and the
 * lander, no router, query cache or Bootstrap, so a lander's JavaScript stays small. It takes over the lander the
 * server rendered (entry-server.tsx prerenderLander); signup opens the app's modal (desktop) or page (phone).
 */
startLander().catch((error: unknown) => {
  console.error(error);
});

import { useSyncExternalStore } from 'react';

const STANDALONE = '(display-mode: standalone)';

/** Whether the site runs as an installed app (added to the home screen); never on the server. */
function isInstalledApp(): boolean {
  if (typeof window === 'undefined') return false;
  return window.matchMedia?.(STANDALONE).matches === true || (navigator as Navigator & { standalone?: boolean }).standalone === true;
}

/**
 * isInstalledApp for a component: a page rendered on the server (entry-server.tsx) is taken over as not
 * installed (the server snapshot), then follows the browser.
 */
export function useIsInstalledApp(): boolean {
  return useSyncExternalStore(
    (onChange) => {
      const list = window.matchMedia?.(STANDALONE);
      list?.addEventListener('change', onChange);
      return () => list?.removeEventListener('change', onChange);
    },
    isInstalledApp,
    () => false,
  );
}

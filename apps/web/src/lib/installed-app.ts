import { useMediaQuery } from './use-media-query';

/** Whether the site runs as an installed app (added to the home screen); never on the server. */
export function isInstalledApp(): boolean {
  if (typeof window === 'undefined') return false;
  return (
    window.matchMedia?.('(display-mode: standalone)').matches === true ||
    (navigator as Navigator & { standalone?: boolean }).standalone === true
  );
}

/**
 * isInstalledApp for a component: a page rendered on the server (entry-server.tsx) is hydrated as not installed,
 * then follows the browser.
 */
export function useIsInstalledApp(): boolean {
  const standalone = useMediaQuery('(display-mode: standalone)');
  return standalone || (typeof navigator !== 'undefined' && (navigator as Navigator & { standalone?: boolean }).standalone === true);
}

import { session } from './storage';

const LB_KEY = 'landing-lb';

/** Sends the page-hidden beacon (spec §7); with `lb` in the landing query the server counts a bounce. */
export function installPageHiddenBeacon(): void {
  const landing = new URLSearchParams(window.location.search);
  if (landing.has('lb')) session.set(LB_KEY, window.location.pathname);
  const shownAt = performance.now();
  document.addEventListener('visibilitychange', () => {
    if (document.visibilityState !== 'hidden') return;
    // A bounce is leaving while still on the landing page; it is counted once per landing.
    const lbPath = session.get(LB_KEY);
    const isBounce = lbPath !== null && lbPath !== '' && window.location.pathname === lbPath;
    const body = isBounce ? { lb: '1', path: lbPath, visible_ms: Math.round(performance.now() - shownAt) } : {};
    if (isBounce) session.set(LB_KEY, '');
    navigator.sendBeacon?.('/api/page-hidden.php', JSON.stringify(body));
  });
}

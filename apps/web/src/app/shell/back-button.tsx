import { useTranslation } from 'react-i18next';
import { useLocation, useNavigate } from 'react-router';
import { useIsInstalledApp } from '@/lib/installed-app';
import { type RouteHandle, useRouteName } from '@/shared/site/use-route-name';

/**
 * The pages of spec §2 with a back button: a member's profile (also opened from the likes), the likes and the
 * credits, each with the pages a member reaches from them (a likes tab, a package's payment methods, the repeat
 * order).
 */
const BACK_ON = new Set<RouteHandle['name']>([
  'members-id',
  'likes',
  'likes-type',
  'likes-m-id',
  'credits',
  'credits-id-paymentmethod',
  'credits-repeat-order',
]);

/**
 * Whether this page was reached from another page of the app, so Back stays in it. The browser's history keeps
 * the router's index (0 for the page the app started on; a redirect replaces, it does not add); a router without
 * the browser's history (the tests' memory router) tells by the location's key, 'default' for the first entry.
 */
function hasAppHistory(locationKey: string): boolean {
  const index = (window.history.state as { idx?: unknown } | null)?.idx;
  return typeof index === 'number' ? index > 0 : locationKey !== 'default';
}

/**
 * Back button of the top bar (spec §2): only in the installed app, which has no browser bar with a back button
 * of its own, and only when there is a page of the app to go back to.
 */
export function BackButton() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const location = useLocation();
  const route = useRouteName();
  const isInstalled = useIsInstalledApp();
  // isInstalled is false on the server and in the first render, so window is read only in the browser.
  if (!isInstalled || !BACK_ON.has(route) || !hasAppHistory(location.key)) return null;
  return (
    <button type="button" className="top-bar-back" aria-label={t('nav.back')} data-testid="back-button" onClick={() => void navigate(-1)}>
      <svg
        viewBox="0 0 24 24"
        width="24"
        height="24"
        fill="none"
        stroke="currentColor"
        strokeWidth="2"
        strokeLinecap="round"
        strokeLinejoin="round"
        aria-hidden="true"
        focusable="false"
      >
        <path d="m15 5-7 7 7 7" />
      </svg>
    </button>
  );
}

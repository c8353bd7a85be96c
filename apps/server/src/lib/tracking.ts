import { isStorableText, TRACKING_KEYS } from '@amora/contracts';

/**
 * The tracking data (network, ref, sub1–3) kept in the cookie at landing; anything else is ignored. Read by the
 * signup (which stores it) and by the visitor search (a traffic-source visitor may search when the site says so).
 */
export function parseTracking(cookie: string | undefined): Record<string, string> {
  if (!cookie) return {};
  try {
    const value = JSON.parse(cookie) as Record<string, unknown> | null;
    // The cookie comes back from the browser as the client likes: only the tracking keys, only text we can store.
    const tracking: Record<string, string> = {};
    for (const key of TRACKING_KEYS) {
      const text = value?.[key];
      if (typeof text === 'string' && isStorableText(text.slice(0, 100))) tracking[key] = text.slice(0, 100);
    }
    return tracking;
  } catch {
    return {};
  }
}

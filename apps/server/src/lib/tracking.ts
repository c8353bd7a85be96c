import { isStorableText, splitLocalePath, TRACKING_KEYS } from '@amora/contracts';

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

/**
 * The cookie that keeps the lander a visitor last landed on, `{"lander":"video","slug":"milf-eng"}`: set by the
 * served page (plugins/web.ts), read by the signup, which stores it with the member beside the tracking data
 * (users.tracking.lander and .slug). Named as the visits count them (modules/telemetry).
 */
export const LANDER_COOKIE = 'lander';

/** A lander's page: `/landers/{name}/{slug?}` (tinderswipe included). */
const LANDER_PATH = /^\/landers\/([^/]+)(?:\/([^/]+))?\/?$/;
/** A profile's landing pages: `/members/{id}/landing`, `landing2/{slug?}`, `landing3/{slug?}`, `signup`. */
const MEMBER_LANDING_PATH = /^\/members\/[^/]+\/(landing|landing2|landing3|signup)(?:\/([^/]+))?\/?$/;

/**
 * The lander and slug of a page path (any language prefix), as the visits count them: `/landers/video/eng` →
 * video, eng; a profile's landing page → `member-landing`, `member-landing2` (with its slug), `member-landing3`,
 * `member-signup` (the profile's id is not kept); null for any other page.
 */
export function landerOfPath(path: string): { lander: string; slug: string } | null {
  const { rest } = splitLocalePath(path);
  const lander = LANDER_PATH.exec(rest);
  if (lander) return { lander: lander[1].slice(0, 64), slug: (lander[2] ?? '').slice(0, 64) };
  const member = MEMBER_LANDING_PATH.exec(rest);
  return member ? { lander: `member-${member[1]}`, slug: (member[2] ?? '').slice(0, 64) } : null;
}

/** The lander cookie's lander and slug (only text we can store, of the sizes a path gives), or null. */
export function parseLanderCookie(cookie: string | undefined): { lander: string; slug: string } | null {
  if (!cookie) return null;
  try {
    const value = JSON.parse(cookie) as Record<string, unknown> | null;
    const { lander, slug } = value ?? {};
    if (typeof lander !== 'string' || typeof slug !== 'string' || !lander || lander.length > 64 || slug.length > 64) return null;
    return isStorableText(lander) && isStorableText(slug) ? { lander, slug } : null;
  } catch {
    return null;
  }
}

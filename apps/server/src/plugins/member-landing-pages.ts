import { splitLocalePath } from '@amora/contracts';

// Member landings (spec §2 members-id-landing, members-id-landing2-slug, members-id-landing3-slug): pages of one
// profile, served as the landers are (lander-pages.ts: the landers' own page, rendered with their data). Whether
// such a page exists depends on its profile (docs/decisions.md, "Member landings"), which the path alone cannot
// tell: web.ts asks (isLandingShown) where page-routes.ts isKnownPage has told the rest (the slug).

const MEMBER_LANDING = /^\/members\/([^/]+)\/(?:landing|(landing[23])(?:\/[^/]+)?)\/?$/;

/** How lander-pages.ts names a member landing among the landers: `member-landing`, `member-landing2`, `member-landing3`. */
export const MEMBER_LANDING_PREFIX = 'member-';

/** A member landing layout's module in the web build's manifest (apps/web/src/features/landers/members/). */
export const memberLandingSource = (layout: string) => `src/features/landers/members/${layout}.tsx`;

/** The layout of a member landing's path (any language prefix), or null when the path is no member landing. */
export function memberLandingLayoutOfPath(path: string): 'landing' | 'landing2' | 'landing3' | null {
  const match = MEMBER_LANDING.exec(splitLocalePath(path).rest);
  return match ? ((match[2] as 'landing2' | 'landing3' | undefined) ?? 'landing') : null;
}

/**
 * The profile id of a member landing's path (any language prefix), 0 for an id that is no number (no profile has
 * it), or null when the path is no member landing.
 */
export function memberLandingIdOf(path: string): number | null {
  const match = MEMBER_LANDING.exec(splitLocalePath(path).rest);
  if (!match) return null;
  return /^[1-9]\d{0,14}$/.test(match[1]) ? Number(match[1]) : 0;
}

/** The query string of a request's address, with its `?` ('' for none). */
export const queryOf = (url: string): string => (url.includes('?') ? url.slice(url.indexOf('?')) : '');

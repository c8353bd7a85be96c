import type { MemberLandingProfile } from '@amora/contracts/core';

/** The spec's three member landings (§2 members-id-landing, members-id-landing2-slug, members-id-landing3-slug). */
export type MemberLandingLayout = 'landing' | 'landing2' | 'landing3';

/**
 * What each member landing's layout receives: the one profile it is about (GET /api/member-landing.php), the niche
 * its copy speaks to (the slug's, else the site's) and where its call to action leads.
 */
export interface MemberLandingProps {
  profile: MemberLandingProfile;
  /** Spec §1 niche 1–7. */
  niche: number;
  /** Whether this visitor may sign up (spec §6 `signups`); when false the page leads to the login instead. */
  canSignUp: boolean;
  /** The landing's query as it came (`?network=…&sub1=…` or ''): the signup keeps the tracking it carries. */
  query: string;
}

/**
 * The query key of a member landing's profile (api.ts). Here, without the query library, because the landers' own
 * page (app/lander) finds its data by it among the answers the server rendered the page from.
 */
export const memberLandingQueryKey = (profileId: number) => ['member-landing', profileId] as const;

/** The member landing of a route's name (app/routes.tsx), or null for another route. */
export function memberLandingLayoutOf(routeName: string | undefined): MemberLandingLayout | null {
  if (routeName === 'members-id-landing') return 'landing';
  if (routeName === 'members-id-landing2-slug') return 'landing2';
  if (routeName === 'members-id-landing3-slug') return 'landing3';
  return null;
}

/** The profile id of a landing's path (`/members/:id/landing…`), null when it is not a number. */
export const landingProfileIdOf = (id: string | undefined): number | null =>
  id && /^\d{1,15}$/.test(id) && Number(id) > 0 ? Number(id) : null;

import type { MemberLandingLayout } from '@/features/landers/members/member-landing-types';

/** A member landing's address (without its language prefix): its layout and profile; null for any other page. */
export function memberLandingOfPath(rest: string): { layout: MemberLandingLayout; profileId: number } | null {
  const match = /^\/members\/([1-9]\d{0,14})\/(?:landing|(landing[23])(?:\/[^/]+)?)\/?$/.exec(rest);
  return match ? { layout: (match[2] ?? 'landing') as MemberLandingLayout, profileId: Number(match[1]) } : null;
}

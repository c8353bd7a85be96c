import { z } from 'zod';

/**
 * GET /api/member-landing.php?id=: the profile of a member landing (/members/{id}/landing, landing2, landing3).
 * The landing's own tracking query (network, ref, sub1–3) may come along: on the first visit the tracking cookie
 * is set by the page's answer, so the page's data is asked for before the browser holds it.
 */
const trackingValue = () => z.string().max(500).optional();
export const memberLandingQuerySchema = z.object({
  id: z.coerce.number().int().positive().max(Number.MAX_SAFE_INTEGER),
  network: trackingValue(),
  ref: trackingValue(),
  sub1: trackingValue(),
  sub2: trackingValue(),
  sub3: trackingValue(),
});

/**
 * The one profile a member landing shows a visitor: its name, age, city, main photo (the sizes a visitor may
 * fetch, for `srcset`), the facts the site shows on profiles and whether it is fictional. Nothing else: no other
 * photo, no about text, no activity.
 */
const memberLandingProfileSchema = z.object({
  id: z.number().int(),
  name: z.string(),
  age: z.number().int(),
  city: z.string().nullable(),
  country: z.string(),
  photo: z.object({ src: z.string(), srcSet: z.string(), width: z.number().int(), height: z.number().int() }).nullable(),
  /** Attribute → value (profile-values.ts), only those the site's `visible_profile_fields` shows. */
  facts: z.record(z.string(), z.string()),
  is_fictional: z.boolean(),
});
export type MemberLandingProfile = z.infer<typeof memberLandingProfileSchema>;
export const memberLandingResponseSchema = z.object({ profile: memberLandingProfileSchema });

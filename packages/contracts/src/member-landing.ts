import { z } from 'zod';

/** GET /api/member-landing.php?id=: the profile of a member landing (/members/{id}/landing, landing2, landing3). */
export const memberLandingQuerySchema = z.object({ id: z.coerce.number().int().positive().max(Number.MAX_SAFE_INTEGER) });

/**
 * The one profile a member landing shows a visitor (one of the site's fictional profiles): its name, age, city,
 * main photo (the landers' public 4:5 sizes, for `srcset`), the facts the site shows on profiles and the fictional
 * flag. Nothing else: no other photo, no about text, no activity.
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

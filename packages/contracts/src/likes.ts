import { z } from 'zod';
import { idSchema } from './fields';
import { CLIENT_LIKE_SOURCES } from './likes-constants';
import { profileCardSchema } from './profiles';

export * from './likes-constants';

const profileId = idSchema();

export const likeInputSchema = z.object({ profile_id: profileId, source: z.enum(CLIENT_LIKE_SOURCES) }).strict();
export const likeTargetSchema = z.object({ profile_id: profileId }).strict();
export const likeResponseSchema = z.object({ ok: z.literal(true), is_match: z.boolean() });

/** A profile in a likes list: the member-card fields plus whether the like is mutual. */
const likeCardSchema = profileCardSchema.extend({ is_match: z.boolean() });
export type LikeCard = z.infer<typeof likeCardSchema>;
/** Someone who liked me; like_new until I open their profile from my likes. */
const likedByCardSchema = likeCardSchema.extend({ like_new: z.boolean() });
export type LikedByCard = z.infer<typeof likedByCardSchema>;

/** GET /api/likes.php (spec §3 chat state `likes` and `liked_by`, §7). */
export const likesResponseSchema = z.object({
  profiles: z.array(likeCardSchema),
  liked_by: z.array(likedByCardSchema),
  new_likes: z.number().int(),
});
export type LikesResponse = z.infer<typeof likesResponseSchema>;

/** GET /api/auto-like.php (spec §7): the profile that just liked the member, shown in the match modal. */
const autoLikeProfileSchema = z.object({
  id: z.number().int(),
  name: z.string(),
  is_fictional: z.boolean(),
  main_image: z.object({ match: z.string() }).nullable(),
});
export type AutoLikeProfile = z.infer<typeof autoLikeProfileSchema>;
export const autoLikeResponseSchema = z.object({ profile: autoLikeProfileSchema.nullable() });

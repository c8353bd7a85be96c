import { z } from 'zod';
import { textSchema } from './fields';

/**
 * Discount codes (spec §3 "Discount code", "Time bonus", main state; §7 discountcode.php; §9 welcome discount and
 * time bonus). Amounts are integers in minor units.
 */

/** Why a code cannot be used for an order (the `error` of a 4xx answer). */
export const DISCOUNT_ERRORS = [
  'discount_not_found',
  'discount_used',
  'discount_expired',
  'discount_minimum',
  'discount_country',
  'discount_method',
  'discount_currency',
] as const;
export type DiscountError = (typeof DISCOUNT_ERRORS)[number];

/** Where a code comes from: one given out by the site, the time bonus, a member's welcome discount, the delete discount. */
const DISCOUNT_SOURCES = ['code', 'time_bonus', 'welcome', 'delete_retention'] as const;
export type DiscountSource = (typeof DISCOUNT_SOURCES)[number];

/** The welcome discount is valid this long after the member's signup (spec §9: 25 %, time-limited). */
export const WELCOME_DISCOUNT_HOURS = 72;

/** What a code may be typed as: letters, digits and dashes, at most 40. */
const DISCOUNT_CODE_MAX = 40;
export const discountCodeInputSchema = () =>
  textSchema()
    .trim()
    .min(1)
    .max(DISCOUNT_CODE_MAX)
    .regex(/^[A-Za-z0-9_-]+$/, 'Letters, digits and dashes only');

/** Spec §3 "Discount code": every field, as the client reads it. */
export const discountCodeSchema = z.object({
  code: z.string(),
  /** ISO 3166 country the code is for; null: every country. */
  country: z.string().nullable(),
  /** The member the code was made for; null: anyone on the site. */
  user_id: z.number().int().nullable(),
  /** ISO 8601: when the code stops working (for the time bonus, the end of this member's window). */
  expires: z.string(),
  value_percentage: z.number().int(),
  /** ISO 4217 currency of the orders it applies to; null: every currency. */
  currency: z.string().nullable(),
  /** Lowest order value (list price, minor units of the order's currency) the code applies to; 0: none. */
  minimum_order_value: z.number().int(),
  status: z.string(),
  /** Whole seconds left until `expires` (0 once expired). */
  validity: z.number().int(),
  expired: z.boolean(),
  /** The payment methods (spec §9 names) the code is valid for; empty: every method. */
  paymentmethods: z.array(z.string()),
  source: z.enum(DISCOUNT_SOURCES),
});
export type DiscountCodeView = z.infer<typeof discountCodeSchema>;

/**
 * GET /api/discountcode.php: `code` (with `package`, `method`, `country` to check it against an order), or
 * `welcome=true` for the member's welcome discount.
 */
export const discountCodeQuerySchema = z
  .object({
    code: discountCodeInputSchema().optional(),
    welcome: z.enum(['true', '1']).optional(),
    package: z.coerce.number().int().positive().max(2_147_483_647).optional(),
    method: textSchema().trim().min(1).max(40).optional(),
    country: z
      .string()
      .regex(/^[A-Za-z]{2}$/)
      .optional(),
  })
  .strict()
  .refine((q) => Boolean(q.code) !== Boolean(q.welcome), { message: 'Give either code or welcome=true', path: ['code'] });

/** The code asked for, or the welcome discount (null when the member has none: paid already, or its time is over). */
export const discountCodeResponseSchema = z.object({ discount: discountCodeSchema.nullable() });

/** GET /api/timebonus.php (spec §3 "Time bonus: isVisible, plus the discount data"). */
export const timeBonusResponseSchema = z.object({
  is_visible: z.boolean(),
  /** Whole seconds left of the 4 hours after signup; 0 when not visible. */
  seconds_left: z.number().int(),
  discount: discountCodeSchema.nullable(),
});
export type TimeBonusResponse = z.infer<typeof timeBonusResponseSchema>;

/** The HTTP status of each discount error: an unknown code 404, a code that does not fit the order 422. */
export const DISCOUNT_ERROR_STATUS: Record<DiscountError, 404 | 422> = {
  discount_not_found: 404,
  discount_used: 422,
  discount_expired: 422,
  discount_minimum: 422,
  discount_country: 422,
  discount_method: 422,
  discount_currency: 422,
};

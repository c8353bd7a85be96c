import { z } from 'zod';
import { idSchema, textSchema } from './fields';

/**
 * Member support in the operator console: finding a member on any site, what they see (read only) and what
 * support may do for them (issue 27). Moderators see the same views; support and admins act.
 */

/** Support may refund at most this much of one order (minor units, €50); more than that only an admin. */
export const SUPPORT_REFUND_LIMIT_MINOR = 5_000;
/** Credits one adjustment may add or take at most. */
export const SUPPORT_CREDIT_ADJUST_MAX = 100_000;

/** Catalogue keys (console namespace) of member support's errors. */
export const SUPPORT_ERRORS = {
  refundAboveLimit: 'console.support.errors.refundAboveLimit',
  balanceTooLow: 'console.support.errors.balanceTooLow',
  notRefundable: 'console.support.errors.notRefundable',
  alreadyConfirmed: 'console.support.errors.alreadyConfirmed',
  alreadyDeleted: 'console.support.errors.alreadyDeleted',
} as const;

export const memberSearchQuerySchema = z.object({
  /** An email address (or part of one), an account id, a profile id (`p123` or the number) or a profile name. */
  q: textSchema().trim().min(1).max(120),
  page: z.coerce.number().int().min(1).max(10_000).default(1),
});

const siteRefSchema = z.object({ id: z.number(), name: z.string(), domain: z.string() });

const memberHitSchema = z.object({
  user_id: z.number(),
  profile_id: z.number().nullable(),
  email: z.string(),
  name: z.string(),
  status: z.string(),
  site: siteRefSchema,
  signup_date: z.string(),
});
export type MemberHit = z.infer<typeof memberHitSchema>;
export const memberSearchSchema = z.object({ members: z.array(memberHitSchema), page: z.number(), pages: z.number(), total: z.number() });

export const memberParamsSchema = z.object({ userId: z.coerce.number().pipe(idSchema()) });
export const memberOrderParamsSchema = z.object({
  userId: z.coerce.number().pipe(idSchema()),
  orderId: z.coerce.number().pipe(idSchema()),
});
export const memberPhotoParamsSchema = z.object({
  userId: z.coerce.number().pipe(idSchema()),
  photoId: z.coerce.number().pipe(idSchema()),
});
export const memberPhotoQuerySchema = z.object({ v: z.enum(['large', 'thumb']).default('large') });
export const pageQuerySchema = z.object({ page: z.coerce.number().int().min(1).max(10_000).default(1) });

const memberAccountSchema = z.object({
  user_id: z.number(),
  email: z.string(),
  status: z.string(),
  language: z.string(),
  site: siteRefSchema,
  signup_date: z.string(),
  confirmed_at: z.string().nullable(),
  deleted_at: z.string().nullable(),
  notifications_disabled: z.array(z.string()),
  paid_user: z.boolean(),
  credits: z.number(),
  credit_debt: z.number(),
});

const memberPhotoSchema = z.object({
  id: z.number(),
  status: z.string(),
  width: z.number(),
  height: z.number(),
  is_main: z.boolean(),
  created_at: z.string(),
});

const memberProfileSchema = z.object({
  id: z.number(),
  name: z.string(),
  status: z.string(),
  country: z.string(),
  region: z.string().nullable(),
  city: z.string().nullable(),
  birth_date: z.string(),
  gender: z.string().nullable(),
  about: z.string(),
  is_invisible: z.boolean(),
  fields: z.record(z.string(), z.unknown()),
  photos: z.array(memberPhotoSchema),
});

const memberOrderSchema = z.object({
  id: z.number(),
  status: z.string(),
  method: z.string(),
  provider: z.string(),
  credits: z.number(),
  amount_minor: z.number(),
  currency: z.string(),
  refunded_minor: z.number(),
  created_at: z.string(),
  paid_at: z.string().nullable(),
  events: z.array(z.object({ status: z.string(), created_at: z.string() })),
});

const memberSessionSchema = z.object({
  id: z.number(),
  device: z.string(),
  created_at: z.string(),
  last_seen_at: z.string(),
  expires_at: z.string(),
});

const memberReportSchema = z.object({
  id: z.number(),
  reference: z.string(),
  kind: z.string(),
  category: z.string(),
  subject: z.string(),
  status: z.string(),
  resolution: z.string().nullable(),
  reported_profile_id: z.number().nullable(),
  reporter_user_id: z.number().nullable(),
  created_at: z.string(),
});

const memberSanctionSchema = z.object({
  id: z.number(),
  kind: z.string(),
  reason: z.string(),
  until: z.string().nullable(),
  lifted_at: z.string().nullable(),
  created_at: z.string(),
});

export const memberDetailSchema = z.object({
  account: memberAccountSchema,
  profile: memberProfileSchema.nullable(),
  orders: z.array(memberOrderSchema),
  sessions: z.array(memberSessionSchema),
  complaints: z.array(memberReportSchema),
  reports_by: z.array(memberReportSchema),
  reports_about: z.array(memberReportSchema),
  sanctions: z.array(memberSanctionSchema),
  direct_debit: z.object({
    blocked: z.boolean(),
    mandates: z.array(z.object({ id: z.number(), iban_last4: z.string(), status: z.string(), created_at: z.string() })),
  }),
  login_lockout: z.object({ locked: z.boolean(), attempts: z.number(), max: z.number(), retry_after_seconds: z.number() }),
  /** Until when a deleted account may still come back (null: not deleted). */
  reactivation_until: z.string().nullable(),
});
export type MemberDetail = z.infer<typeof memberDetailSchema>;

export const memberLedgerSchema = z.object({
  entries: z.array(z.object({ id: z.number(), delta: z.number(), balance_after: z.number(), reason: z.string(), created_at: z.string() })),
  page: z.number(),
  pages: z.number(),
  total: z.number(),
});
export type MemberLedger = z.infer<typeof memberLedgerSchema>;

const reasonSchema = textSchema().trim().min(3).max(300);

export const creditAdjustmentSchema = z.strictObject({
  /** Credits to add (above zero) or take (below zero); never zero. */
  amount: z
    .number()
    .int()
    .min(-SUPPORT_CREDIT_ADJUST_MAX)
    .max(SUPPORT_CREDIT_ADJUST_MAX)
    .refine((n) => n !== 0, 'Not zero'),
  reason: reasonSchema,
});
export const creditAdjustedSchema = z.object({ balance: z.number() });

export const refundSchema = z.strictObject({
  /** Minor units to give back; absent: all that is left of the order's payment. */
  amount_minor: z.number().int().positive().max(100_000_000).optional(),
  reason: reasonSchema,
});
export const refundedSchema = z.object({ order_id: z.number(), refunded_minor: z.number(), status: z.string() });

export const supportReasonSchema = z.strictObject({ reason: reasonSchema });

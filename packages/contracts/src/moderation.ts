import { z } from 'zod';
import { idSchema, multilineTextSchema } from './fields';

/**
 * Moderation (the operator console's queue, items, actions and sanctions) and what a member hears of it: a
 * warning shown once, and that their own reports were handled.
 */

export const MODERATION_KINDS = ['message_report', 'profile_report', 'complaint', 'photo'] as const;
export type ModerationKind = (typeof MODERATION_KINDS)[number];

const MODERATION_ACTIONS = ['dismiss', 'remove_message', 'remove_photo', 'approve_photo', 'warn', 'suspend', 'ban'] as const;
export type ModerationAction = (typeof MODERATION_ACTIONS)[number];

const SANCTION_KINDS = ['warning', 'suspension', 'ban'] as const;

/** The longest suspension, in hours (a year); longer is a ban. */
const MAX_SUSPENSION_HOURS = 24 * 365;

export const MODERATION_PAGE_SIZE = 25;

export const moderationQueueQuerySchema = z.object({
  site: z.coerce.number().pipe(idSchema()).optional(),
  kind: z.enum(MODERATION_KINDS).optional(),
  status: z.enum(['open', 'handled']).default('open'),
  /** Only items older than this many hours. */
  older_than_hours: z.coerce.number().int().min(1).max(MAX_SUSPENSION_HOURS).optional(),
  page: z.coerce.number().int().min(1).max(200).default(1),
});
export type ModerationQueueQuery = z.infer<typeof moderationQueueQuerySchema>;

const profileRefSchema = z.object({ profile_id: z.number(), user_id: z.number().nullable(), name: z.string(), is_fictional: z.boolean() });

const moderationQueueItemSchema = z.object({
  kind: z.enum(MODERATION_KINDS),
  id: z.number(),
  site_id: z.number(),
  created_at: z.string(),
  /** The complaint's reference (C-…), or null for a photo. */
  reference: z.string().nullable(),
  /** A line to recognise it by: the complaint's subject, or the photo's owner. */
  summary: z.string(),
  reporter: z.object({ name: z.string(), email: z.string() }).nullable(),
  reported: profileRefSchema.nullable(),
  resolution: z.string().nullable(),
  handled_at: z.string().nullable(),
});
export type ModerationQueueItem = z.infer<typeof moderationQueueItemSchema>;

export const moderationQueueSchema = z.object({
  items: z.array(moderationQueueItemSchema),
  page: z.number(),
  page_size: z.number(),
  total: z.number(),
});
export type ModerationQueue = z.infer<typeof moderationQueueSchema>;

export const moderationItemParamsSchema = z.object({
  kind: z.enum(MODERATION_KINDS),
  id: z.coerce.number().pipe(idSchema()),
});

const sanctionSchema = z.object({
  id: z.number(),
  kind: z.enum(SANCTION_KINDS),
  reason: z.string(),
  until: z.string().nullable(),
  created_at: z.string(),
  staff_name: z.string().nullable(),
  lifted_at: z.string().nullable(),
  /** In force now: not lifted, and a suspension not yet over (a warning is in force until lifted). */
  active: z.boolean(),
  complaint_id: z.number().nullable(),
});
export type Sanction = z.infer<typeof sanctionSchema>;

const consolePhotoSchema = z.object({ id: z.number(), status: z.string(), url: z.string() });

export const moderationItemSchema = z.object({
  kind: z.enum(MODERATION_KINDS),
  id: z.number(),
  site_id: z.number(),
  created_at: z.string(),
  status: z.enum(['open', 'handled']),
  resolution: z.string().nullable(),
  handled_at: z.string().nullable(),
  /** The complaint or report as filed (null for a photo). */
  complaint: z
    .object({
      reference: z.string(),
      name: z.string(),
      email: z.string(),
      category: z.string(),
      subject: z.string(),
      message: z.string(),
      url: z.string(),
    })
    .nullable(),
  /** The member reported (or whose photo it is), null when nobody is named. */
  reported: z
    .object({
      profile_id: z.number(),
      user_id: z.number().nullable(),
      name: z.string(),
      age: z.number(),
      city: z.string().nullable(),
      about: z.string(),
      status: z.string(),
      is_fictional: z.boolean(),
      photos: z.array(consolePhotoSchema),
    })
    .nullable(),
  /** A message report's conversation around the message reported. */
  conversation: z
    .object({
      id: z.number(),
      messages: z.array(
        z.object({
          id: z.number(),
          seq: z.number(),
          sender_profile_id: z.number(),
          sender_name: z.string(),
          sender_is_fictional: z.boolean(),
          /** Sent by the member reported. */
          from_reported: z.boolean(),
          /** The message the report is about. */
          is_reported: z.boolean(),
          kind: z.string(),
          body: z.string(),
          status: z.string(),
          created_at: z.string(),
        }),
      ),
    })
    .nullable(),
  /** A photo item's photo. */
  photo: consolePhotoSchema.nullable(),
  /** The reported member's sanctions, newest first, and how many reports name them. */
  sanctions: z.array(sanctionSchema),
  reports_about: z.number(),
});
export type ModerationItem = z.infer<typeof moderationItemSchema>;

export const moderationActionSchema = z
  .strictObject({
    action: z.enum(MODERATION_ACTIONS),
    reason: multilineTextSchema().trim().max(1000).default(''),
    /** A suspension's length. */
    hours: z.number().int().min(1).max(MAX_SUSPENSION_HOURS).optional(),
    /** remove_photo on a profile report: which of the profile's photos. */
    photo_id: idSchema().optional(),
  })
  .refine((body) => body.action !== 'suspend' || body.hours !== undefined, { path: ['hours'], message: 'required for a suspension' });

export const moderationActionResultSchema = z.object({
  ok: z.literal(true),
  resolution: z.string(),
  sanction: sanctionSchema.nullable(),
});

export const sanctionParamsSchema = z.object({ id: z.coerce.number().pipe(idSchema()) });

export const undoSanctionResultSchema = z.object({
  ok: z.literal(true),
  sanction: sanctionSchema,
  /** What undoing the sanction cannot give back (a removed message: its price went back to the sender). */
  not_restored: z.array(z.string()),
});

export const consolePhotoParamsSchema = z.object({ id: z.coerce.number().pipe(idSchema()) });

/** What the member is told: a warning to acknowledge, and their reports handled since they last looked. */
export const moderationNoticesSchema = z.object({
  warning: z.object({ id: z.number(), reason: z.string(), created_at: z.string() }).nullable(),
  handled_reports: z.array(z.object({ reference: z.string(), handled_at: z.string() })),
});
export type ModerationNotices = z.infer<typeof moderationNoticesSchema>;

export const acknowledgeNoticesSchema = z.strictObject({
  warning_id: idSchema().optional(),
  reports: z.literal(true).optional(),
});

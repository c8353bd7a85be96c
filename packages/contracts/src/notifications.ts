import { z } from 'zod';
import { NOTIFICATIONS_DISABLED_REASONS } from './accounts';
import { isOffered, NOTIFICATION_CHANNELS, NOTIFICATION_TYPES } from './notification-constants';

const notificationPreferenceSchema = z.strictObject({
  type: z.enum(NOTIFICATION_TYPES),
  channel: z.enum(NOTIFICATION_CHANNELS),
  enabled: z.boolean(),
});
export type NotificationPreference = z.infer<typeof notificationPreferenceSchema>;

/** The notifications page: every type with each channel it comes by, why mail is stopped (if it is) and to which address. */
export const notificationSettingsSchema = z.object({
  preferences: z.array(notificationPreferenceSchema),
  disabled: z.array(z.enum(NOTIFICATIONS_DISABLED_REASONS)),
  email: z.string(),
  push_subscribed: z.boolean(),
});
export type NotificationSettings = z.infer<typeof notificationSettingsSchema>;

/** Changes to some preferences (the rest stay as they are); each type and channel at most once. */
export const savePreferencesSchema = z.strictObject({
  preferences: z
    .array(notificationPreferenceSchema)
    .min(1)
    .max(NOTIFICATION_TYPES.length * NOTIFICATION_CHANNELS.length)
    .refine((list) => new Set(list.map((p) => `${p.type}:${p.channel}`)).size === list.length, 'each type and channel once')
    .refine((list) => list.every((p) => isOffered(p.type, p.channel)), 'this type does not come by this channel'),
});

/** Mail again after it stopped: the member says so explicitly, for the reasons listed (a bounce: the address is confirmed right). */
export const resumeMailSchema = z.strictObject({ reasons: z.array(z.enum(NOTIFICATIONS_DISABLED_REASONS)).min(1).max(3) });

/** An unsubscribe link's token (from a mail): opaque to the client. */
const unsubscribeTokenSchema = z.string().regex(/^[\w-]{10,200}\.[\w-]{20,100}$/, 'invalid token');
export const unsubscribeQuerySchema = z.object({ t: unsubscribeTokenSchema });
/** The unsubscribe page's choice: the mail's type only, or all mail that is not essential. */
export const unsubscribeChoiceSchema = z.strictObject({ scope: z.enum(['type', 'all']) });

/** What an unsubscribe link stops: one type's mail, or (the one-click header) all non-essential mail. */
export const unsubscribeInfoSchema = z.object({
  type: z.enum(NOTIFICATION_TYPES).nullable(),
  site: z.string(),
  done: z.boolean(),
});
export type UnsubscribeInfo = z.infer<typeof unsubscribeInfoSchema>;

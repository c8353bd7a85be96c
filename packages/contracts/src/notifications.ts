import { z } from 'zod';
import { NOTIFICATIONS_DISABLED_REASONS } from './accounts';

/** Spec §3: what a member can hear about. */
export const NOTIFICATION_TYPES = [
  'new_conversations',
  'new_messages',
  'like',
  'unread_message_reminders',
  'promotions',
  'weekly_updates',
  'news',
  'reminders',
] as const;
export type NotificationType = (typeof NOTIFICATION_TYPES)[number];

export const NOTIFICATION_CHANNELS = ['email', 'push'] as const;
export type NotificationChannel = (typeof NOTIFICATION_CHANNELS)[number];

/**
 * What a member gets before choosing: what other members do (messages, likes and matches) and the reminders of
 * what waits for them, by mail and push; promotions and news only once they opt in (consent); the weekly update
 * and the reminders by mail only (a push is for what happened just now).
 */
export const NOTIFICATION_DEFAULTS: Record<NotificationType, Record<NotificationChannel, boolean>> = {
  new_conversations: { email: true, push: true },
  new_messages: { email: true, push: true },
  like: { email: true, push: true },
  unread_message_reminders: { email: true, push: true },
  promotions: { email: false, push: false },
  weekly_updates: { email: true, push: false },
  news: { email: false, push: false },
  reminders: { email: true, push: false },
};

/** The types whose mail is not essential: each carries one-click unsubscribe (RFC 8058) and stops while mail is disabled. */
export const NON_ESSENTIAL_TYPES = NOTIFICATION_TYPES;

/** Mail about messages: the first within this time of the member going away with something unread… */
export const MESSAGE_MAIL_DELAY_MS = 60_000;
/** …and what comes in the following minutes joins one digest at the end of them. */
export const MESSAGE_DIGEST_WINDOW_MS = 15 * 60_000;
/** A visible page renews the member's presence this often; it counts for twice as long (a missed renewal is no absence). */
export const PRESENCE_RENEW_MS = 60_000;

export const notificationPreferenceSchema = z.strictObject({
  type: z.enum(NOTIFICATION_TYPES),
  channel: z.enum(NOTIFICATION_CHANNELS),
  enabled: z.boolean(),
});
export type NotificationPreference = z.infer<typeof notificationPreferenceSchema>;

/** The notifications page: every type with both channels, why mail is stopped (if it is) and to which address. */
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
    .refine((list) => new Set(list.map((p) => `${p.type}:${p.channel}`)).size === list.length, 'each type and channel once'),
});

/** Mail again after it stopped: the member says so explicitly, for the reasons listed (a bounce: the address is confirmed right). */
export const resumeMailSchema = z.strictObject({ reasons: z.array(z.enum(NOTIFICATIONS_DISABLED_REASONS)).min(1).max(3) });

/** An unsubscribe link's token (from a mail): opaque to the client. */
export const unsubscribeTokenSchema = z.string().regex(/^[\w-]{10,200}\.[\w-]{20,100}$/, 'invalid token');
export const unsubscribeQuerySchema = z.object({ t: unsubscribeTokenSchema });
/** What an unsubscribe link stops: one type's mail, or (the one-click header) all non-essential mail. */
export const unsubscribeInfoSchema = z.object({
  type: z.enum(NOTIFICATION_TYPES).nullable(),
  site: z.string(),
  done: z.boolean(),
});
export type UnsubscribeInfo = z.infer<typeof unsubscribeInfoSchema>;

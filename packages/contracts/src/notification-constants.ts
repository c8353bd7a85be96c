/** Notification types, channels, defaults and timings (spec §3, §9): values without zod, for the web app's shell too. */

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
 * The channels each type comes by: every type by mail; by push only what happens on the site (a message, a like,
 * a match) and the reminder of messages left unread. The weekly update, the reminders, news and promotions are
 * mails: a push is for what is waiting now, not for something to read at leisure.
 */
export const NOTIFICATION_CHANNELS_OF: Record<NotificationType, readonly NotificationChannel[]> = {
  new_conversations: ['email', 'push'],
  new_messages: ['email', 'push'],
  like: ['email', 'push'],
  unread_message_reminders: ['email', 'push'],
  promotions: ['email'],
  weekly_updates: ['email'],
  news: ['email'],
  reminders: ['email'],
};

/** Whether `type` comes by `channel` at all (NOTIFICATION_CHANNELS_OF). */
export function isOffered(type: NotificationType, channel: NotificationChannel): boolean {
  return NOTIFICATION_CHANNELS_OF[type].includes(channel);
}

/**
 * What a member gets before choosing: what other members do (messages, likes and matches) and the reminders of
 * what waits for them, by mail and push; promotions and news only once they opt in (consent); the weekly update
 * and the reminders by mail (the only channel they come by, NOTIFICATION_CHANNELS_OF).
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

/** Mail about messages: the first within this time of the member going away with something unread… */
export const MESSAGE_MAIL_DELAY_MS = 60_000;
/** …and what comes in the following minutes joins one digest at the end of them. */
export const MESSAGE_DIGEST_WINDOW_MS = 15 * 60_000;
/** A visible page renews the member's presence this often; it counts for twice as long (a missed renewal is no absence). */
export const PRESENCE_RENEW_MS = 60_000;

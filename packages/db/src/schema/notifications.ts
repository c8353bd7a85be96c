/**
 * Notifications: what a member chose to hear about, whether they are on the site, the state of their message
 * notices, their push subscriptions, the delivery reports about their address, and the keys the server signs with.
 */
import { sql } from 'drizzle-orm';
import { bigint, boolean, check, index, integer, pgTable, primaryKey, text, timestamp, uniqueIndex } from 'drizzle-orm/pg-core';
import { users } from './accounts';
import { createdAt } from './columns';
import { sites } from './sites';

/** A member's choice for one type and channel; a type without a row has its default (contracts NOTIFICATION_DEFAULTS). */
export const notificationPreferences = pgTable(
  'notification_preferences',
  {
    userId: bigint('user_id', { mode: 'number' })
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    type: text('type').notNull(),
    channel: text('channel').notNull(),
    enabled: boolean('enabled').notNull(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    primaryKey({ columns: [t.userId, t.type, t.channel] }),
    check('notification_preferences_channel_check', sql`${t.channel} in ('email', 'push')`),
  ],
);

/**
 * Whether a member is on the site: a page of theirs is open and visible (the live channel says so, and the
 * page-hidden beacon says when it is not). Active while `active_until` is ahead; a visible page renews it.
 */
export const memberPresence = pgTable('member_presence', {
  userId: bigint('user_id', { mode: 'number' })
    .primaryKey()
    .references(() => users.id, { onDelete: 'cascade' }),
  activeUntil: timestamp('active_until', { withTimezone: true }).notNull(),
  updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
});

/** Per member: up to which moment their messages have been told of by mail and by push, so the next notice tells only what came after. */
export const messageNotices = pgTable('message_notices', {
  userId: bigint('user_id', { mode: 'number' })
    .primaryKey()
    .references(() => users.id, { onDelete: 'cascade' }),
  mailedAt: timestamp('mailed_at', { withTimezone: true }),
  pushedAt: timestamp('pushed_at', { withTimezone: true }),
  /** The last reminder of messages left unread (the unread_message_reminders type). */
  remindedAt: timestamp('reminded_at', { withTimezone: true }),
});

/** A browser's push subscription (Web Push), one per endpoint, for a member on a site. */
export const pushSubscriptions = pgTable(
  'push_subscriptions',
  {
    id: bigint('id', { mode: 'number' }).primaryKey().generatedByDefaultAsIdentity(),
    userId: bigint('user_id', { mode: 'number' })
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    siteId: integer('site_id')
      .notNull()
      .references(() => sites.id),
    endpoint: text('endpoint').notNull(),
    p256dh: text('p256dh').notNull(),
    auth: text('auth').notNull(),
    userAgent: text('user_agent').notNull().default(''),
    createdAt: createdAt(),
    /** The last app start that sent it again: a subscription unseen for long is pruned. */
    seenAt: timestamp('seen_at', { withTimezone: true }).notNull().defaultNow(),
    /** The push service asked to slow down (429): nothing is sent to it before this. */
    retryAfter: timestamp('retry_after', { withTimezone: true }),
  },
  (t) => [uniqueIndex('push_subscriptions_endpoint_idx').on(t.endpoint), index('push_subscriptions_user_idx').on(t.userId)],
);

/** A delivery report about a member's address: a bounce (RFC 3464) or a spam complaint (ARF, RFC 5965). */
export const mailReports = pgTable(
  'mail_reports',
  {
    id: bigint('id', { mode: 'number' }).primaryKey().generatedByDefaultAsIdentity(),
    userId: bigint('user_id', { mode: 'number' }).references(() => users.id, { onDelete: 'cascade' }),
    kind: text('kind').notNull(),
    /** permanent or temporary (a bounce), or the feedback type (a complaint). */
    status: text('status').notNull(),
    detail: text('detail').notNull().default(''),
    createdAt: createdAt(),
  },
  (t) => [index('mail_reports_user_idx').on(t.userId, t.createdAt), check('mail_reports_kind_check', sql`${t.kind} in ('bounce', 'fbl')`)],
);

/** Keys the server makes once and every process shares: the VAPID key pair of Web Push, the secret of unsubscribe links. */
export const serverKeys = pgTable('server_keys', {
  name: text('name').primaryKey(),
  publicKey: text('public_key').notNull().default(''),
  privateKey: text('private_key').notNull(),
  createdAt: createdAt(),
});

/**
 * The mails a member gets now and then rather than for an event (the reminders and weekly_updates types): when the
 * last of each kind went out and how many did, so each goes at its pace and stops after its count.
 */
export const memberReminders = pgTable(
  'member_reminders',
  {
    userId: bigint('user_id', { mode: 'number' })
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    kind: text('kind').notNull(),
    sentAt: timestamp('sent_at', { withTimezone: true }).notNull(),
    count: integer('count').notNull().default(1),
  },
  (t) => [
    primaryKey({ columns: [t.userId, t.kind] }),
    check('member_reminders_kind_check', sql`${t.kind} in ('confirm_address', 'complete_profile', 'weekly_update')`),
  ],
);

/**
 * Chat: conversations, their messages, and the message written while signing up from a profile.
 */
import type { Message, MessageKind } from '@amora/contracts';
import { sql } from 'drizzle-orm';
import { bigint, check, index, integer, pgTable, text, timestamp, uniqueIndex } from 'drizzle-orm/pg-core';
import { users } from './accounts';
import { createdAt } from './columns';
import { profiles } from './profiles';
import { sites } from './sites';

/** The message written while signing up from a profile; it becomes the first chat message when the account is activated. */
export const signupMessages = pgTable('signup_messages', {
  id: bigint('id', { mode: 'number' }).primaryKey().generatedByDefaultAsIdentity(),
  userId: bigint('user_id', { mode: 'number' })
    .notNull()
    .references(() => users.id, { onDelete: 'cascade' }),
  toProfileId: bigint('to_profile_id', { mode: 'number' })
    .notNull()
    .references(() => profiles.id, { onDelete: 'cascade' }),
  text: text('text').notNull(),
  deliveredAt: timestamp('delivered_at', { withTimezone: true }),
  createdAt: createdAt(),
});

/**
 * A chat between two profiles of one site (spec §3 chat state, §4): `profileLowId` is the lower profile id, so a
 * pair has one conversation. Per side: the last sequence it has read, its unread count, and `clearedSeq` (it
 * removed the chat: the messages up to there are gone for that side only; a later message brings the chat back).
 * `lastSeq` is the sequence of the last message; a send takes the next one under this row's lock, so the commit
 * order is the sequence order.
 */
export const conversations = pgTable(
  'conversations',
  {
    id: bigint('id', { mode: 'number' }).primaryKey().generatedByDefaultAsIdentity(),
    siteId: integer('site_id')
      .notNull()
      .references(() => sites.id),
    profileLowId: bigint('profile_low_id', { mode: 'number' })
      .notNull()
      .references(() => profiles.id, { onDelete: 'cascade' }),
    profileHighId: bigint('profile_high_id', { mode: 'number' })
      .notNull()
      .references(() => profiles.id, { onDelete: 'cascade' }),
    /** Who sent the first message: a free member may start two conversations (spec §5). */
    startedByProfileId: bigint('started_by_profile_id', { mode: 'number' }).notNull(),
    lastSeq: integer('last_seq').notNull().default(0),
    lowReadSeq: integer('low_read_seq').notNull().default(0),
    highReadSeq: integer('high_read_seq').notNull().default(0),
    lowUnread: integer('low_unread').notNull().default(0),
    highUnread: integer('high_unread').notNull().default(0),
    lowClearedSeq: integer('low_cleared_seq').notNull().default(0),
    highClearedSeq: integer('high_cleared_seq').notNull().default(0),
    createdAt: createdAt(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    uniqueIndex('conversations_pair_idx').on(t.profileLowId, t.profileHighId),
    index('conversations_high_idx').on(t.profileHighId, t.updatedAt),
    index('conversations_low_idx').on(t.profileLowId, t.updatedAt),
    index('conversations_started_by_idx').on(t.startedByProfileId),
    check('conversations_pair_check', sql`${t.profileLowId} < ${t.profileHighId}`),
  ],
);

/**
 * A chat message. `seq` numbers the messages of a conversation 1, 2, 3… without gaps; `clientId` is the sender's
 * own id for the send, so a retried send is stored (and charged) once. `price` is what the sender paid in credits.
 */
export const messages = pgTable(
  'messages',
  {
    id: bigint('id', { mode: 'number' }).primaryKey().generatedByDefaultAsIdentity(),
    conversationId: bigint('conversation_id', { mode: 'number' })
      .notNull()
      .references(() => conversations.id, { onDelete: 'cascade' }),
    seq: integer('seq').notNull(),
    senderProfileId: bigint('sender_profile_id', { mode: 'number' })
      .notNull()
      .references(() => profiles.id, { onDelete: 'cascade' }),
    kind: text('kind').$type<MessageKind>().notNull().default('text'),
    body: text('body').notNull(),
    clientId: text('client_id').notNull(),
    price: integer('price').notNull().default(0),
    status: text('status').$type<Message['status']>().notNull().default('sent'),
    /** A gift message's gift (an id of GIFTS in the contracts); null for any other kind. */
    gift: text('gift'),
    /** A photo message's files (under the sender's media, as profile photos) and size; null for any other kind. */
    photoKey: text('photo_key'),
    photoWidth: integer('photo_width'),
    photoHeight: integer('photo_height'),
    /** When the recipient chose to see the photo unblurred (remembered); null until then. */
    photoRevealedAt: timestamp('photo_revealed_at', { withTimezone: true }),
    createdAt: createdAt(),
  },
  (t) => [
    uniqueIndex('messages_conversation_seq_idx').on(t.conversationId, t.seq),
    uniqueIndex('messages_sender_client_idx').on(t.senderProfileId, t.clientId),
    // Business reports (modules/reports): messages and active members per day.
    index('messages_created_idx').on(t.createdAt, t.senderProfileId),
    check('messages_kind_check', sql`${t.kind} in ('text', 'gift', 'photo')`),
    check('messages_status_check', sql`${t.status} in ('sent', 'rejected')`),
    check('messages_price_check', sql`${t.price} >= 0`),
    check('messages_gift_check', sql`(${t.kind} = 'gift') = (${t.gift} is not null)`),
    check('messages_photo_check', sql`(${t.kind} = 'photo') = (${t.photoKey} is not null)`),
  ],
);

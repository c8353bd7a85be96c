import { z } from 'zod';
import { idSchema } from './fields';
import { LIKE_SOURCES } from './likes-constants';

/**
 * Events the server raises after a change is committed, on its event bus (in the process, or over Redis
 * pub/sub between processes). Each names its site and the ids of what changed, never a secret or a member's
 * text: a listener reads what it needs from the database. Every payload that arrives from Redis is checked
 * against these schemas; one that does not match is dropped.
 *
 * A new event: a schema below with a `type` literal `<noun>.<past-tense verb>`, added to `appEventSchema`.
 */

/** A member (or, for an auto-like, a fictional profile) liked a profile; raised once, when the like is new. */
export const likeCreatedEventSchema = z.object({
  type: z.literal('like.created'),
  siteId: idSchema(),
  likerProfileId: idSchema(),
  likedProfileId: idSchema(),
  source: z.enum(LIKE_SOURCES),
});

/** A new like made two profiles like each other: `profileId` liked last, `matchedProfileId` had liked first. */
export const matchCreatedEventSchema = z.object({
  type: z.literal('match.created'),
  siteId: idSchema(),
  profileId: idSchema(),
  matchedProfileId: idSchema(),
});

/** A member changed their profile; `fields` names what changed, as the API names it (`main_photo` for the photo). */
export const profileChangedEventSchema = z.object({
  type: z.literal('profile.changed'),
  siteId: idSchema(),
  profileId: idSchema(),
  fields: z.array(z.string().max(64)).max(64),
});

/** A site's settings changed: every process reads its sites again. */
export const siteSettingsChangedEventSchema = z.object({
  type: z.literal('site.settings-changed'),
  siteId: idSchema(),
});

/**
 * A member's account, profile or sessions changed (a change they made, a logout, a deletion): every process
 * forgets the sessions of theirs it keeps (the server's session cache) and reads them again.
 */
export const sessionRevokedEventSchema = z.object({
  type: z.literal('session.revoked'),
  siteId: idSchema(),
  userId: idSchema(),
});

/**
 * A chat message was stored (a new one, never a retried send): the live channel tells both members' open
 * connections, which fetch the messages after the last sequence they have.
 */
export const messageCreatedEventSchema = z.object({
  type: z.literal('message.created'),
  siteId: idSchema(),
  conversationId: idSchema(),
  messageId: idSchema(),
  seq: idSchema(),
  senderProfileId: idSchema(),
  recipientProfileId: idSchema(),
});

/** A member is typing in a conversation of theirs: the live channel tells the partner's open connections. */
export const chatTypingEventSchema = z.object({
  type: z.literal('chat.typed'),
  siteId: idSchema(),
  conversationId: idSchema(),
  profileId: idSchema(),
  recipientProfileId: idSchema(),
});

/** A member has read a conversation of theirs up to `seq`: the live channel tells the partner's connections. */
export const chatReadEventSchema = z.object({
  type: z.literal('chat.read'),
  siteId: idSchema(),
  conversationId: idSchema(),
  seq: idSchema(),
  profileId: idSchema(),
  recipientProfileId: idSchema(),
});

/**
 * The recipient of a photo message chose to see it (chat-photo-reveal.php), raised only while both members have
 * read receipts on: the live channel tells the sender's connections, whose chat shows "Opened" under the photo.
 */
export const chatPhotoOpenedEventSchema = z.object({
  type: z.literal('chat.photo-opened'),
  siteId: idSchema(),
  conversationId: idSchema(),
  messageId: idSchema(),
  profileId: idSchema(),
  recipientProfileId: idSchema(),
});

export const appEventSchema = z.discriminatedUnion('type', [
  likeCreatedEventSchema,
  matchCreatedEventSchema,
  profileChangedEventSchema,
  siteSettingsChangedEventSchema,
  sessionRevokedEventSchema,
  messageCreatedEventSchema,
  chatTypingEventSchema,
  chatReadEventSchema,
  chatPhotoOpenedEventSchema,
]);

export type AppEvent = z.infer<typeof appEventSchema>;
export type AppEventType = AppEvent['type'];
export type AppEventOf<T extends AppEventType> = Extract<AppEvent, { type: T }>;

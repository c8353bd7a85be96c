import { z } from 'zod';
import { idSchema } from './fields';
import { LIKE_SOURCES } from './likes-constants';

/**
 * Events the server raises after a change is committed, on its event bus (in the process, or over Redis
 * pub/sub between processes). Each names its site (staff belong to none) and the ids of what changed, never a
 * secret or a member's text: a listener reads what it needs from the database. Every payload that arrives from
 * Redis is checked against these schemas; one that does not match is dropped.
 *
 * A new event: a schema below with a `type` literal `<noun>.<past-tense verb>`, added to `appEventSchema`.
 */

/** A member (or, for an auto-like, a fictional profile) liked a profile; raised once, when the like is new. */
const likeCreatedEventSchema = z.object({
  type: z.literal('like.created'),
  siteId: idSchema(),
  likerProfileId: idSchema(),
  likedProfileId: idSchema(),
  source: z.enum(LIKE_SOURCES),
});

/** A new like made two profiles like each other: `profileId` liked last, `matchedProfileId` had liked first. */
const matchCreatedEventSchema = z.object({
  type: z.literal('match.created'),
  siteId: idSchema(),
  profileId: idSchema(),
  matchedProfileId: idSchema(),
});

/** A member changed their profile; `fields` names what changed, as the API names it (`main_photo` for the photo). */
const profileChangedEventSchema = z.object({
  type: z.literal('profile.changed'),
  siteId: idSchema(),
  profileId: idSchema(),
  fields: z.array(z.string().max(64)).max(64),
});

/** A site's settings changed: every process reads its sites again. */
const siteSettingsChangedEventSchema = z.object({
  type: z.literal('site.settings-changed'),
  siteId: idSchema(),
});

/**
 * Sessions of a member ended: a logout (that session), a new password, a deleted or purged account (all of them).
 * Every process forgets the member's sessions it keeps, and the live channel closes their sockets whose session
 * is gone.
 */
const sessionEndedEventSchema = z.object({
  type: z.literal('session.ended'),
  siteId: idSchema(),
  userId: idSchema(),
});

/**
 * A member's account row changed in a way their pages show: premium or balance by a payment, language, email,
 * activation, read receipts. Every process forgets the member's sessions it keeps (they carry the account row),
 * so the next read shows it. A change of the profile row is `profile.changed`; a balance spent on a message or a
 * gift raises nothing (docs/decisions.md: every process sees it within the session cache's 5 s).
 */
const accountChangedEventSchema = z.object({
  type: z.literal('account.changed'),
  siteId: idSchema(),
  userId: idSchema(),
});

/**
 * A chat message was stored (a new one, never a retried send): the live channel tells both members' open
 * connections, which fetch the messages after the last sequence they have.
 */
const messageCreatedEventSchema = z.object({
  type: z.literal('message.created'),
  siteId: idSchema(),
  conversationId: idSchema(),
  messageId: idSchema(),
  seq: idSchema(),
  senderProfileId: idSchema(),
  recipientProfileId: idSchema(),
  /**
   * One of the two profiles is fictional: a member wrote to one, or an operator answered as one. The console's
   * inbox is told (its live channel); absent from an older process, which counts as not.
   */
  fictional: z.boolean().optional(),
});

/**
 * An operator claimed a conversation with a fictional profile or let it go (the console's inbox): every
 * process tells the consoles it holds, which show who is answering. A claim that runs out raises nothing.
 */
const inboxClaimChangedEventSchema = z.object({
  type: z.literal('inbox.claim-changed'),
  siteId: idSchema(),
  conversationId: idSchema(),
});

/**
 * A staff member's sessions or role changed (a sign-out, a session ended from another device, deactivated, the
 * authenticator reset, another role): every process checks the console streams it holds for them again and ends
 * those whose session has ended or whose role may no longer read them. Staff belong to no site.
 */
const staffChangedEventSchema = z.object({
  type: z.literal('staff.changed'),
  staffId: idSchema(),
});

/** A member is typing in a conversation of theirs: the live channel tells the partner's open connections. */
const chatTypingEventSchema = z.object({
  type: z.literal('chat.typed'),
  siteId: idSchema(),
  conversationId: idSchema(),
  profileId: idSchema(),
  recipientProfileId: idSchema(),
});

/** A member has read a conversation of theirs up to `seq`: the live channel tells the partner's connections. */
const chatReadEventSchema = z.object({
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
const chatPhotoOpenedEventSchema = z.object({
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
  sessionEndedEventSchema,
  accountChangedEventSchema,
  messageCreatedEventSchema,
  chatTypingEventSchema,
  chatReadEventSchema,
  chatPhotoOpenedEventSchema,
  inboxClaimChangedEventSchema,
  staffChangedEventSchema,
]);

export type AppEvent = z.infer<typeof appEventSchema>;
export type AppEventType = AppEvent['type'];
export type AppEventOf<T extends AppEventType> = Extract<AppEvent, { type: T }>;

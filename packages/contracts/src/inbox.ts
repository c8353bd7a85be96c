import { z } from 'zod';
import { INTERESTS } from './constants';
import { idSchema, multilineTextSchema, textSchema } from './fields';
import { TARGET_COUNTRIES } from './locales';
import { GENDERS, SEXUALITIES } from './profile-values';

/**
 * The fictional-profile inbox of the operator console: members' messages to fictional profiles that wait for an
 * answer, which an operator writes by hand as the fictional profile after claiming the conversation, and the
 * fictional profiles themselves. Nothing answers by itself.
 */

/** How long a claim holds a conversation for its operator; claiming again while it is held renews it. */
export const INBOX_CLAIM_MS = 5 * 60_000;
/** Conversations per page of the inbox. */
export const INBOX_PAGE_SIZE = 25;
/** Messages per page of a conversation (older ones come with `before`). */
export const INBOX_MESSAGES_PAGE = 50;

/** Catalogue keys (console namespace) of the inbox's errors. */
export const INBOX_ERRORS = {
  claimedByOther: 'console.inbox.errors.claimedByOther',
  claimNeeded: 'console.inbox.errors.claimNeeded',
  answered: 'console.inbox.errors.answered',
  /** The member's account is deleted, their profile disabled or suspended, or their address not confirmed. */
  memberUnavailable: 'console.inbox.errors.memberUnavailable',
  /** The member blocked the fictional profile (or it them). */
  blocked: 'console.inbox.errors.blocked',
} as const;

/**
 * The console's live channel (Server-Sent Events; under /api/console, where the console's cookie goes): a
 * doorbell as the members' one is, never the data. Each event is one `data:` line of a frame below; the console
 * reads the inbox again when told.
 */
export const CONSOLE_LIVE_PATH = '/api/console/live';
export const consoleLiveFrameSchema = z.discriminatedUnion('type', [
  /** The stream is open (again): read what is shown now, as something may have been missed meanwhile. */
  z.object({ type: z.literal('ready') }),
  /** A conversation with a fictional profile changed: a member's message, an answer, a claim taken or let go. */
  z.object({ type: z.literal('inbox'), conversation_id: idSchema(), site_id: idSchema() }),
  /** The staff session ended (signed out, ended elsewhere, made inactive, another role): sign in again. */
  z.object({ type: z.literal('ended') }),
]);
export type ConsoleLiveFrame = z.infer<typeof consoleLiveFrameSchema>;

export const inboxQuerySchema = z.object({
  site: z.coerce.number().int().positive().max(2_147_483_647).optional(),
  page: z.coerce.number().int().min(1).max(10_000).default(1),
});
export const inboxParamsSchema = z.object({ conversationId: z.coerce.number().pipe(idSchema()) });
export const inboxConversationQuerySchema = z.object({
  /** Messages older than this sequence (the next page back). */
  before: z.coerce.number().int().positive().max(2_147_483_647).optional(),
});
export const inboxPhotoParamsSchema = z.object({
  conversationId: z.coerce.number().pipe(idSchema()),
  photoId: z.coerce.number().pipe(idSchema()),
});

const siteRefSchema = z.object({ id: z.number(), name: z.string(), domain: z.string() });

/** A profile as the operator sees it beside a conversation. */
const inboxProfileSchema = z.object({
  id: z.number(),
  name: z.string(),
  age: z.number(),
  gender: z.string().nullable(),
  sexuality: z.string().nullable(),
  country: z.string(),
  region: z.string().nullable(),
  city: z.string().nullable(),
  about: z.string(),
  interests: z.array(z.string()),
  is_fictional: z.boolean(),
  /** The main photo's address in the console (a thumbnail), or null. */
  photo_url: z.string().nullable(),
});
export type InboxProfile = z.infer<typeof inboxProfileSchema>;

const claimSchema = z.object({
  staff_id: z.number(),
  staff_name: z.string(),
  mine: z.boolean(),
  expires_at: z.string(),
});
export type InboxClaim = z.infer<typeof claimSchema>;

const inboxItemSchema = z.object({
  conversation_id: z.number(),
  site: siteRefSchema,
  member: inboxProfileSchema.pick({ id: true, name: true, age: true, city: true, country: true, photo_url: true }),
  fictional: inboxProfileSchema.pick({ id: true, name: true, photo_url: true }),
  /** The member's messages since the last answer. */
  waiting: z.number(),
  last_message_at: z.string(),
  claim: claimSchema.nullable(),
});
export const inboxListSchema = z.object({
  items: z.array(inboxItemSchema),
  page: z.number(),
  pages: z.number(),
  total: z.number(),
  /** Every site, for the site picker. */
  sites: z.array(siteRefSchema),
});
export type InboxList = z.infer<typeof inboxListSchema>;

const inboxMessageSchema = z.object({
  id: z.number(),
  seq: z.number(),
  /** Who wrote it: the member, or the fictional profile (an operator's answer). */
  from: z.enum(['member', 'fictional']),
  kind: z.string(),
  body: z.string(),
  status: z.string(),
  created_at: z.string(),
});

export const inboxConversationSchema = z.object({
  conversation_id: z.number(),
  site: siteRefSchema,
  member: inboxProfileSchema,
  fictional: inboxProfileSchema,
  /** Oldest first; `more`: older ones exist (ask with before = the first one's seq). */
  messages: z.array(inboxMessageSchema),
  more: z.boolean(),
  /** The last message is the member's: it waits for an answer. */
  unanswered: z.boolean(),
  /**
   * Why the member cannot be answered, or null when they can: `member_unavailable` (account deleted, profile
   * disabled or suspended, address not confirmed) or `blocked` (either profile blocked the other). Such a
   * conversation does not wait in the inbox, and an answer is refused.
   */
  unanswerable: z.enum(['member_unavailable', 'blocked']).nullable(),
  claim: claimSchema.nullable(),
  /** The site's longest message. */
  max_length: z.number(),
});
export type InboxConversation = z.infer<typeof inboxConversationSchema>;

export const inboxClaimedSchema = z.object({ claim: claimSchema });
export const inboxAnswerSchema = z.object({ text: multilineTextSchema().trim().min(1).max(5000) }).strict();
export const inboxAnsweredSchema = z.object({ message_id: z.number() });

/** A fictional profile's fields, as a member's profile takes them (the profiles module's values). */
export const fictionalProfileInputSchema = z
  .object({
    site_id: z.number().int().positive().max(2_147_483_647),
    name: textSchema().trim().min(2).max(40),
    birth_date: z.iso.date().refine((value) => {
      const years = (Date.now() - Date.parse(value)) / (365.25 * 86_400_000);
      return years >= 18 && years < 100;
    }, 'console.fictional.errors.age'),
    gender: z.enum(GENDERS),
    sexuality: z.enum(SEXUALITIES).nullable().optional(),
    country: z.enum(TARGET_COUNTRIES),
    region: textSchema().max(20).nullable().optional(),
    city: textSchema().trim().max(100).nullable().optional(),
    about: multilineTextSchema().trim().max(2000).default(''),
    interests: z.array(z.enum(INTERESTS)).max(INTERESTS.length).default([]),
  })
  .strict();
export type FictionalProfileInput = z.input<typeof fictionalProfileInputSchema>;
/** An edit: the same fields (the site stays), and `status` to retire a profile or bring it back. */
export const fictionalProfileUpdateSchema = fictionalProfileInputSchema
  .omit({ site_id: true })
  .partial()
  .extend({ status: z.enum(['active', 'retired']).optional() })
  .strict();
export type FictionalProfileUpdate = z.input<typeof fictionalProfileUpdateSchema>;
export const fictionalProfileParamsSchema = z.object({ id: z.coerce.number().pipe(idSchema()) });
export const fictionalProfilesQuerySchema = z.object({
  site: z.coerce.number().int().positive().max(2_147_483_647).optional(),
  page: z.coerce.number().int().min(1).max(10_000).default(1),
});

const fictionalProfileSchema = z.object({
  id: z.number(),
  site: siteRefSchema,
  name: z.string(),
  birth_date: z.string(),
  age: z.number(),
  gender: z.string().nullable(),
  sexuality: z.string().nullable(),
  country: z.string(),
  region: z.string().nullable(),
  city: z.string().nullable(),
  about: z.string(),
  interests: z.array(z.string()),
  /** active, or retired (no longer shown, its conversations kept). */
  status: z.string(),
  is_fictional: z.literal(true),
  /** The main photo's thumbnail in the console, or null. */
  photo_url: z.string().nullable(),
});
export type FictionalProfile = z.infer<typeof fictionalProfileSchema>;
export const fictionalProfileResponseSchema = z.object({ profile: fictionalProfileSchema });
export const fictionalProfileListSchema = z.object({
  profiles: z.array(fictionalProfileSchema),
  sites: z.array(siteRefSchema),
  page: z.number(),
  pages: z.number(),
  total: z.number(),
});
export type FictionalProfileList = z.infer<typeof fictionalProfileListSchema>;

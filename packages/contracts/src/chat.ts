import { z } from 'zod';
import { chatPhotoSchema, giftIdSchema } from './chat-media';
import { cursorSchema, idSchema, multilineTextSchema } from './fields';
import { profileCardSchema } from './profiles';

/**
 * Chat (spec §2 chats, chats-id, members-id-chat; §3 chat state; §4; §7 chats.php and chat.php). The spec names
 * GET chats.php and DELETE chat.php; the message calls follow their style: GET and POST messages.php, and
 * POST chat-read.php when a chat is opened.
 */

/**
 * "Older chat history is hidden for privacy" (spec §9): messages older than this many days are no longer shown to
 * either member (docs/decisions.md). The messages call says when older messages exist, so the chat shows a line.
 */
export const CHAT_HISTORY_DAYS = 90;
/** Messages per page of messages.php, by default and at most. */
export const MESSAGES_PAGE = 50;
const MESSAGES_PAGE_MAX = 100;
/** Longest text the API takes at all; the site's `message_length` is the limit that applies. */
const MESSAGE_BODY_MAX = 10_000;
const MESSAGE_KINDS = ['text', 'gift', 'photo'] as const;
export type MessageKind = (typeof MESSAGE_KINDS)[number];

/**
 * Why a member cannot send in a chat now, as the chat shows it (both sides see why):
 * - `partner_unconfirmed`: the other member has not confirmed their email address and cannot be answered yet;
 * - `own_unconfirmed`: my email address is unconfirmed, so the other member cannot answer me until I confirm;
 * - `blocked_by_partner`: 'You are blocked by {name}';
 * - `blocked_partner`: I blocked the other member;
 * - `partner_gone`: the other profile is no longer active.
 */
const CHAT_BLOCKS = ['partner_unconfirmed', 'own_unconfirmed', 'blocked_by_partner', 'blocked_partner', 'partner_gone'] as const;
export type ChatBlock = (typeof CHAT_BLOCKS)[number];

/** Error codes of the chat calls (with the HTTP status each comes with). */
export const CHAT_ERRORS = {
  /** 402: the balance is below the price; nothing was stored. Carries `credits` and `price`. */
  notEnoughCredits: 'not_enough_credits',
  /** 403: a free member tries to start a third conversation (spec §5). */
  conversationLimit: 'conversation_limit',
  /** 409: the other member's email is unconfirmed: they cannot be answered until they confirm (spec §4). */
  partnerUnconfirmed: 'partner_unconfirmed',
  /** 403: the other member blocked me; carries `name` for 'You are blocked by {name}' (spec §4). */
  blockedByPartner: 'blocked_by_partner',
  /** 403: I blocked the other member. */
  blockedPartner: 'blocked_partner',
  /** 409: the other profile is no longer active. */
  partnerGone: 'partner_gone',
} as const;

/** The last message of a chat, for the list. */
const chatPreviewSchema = z.object({
  seq: z.number().int(),
  kind: z.enum(MESSAGE_KINDS),
  /** The text, cut to 100 characters (empty for a rejected message). */
  body: z.string(),
  /** A gift message's gift (its name is shown: "You: Coffee"). */
  gift: giftIdSchema.optional(),
  from_me: z.boolean(),
  created_at: z.string(),
});

/** One chat of chats.php: spec §3 `conversation.id`, `profile.id`, `num_unread_messages`, plus what the list shows. */
const chatSchema = z.object({
  conversation: z.object({ id: z.number().int(), last_seq: z.number().int(), updated_at: z.string() }),
  profile: profileCardSchema,
  num_unread_messages: z.number().int(),
  last_message: chatPreviewSchema.nullable(),
  /** Why I cannot send here now; null when I can. */
  blocked: z.enum(CHAT_BLOCKS).nullable(),
});
export type Chat = z.infer<typeof chatSchema>;

/** GET /api/chats.php: the member's chats, the latest first, and their unread messages in all. */
export const chatsResponseSchema = z.object({ chats: z.array(chatSchema), num_unread_messages: z.number().int() });
export type ChatsResponse = z.infer<typeof chatsResponseSchema>;

/** DELETE /api/chat.php and POST /api/chat-read.php. */
export const conversationTargetSchema = z.object({ conversation: idSchema() }).strict();

export const messageSchema = z.object({
  id: z.number().int(),
  conversation_id: z.number().int(),
  seq: z.number().int(),
  sender_profile_id: z.number().int(),
  from_me: z.boolean(),
  kind: z.enum(MESSAGE_KINDS),
  /** Empty when moderation rejected the message. */
  body: z.string(),
  status: z.enum(['sent', 'rejected']),
  /** What the sender paid (shown to the sender only; 0 for the recipient). */
  price: z.number().int(),
  /** The sender's id for the send (to the sender only; null for the recipient). */
  client_id: z.string().nullable(),
  created_at: z.string(),
  /** A gift message's gift (chat-media.ts GIFTS); absent for other kinds and once rejected. */
  gift: giftIdSchema.optional(),
  /** A photo message's photo; absent for other kinds and once rejected. */
  photo: chatPhotoSchema.optional(),
});
export type Message = z.infer<typeof messageSchema>;

/**
 * POST /api/messages.php: a text message (`body`) or a gift (`gift`, one of GIFTS, costing `gift_credits`) to a
 * conversation of mine, or to a profile (the conversation with it, started when there is none). `client_id` is the
 * sender's own id for this send (a UUID, say): sending again with it stores and charges nothing more and answers
 * the first message.
 */
export const sendMessageSchema = z
  .object({
    conversation: idSchema().optional(),
    profile: idSchema().optional(),
    body: multilineTextSchema().max(MESSAGE_BODY_MAX, 'chat.errors.tooLong').optional(),
    gift: giftIdSchema.optional(),
    client_id: z.string().regex(/^[A-Za-z0-9_-]{8,64}$/, 'chat.errors.clientId'),
  })
  .strict()
  .refine((v) => (v.conversation === undefined) !== (v.profile === undefined), {
    message: 'chat.errors.target',
    path: ['conversation'],
  })
  .refine((v) => (v.body === undefined) !== (v.gift === undefined), {
    message: 'chat.errors.bodyOrGift',
    path: ['body'],
  });
export type SendMessageInput = z.input<typeof sendMessageSchema>;

export const sendMessageResponseSchema = z.object({
  message: messageSchema,
  /** My balance after the send (after the first send, for a retry). */
  credits: z.number().int(),
});
export type SendMessageResponse = z.infer<typeof sendMessageResponseSchema>;

/** POST /api/chat-photo-reveal.php: the photo message, now unblurred for me. */
export const chatPhotoRevealResponseSchema = z.object({ message: messageSchema });

const seqParam = () =>
  z
    .string()
    .regex(/^\d{1,9}$/)
    .transform(Number);

/**
 * GET /api/messages.php: `after` → the messages after that sequence, oldest first (what a client missed); `before`
 * → the page before it (older history); neither → the newest page.
 */
export const messagesQuerySchema = z
  .object({
    conversation: cursorSchema().transform(Number),
    after: seqParam().optional(),
    before: seqParam().optional(),
    limit: z
      .string()
      .regex(/^\d{1,3}$/)
      .transform(Number)
      .pipe(z.number().int().min(1).max(MESSAGES_PAGE_MAX))
      .optional(),
  })
  .strict()
  .refine((v) => v.after === undefined || v.before === undefined, { message: 'Give after or before, not both', path: ['after'] });
export type MessagesQuery = z.input<typeof messagesQuerySchema>;

export const messagesResponseSchema = z.object({
  conversation: z.object({ id: z.number().int(), last_seq: z.number().int() }),
  profile: profileCardSchema,
  blocked: z.enum(CHAT_BLOCKS).nullable(),
  /** Oldest first. */
  messages: z.array(messageSchema),
  /** More messages after the last one given (ask again with after = its seq). */
  has_more_after: z.boolean(),
  /** Older messages I may still see exist (ask with before = the first one's seq). */
  has_more_before: z.boolean(),
  /** Older messages exist that are hidden for privacy (spec §9): the chat shows a line where its history ends. */
  history_hidden: z.boolean(),
  /**
   * How far the other member has read (my messages up to this sequence show "Seen"); null when either of us has
   * turned read receipts off.
   */
  partner_read_seq: z.number().int().nullable().optional(),
});
export type MessagesResponse = z.infer<typeof messagesResponseSchema>;

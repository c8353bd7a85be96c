import { z } from 'zod';
import { cursorSchema, idSchema } from './fields';

/**
 * Gifts, photo messages and icebreakers in the chat (spec §1 "gifts and images are also possible", §2 chat window
 * icebreakers, §3 `gift_credits` and `photo_credits`).
 */

/**
 * The gift catalogue shipped with the product. Each gift is a message of kind `gift` costing the site's
 * `gift_credits`; its name is `chat.gifts.<id>` in every locale and its picture an SVG of the web app.
 */
export const GIFTS = [
  'rose',
  'coffee',
  'chocolate',
  'teddy',
  'heart',
  'cake',
  'wine',
  'sunflower',
  'star',
  'icecream',
  'balloon',
  'pizza',
] as const;
export type GiftId = (typeof GIFTS)[number];
export const giftIdSchema = z.enum(GIFTS, { error: 'chat.errors.unknownGift' });

/** The opening lines offered in an empty chat (`chat.icebreakers.<n>`, 1…ICEBREAKER_COUNT): tap one to fill the composer. */
export const ICEBREAKER_COUNT = 8;

/**
 * A photo message as its two members see it. The sender always sees it; the recipient sees it blurred (the `blur`
 * variant) until they choose to reveal it, which is remembered (`revealed`).
 */
export const chatPhotoSchema = z.object({
  width: z.number().int(),
  height: z.number().int(),
  /** For the recipient: whether they chose to see it; always true for the sender. */
  revealed: z.boolean(),
  /** The address of what this member may see now: the sharp photo, or the blurred one before a reveal. */
  url: z.string(),
  /**
   * For the sender: the recipient chose to see it ("Opened"). Given only while both members have read receipts
   * on, as "Seen" is; absent otherwise and for the recipient.
   */
  opened: z.boolean().optional(),
});

const chatPhotoVariantSchema = z.enum(['large', 'blur']);

/** GET /api/chat-photo.php?message&v: a photo message's file, to its two members only (anyone else: 404). */
export const chatPhotoQuerySchema = z.object({ message: cursorSchema().transform(Number), v: chatPhotoVariantSchema }).strict();

/** POST /api/chat-photo-reveal.php: the recipient sees the photo unblurred, from now on. */
export const chatPhotoRevealSchema = z.object({ message: idSchema() }).strict();

/** POST /api/chat-photo.php (multipart): the fields beside the file `photo`. */
export const sendPhotoFieldsSchema = z
  .object({
    conversation: cursorSchema().transform(Number).optional(),
    profile: cursorSchema().transform(Number).optional(),
    client_id: z.string().regex(/^[A-Za-z0-9_-]{8,64}$/, 'chat.errors.clientId'),
  })
  .strict()
  .refine((v) => (v.conversation === undefined) !== (v.profile === undefined), {
    message: 'chat.errors.target',
    path: ['conversation'],
  });

import { z } from 'zod';
import { idSchema } from './fields';

/**
 * The live channel (GET /api/live, a WebSocket): a doorbell, never the data. The server says that something
 * changed and names ids only; the client fetches what it needs through the API (messages after its last
 * sequence with GET /api/messages.php?conversation=&after=). Every frame is one JSON text message.
 */
export const LIVE_PATH = '/api/live';

/** Close codes the server uses (4000–4999 are the application's own, RFC 6455 §7.4.2). */
export const LIVE_CLOSE = {
  /** The server is shutting down or restarting: connect again (1001 Going Away). */
  goingAway: 1001,
  /** A frame that is not one of the client frames below, or too many frames (1008 Policy Violation). */
  policy: 1008,
  /** A frame over LIVE_MAX_FRAME_BYTES (1009 Message Too Big; ws closes with it by itself). */
  tooBig: 1009,
  /** No session of this site: do not reconnect until the member logs in. */
  unauthenticated: 4401,
  /** The page that opened the socket is not this site's (Origin): never reconnect. */
  forbiddenOrigin: 4403,
  /** The member opened more sockets than LIVE_MAX_SOCKETS: the oldest is closed. */
  replaced: 4409,
} as const;

/** The largest frame a client may send, in bytes. */
export const LIVE_MAX_FRAME_BYTES = 1024;
/** Open sockets per member and process; a new one beyond closes the oldest. */
export const LIVE_MAX_SOCKETS = 8;
/** A member's typing frames for one conversation are passed on at most once per this many milliseconds. */
export const LIVE_TYPING_EVERY_MS = 2_000;

/** Server → client. */
export const liveServerFrameSchema = z.discriminatedUnion('type', [
  /** The socket is subscribed: fetch now what came after your last sequences (nothing after this is missed). */
  z.object({ type: z.literal('ready') }),
  /** A message was stored in `conversation` with sequence `seq` (yours or your partner's). */
  z.object({ type: z.literal('message'), conversation: idSchema(), seq: idSchema() }),
  /** The partner is typing in `conversation` (show it for a few seconds). */
  z.object({ type: z.literal('typing'), conversation: idSchema() }),
  /** The partner has read `conversation` up to `seq`. */
  z.object({ type: z.literal('read'), conversation: idSchema(), seq: idSchema() }),
  /** The partner chose to see your photo `message` in `conversation` (only while both have read receipts on). */
  z.object({ type: z.literal('opened'), conversation: idSchema(), message: idSchema() }),
  /** Someone liked you: refresh the likes count. */
  z.object({ type: z.literal('like') }),
  /** You and `profile` like each other now. */
  /** A match with `profile`; `liked_first`: I liked first and they just liked me back (the one who liked back saw it at once). */
  z.object({ type: z.literal('match'), profile: idSchema(), liked_first: z.boolean() }),
  /** A client frame was refused (`error`: bad_frame, not_yours); the socket stays open. */
  z.object({ type: z.literal('error'), error: z.enum(['bad_frame', 'not_yours']) }),
]);
export type LiveServerFrame = z.infer<typeof liveServerFrameSchema>;

/** Client → server. */
export const liveClientFrameSchema = z.discriminatedUnion('type', [
  /** I am typing in `conversation`. */
  z.strictObject({ type: z.literal('typing'), conversation: idSchema() }),
  /** I have read `conversation` up to `seq`. */
  z.strictObject({ type: z.literal('read'), conversation: idSchema(), seq: idSchema() }),
  /** My page is visible (renewed every PRESENCE_RENEW_MS while it is), or hidden: no mail or push while I am here. */
  z.strictObject({ type: z.literal('presence'), visible: z.boolean() }),
]);

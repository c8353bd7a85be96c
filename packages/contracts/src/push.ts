import { z } from 'zod';

/**
 * Web Push (spec §3 push, §7 `POST /api/user.php?push=1`): the subscription a browser's PushManager gives
 * (`subscription.toJSON()`), which the app sends at every start, and what the service worker gets in a push.
 */

/** A base64url text (RFC 4648 §5, unpadded or padded) of a length in bytes within the bounds. */
const base64url = (minBytes: number, maxBytes: number) =>
  z
    .string()
    .regex(/^[A-Za-z0-9_-]+={0,2}$/, 'not base64url')
    .min(Math.floor((minBytes * 4) / 3))
    .max(Math.ceil((maxBytes * 4) / 3) + 2);

const pushSubscriptionSchema = z.object({
  /** Where the server POSTs its pushes: the browser's push service (checked by the server, see modules/push). */
  endpoint: z.url({ protocol: /^https?$/ }).max(1_000),
  /** The browser may send it; the server does not use it. */
  expirationTime: z.number().nullable().optional(),
  keys: z.object({
    /** The browser's P-256 public key, uncompressed (65 bytes). */
    p256dh: base64url(65, 65),
    /** The shared authentication secret (16 bytes). */
    auth: base64url(16, 16),
  }),
});
export type PushSubscriptionJson = z.infer<typeof pushSubscriptionSchema>;

/**
 * `POST /api/user.php?push=1`: `{subscription}` stores this device's subscription for the member (again at every
 * app start, which renews it); `{subscription: null, endpoint}` drops it (push turned off in this browser).
 */
export const pushSubscribeSchema = z.union([
  z.strictObject({ subscription: pushSubscriptionSchema }),
  z.strictObject({ subscription: z.null(), endpoint: z.url({ protocol: /^https?$/ }).max(1_000) }),
]);
export type PushSubscribeRequest = z.infer<typeof pushSubscribeSchema>;

/** What a push carries to the service worker (`/sw-push.js`), as JSON. */
export const pushPayloadSchema = z.object({
  title: z.string(),
  body: z.string(),
  /** The site's icon. */
  icon: z.string(),
  /** Notifications with the same tag replace each other (one per conversation, one for likes). */
  tag: z.string(),
  data: z.object({
    /** The page a click looks for among the open tabs (a tab showing it is focused)… */
    checkUrl: z.string(),
    /** …else the page a click opens. */
    openUrl: z.string(),
    /** The app badge: unread messages and new likes. */
    badge: z.number().int().min(0),
    event: z.enum(['message', 'like', 'match']),
  }),
});
export type PushPayload = z.infer<typeof pushPayloadSchema>;

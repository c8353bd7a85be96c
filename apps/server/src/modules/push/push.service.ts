import { ECDH } from 'node:crypto';
import { isLocale, type PushPayload, type PushSubscribeRequest } from '@amora/contracts';
import type { Database } from '@amora/db';
import { translate } from '@amora/i18n';
import webpush from 'web-push';
import type { AppContext } from '../../context';
import type { AppJobs } from '../../job-specs';
import { badRequest } from '../../lib/errors';
import type { JobPayload } from '../../lib/jobs';
import { type StoredKey, serverKey } from '../../lib/server-keys';
import { dbOf } from '../../lib/transaction';
import { countUnread } from '../chat/chat.service';
import { countNewLikes } from '../likes/likes.service';
import { isActive, mayPush, pushed, wants } from '../notifications/notifications.service';
import { localizedSetting, type Site, siteUrl } from '../sites/sites.service';
import * as rows from './push.repository';

/**
 * Web Push (spec §2 push alert, §3 push, §4 push states, §7 `POST /api/user.php?push=1`): the browsers' subscriptions
 * per member, site and device, and the push of a message, like or match to a member who is away. The server signs
 * with one VAPID key pair, made once and kept in the database (lib/server-keys.ts), so every process and every
 * restart signs with the same key and the browsers' subscriptions stay valid.
 */

export type PushNotice = JobPayload<AppJobs, 'push.notify'>;

/** A push waits at the push service this long for a device that is off: a message for a day, a like for four. */
const TTL_SECONDS = { message: 86_400, match: 86_400, like: 4 * 86_400 } as const;
/** RFC 8030 §5.3: a message or a match may wake the device; a like can wait for it to be awake anyway. */
const URGENCY = { message: 'high', match: 'high', like: 'normal' } as const;
/** Without a Retry-After, a 429 keeps the subscription quiet this long; a longer one is capped at a day. */
const DEFAULT_BACK_OFF_MS = 60_000;
const MAX_BACK_OFF_MS = 86_400_000;
/** A push service that does not answer within this time is tried again with the job. */
const SEND_TIMEOUT_MS = 15_000;
/** Subscriptions no app start has sent again for this long are dropped (the browser is gone or push is off there). */
export const SUBSCRIPTION_UNSEEN_MS = 60 * 86_400_000;

/**
 * The push services a subscription may point to in production: the browsers' own (Chrome and Edge use FCM, Firefox
 * Mozilla's autopush, Windows WNS, Safari Apple's). The server POSTs to the endpoint, so anything else (an internal
 * address above all) is refused.
 */
const PUSH_SERVICE_HOSTS = [
  /^fcm\.googleapis\.com$/,
  /^([a-z0-9-]+\.)*push\.services\.mozilla\.com$/,
  /^([a-z0-9-]+\.)+notify\.windows\.com$/,
  /^web\.push\.apple\.com$/,
  /^([a-z0-9-]+\.)+push\.apple\.com$/,
];
/** Outside production, an endpoint on this machine too: a local receiver stands in for the push service in tests. */
const LOCAL_HOSTS = new Set(['127.0.0.1', 'localhost', '[::1]']);

/** Whether the server may POST pushes to this endpoint. */
export function isAllowedEndpoint(endpoint: string, production: boolean): boolean {
  let url: URL;
  try {
    url = new URL(endpoint);
  } catch {
    return false;
  }
  if (url.username || url.password) return false;
  const host = url.hostname.toLowerCase();
  if (url.protocol === 'https:' && url.port === '' && PUSH_SERVICE_HOSTS.some((service) => service.test(host))) return true;
  return !production && (url.protocol === 'http:' || url.protocol === 'https:') && LOCAL_HOSTS.has(host);
}

/** The key pair each app context has read, for the settings, which are made without waiting. */
const loadedKeys = new WeakMap<object, StoredKey>();

/** The VAPID key pair: the one stored, or a new one made and stored on the very first start. */
export async function vapidKeys(ctx: { db: Database }): Promise<StoredKey> {
  const keys = await serverKey(ctx, 'vapid', () => webpush.generateVAPIDKeys());
  loadedKeys.set(ctx, keys);
  return keys;
}

/** The public key the browsers subscribe with (settings' `push_public_key`): null until `vapidKeys` has read it. */
export function vapidPublicKey(ctx: object): string | null {
  return loadedKeys.get(ctx)?.publicKey ?? null;
}

function bytesOf(base64url: string): Buffer {
  return Buffer.from(base64url.replace(/=+$/, ''), 'base64url');
}

/** A browser's key: an uncompressed point of P-256 (65 bytes, 0x04 first), on the curve. */
function isP256Point(key: Buffer): boolean {
  if (key.length !== 65 || key[0] !== 0x04) return false;
  try {
    ECDH.convertKey(key, 'prime256v1');
    return true;
  } catch {
    return false;
  }
}

/**
 * `POST /api/user.php?push=1`: stores this device's subscription for the member on the site (or renews it: the
 * app sends it at every start), or drops it (`subscription: null`). A member drops only their own.
 */
export async function saveSubscription(
  ctx: AppContext,
  member: { userId: number; siteId: number },
  request: PushSubscribeRequest,
  userAgent: string,
): Promise<void> {
  if (request.subscription === null) {
    await rows.deleteSubscription(dbOf(ctx), member.userId, request.endpoint);
    return;
  }
  const { endpoint, keys } = request.subscription;
  if (!isAllowedEndpoint(endpoint, ctx.config.isProduction)) {
    throw badRequest('subscription.endpoint', 'This is not the address of a push service');
  }
  if (!isP256Point(bytesOf(keys.p256dh))) throw badRequest('subscription.keys.p256dh', 'Not an uncompressed P-256 key');
  if (bytesOf(keys.auth).length !== 16) throw badRequest('subscription.keys.auth', 'The auth secret must be 16 bytes');
  await rows.upsertSubscription(
    dbOf(ctx),
    { ...member, endpoint, p256dh: keys.p256dh, auth: keys.auth, userAgent: userAgent.slice(0, 300) },
    ctx.now(),
  );
}

/** The daily job: drops the subscriptions unseen for SUBSCRIPTION_UNSEEN_MS; answers how many. */
export function pruneSubscriptions(ctx: AppContext): Promise<number> {
  return rows.deleteUnseenSince(dbOf(ctx), new Date(ctx.now().getTime() - SUBSCRIPTION_UNSEEN_MS));
}

/** A push service's answer that the job cannot fix by itself later: it fails and is tried again. */
class PushDeliveryError extends Error {
  constructor(
    readonly status: number,
    endpointHost: string,
  ) {
    super(`push service ${endpointHost} answered ${status}`);
  }
}

/** The notice's text and links in the member's language: who did what, never what they wrote. */
function composePush(
  ctx: Pick<AppContext, 'config'>,
  site: Site,
  language: string,
  notice: PushNotice,
  sender: { name: string; isFictional: boolean },
  badge: number,
): PushPayload {
  const lang = isLocale(language) ? language : 'en';
  const name = sender.isFictional
    ? translate(lang, 'push.notice.fictionalName', { name: sender.name, fictional: localizedSetting(site.fictionalSingular, lang) })
    : sender.name;
  const path =
    notice.event === 'message'
      ? `/members/${notice.fromProfileId}/chat`
      : notice.event === 'match'
        ? `/members/${notice.fromProfileId}`
        : '/likes';
  const key =
    notice.event !== 'message'
      ? notice.event
      : notice.type === 'new_conversations'
        ? 'newConversation'
        : notice.type === 'unread_message_reminders'
          ? 'unreadReminder'
          : 'message';
  const url = siteUrl(ctx.config, site, path);
  return {
    title: site.name,
    body: translate(lang, `push.notice.${key}`, { name }),
    icon: siteUrl(ctx.config, site, '/api/assets/app-icon/192.png'),
    tag: tagOf(notice),
    data: { checkUrl: url, openUrl: url, badge, event: notice.event },
  };
}

/** One notification per conversation, per match, and one for the likes: a newer one replaces the one shown. */
function tagOf(notice: PushNotice): string {
  if (notice.event === 'message') return `c${notice.conversationId ?? notice.fromProfileId}`;
  return notice.event === 'match' ? `m${notice.fromProfileId}` : 'likes';
}

/** The seconds or HTTP date of a Retry-After header as a moment, within a day. */
function retryAt(header: string | null, now: Date): Date {
  let ms = DEFAULT_BACK_OFF_MS;
  if (header && /^\d+$/.test(header.trim())) ms = Number(header.trim()) * 1000;
  else if (header && !Number.isNaN(Date.parse(header))) ms = Date.parse(header) - now.getTime();
  return new Date(now.getTime() + Math.min(Math.max(ms, 1000), MAX_BACK_OFF_MS));
}

/**
 * The `push.notify` job: a push to each of the member's subscriptions on the site for one message, like or match,
 * when they want that type by push and are not on the site. A subscription the push service says is gone (404,
 * 410) is dropped; one it asks to wait (429) is left alone until then; any other failure fails the job, which is
 * tried again (the devices that had it get the same notification again, which replaces the one shown: same tag).
 */
export async function notifyByPush(ctx: AppContext, notice: PushNotice): Promise<void> {
  const db = dbOf(ctx);
  const recipient = await rows.findRecipient(db, notice.userId);
  if (!recipient || recipient.status === 'deleted' || recipient.profileId === null) return;
  const { profileId, siteId } = recipient;
  // Most members have no subscription: that is looked at first.
  const subscriptions = await rows.findDeliverable(db, notice.userId, siteId, ctx.now());
  if (subscriptions.length === 0) return;
  if (await isActive(ctx, notice.userId)) return;
  if (!(await wants(ctx, notice.userId, notice.type, 'push'))) return;
  // One push for a burst while away (a match always): the rest of the burst is on the site when they come.
  if (!(await mayPush(ctx, notice.userId, notice.event))) return;
  const [site, sender, unread, newLikes] = await Promise.all([
    ctx.sites.get(siteId),
    rows.findSender(db, notice.fromProfileId),
    countUnread(ctx, { id: profileId, siteId }),
    countNewLikes(ctx, profileId),
  ]);
  if (!site || !sender) return;

  const badge = unread + newLikes;
  const payload = JSON.stringify(composePush(ctx, site, recipient.language, notice, sender, badge));
  const keys = await vapidKeys(ctx);
  const options: webpush.RequestOptions = {
    vapidDetails: {
      subject: `mailto:${site.supportEmail || `support@${site.domain}`}`,
      publicKey: keys.publicKey,
      privateKey: keys.privateKey,
    },
    TTL: TTL_SECONDS[notice.event],
    urgency: URGENCY[notice.event],
    topic: tagOf(notice),
    contentEncoding: 'aes128gcm',
  };
  const failures: Error[] = [];
  let delivered = 0;
  await Promise.all(
    subscriptions.map(async (subscription) => {
      try {
        if (await deliver(ctx, subscription, payload, options)) delivered++;
      } catch (error) {
        ctx.metrics.push('failed');
        failures.push(error as Error);
      }
    }),
  );
  if (delivered > 0) await pushed(ctx, notice.userId);
  if (failures.length > 0) throw failures[0];
}

/** Sends one push; handles the answers that concern the subscription (gone, slow down). Answers whether the push service took it. */
async function deliver(
  ctx: AppContext,
  subscription: rows.SubscriptionRow,
  payload: string,
  options: webpush.RequestOptions,
): Promise<boolean> {
  // Checked again on the way out: a subscription stored under another configuration gets nothing it would refuse now.
  if (!isAllowedEndpoint(subscription.endpoint, ctx.config.isProduction)) {
    await rows.deleteSubscriptionById(dbOf(ctx), subscription.id);
    return false;
  }
  const request = webpush.generateRequestDetails(
    { endpoint: subscription.endpoint, keys: { p256dh: subscription.p256dh, auth: subscription.auth } },
    payload,
    options,
  );
  const { 'Content-Length': _length, ...headers } = request.headers as Record<string, string>;
  const response = await fetch(request.endpoint, {
    method: 'POST',
    headers,
    body: new Uint8Array(request.body),
    redirect: 'manual',
    signal: AbortSignal.timeout(SEND_TIMEOUT_MS),
  });
  await response.body?.cancel();
  if (response.status >= 200 && response.status < 300) {
    ctx.metrics.push('sent');
    return true;
  }
  if (response.status === 404 || response.status === 410) {
    ctx.metrics.push('gone');
    await rows.deleteSubscriptionById(dbOf(ctx), subscription.id);
    return false;
  }
  if (response.status === 429) {
    ctx.metrics.push('deferred');
    await rows.setRetryAfter(dbOf(ctx), subscription.id, retryAt(response.headers.get('retry-after'), ctx.now()));
    return false;
  }
  throw new PushDeliveryError(response.status, new URL(subscription.endpoint).host);
}

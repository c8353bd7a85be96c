import {
  MESSAGE_DIGEST_WINDOW_MS,
  MESSAGE_MAIL_DELAY_MS,
  NOTIFICATION_CHANNELS,
  NOTIFICATION_CHANNELS_OF,
  NOTIFICATION_DEFAULTS,
  NOTIFICATION_TYPES,
  type NotificationChannel,
  type NotificationPreference,
  type NotificationSettings,
  type NotificationsDisabledReason,
  type NotificationType,
  PRESENCE_RENEW_MS,
} from '@amora/contracts';
import type { Executor } from '@amora/db';
import { translate } from '@amora/i18n';
import type { AppContext } from '../../context';
import { type DbContext, dbOf, withTransaction } from '../../lib/transaction';
import { removeNotificationsDisabled } from '../accounts/accounts.service';
import type { Auth } from '../sessions/sessions.service';
import { localizedSetting, type Site } from '../sites/sites.service';
import * as rows from './notifications.repository';

/**
 * What a member hears about while away (spec §2 notifications, §3 preference types): their choices per type and
 * channel, whether they are on the site, and the notices a message or a like sets going. A message or a like
 * enqueues, in the unit of work that stores it, the member's activity mail (one digest per window,
 * notifications-mail.service.ts) and a push (modules/push), each of which looks at the choices and the presence
 * when it runs.
 */

const isType = (value: string): value is NotificationType => (NOTIFICATION_TYPES as readonly string[]).includes(value);
const isChannel = (value: string): value is NotificationChannel => (NOTIFICATION_CHANNELS as readonly string[]).includes(value);

/** Every type with each channel it comes by: the member's choice, or the default. */
async function preferencesOf(ctx: DbContext, userId: number): Promise<NotificationPreference[]> {
  const stored = new Map<string, boolean>();
  for (const row of await rows.findPreferences(dbOf(ctx), userId)) stored.set(`${row.type}:${row.channel}`, row.enabled);
  return NOTIFICATION_TYPES.flatMap((type) =>
    NOTIFICATION_CHANNELS_OF[type].map((channel) => ({
      type,
      channel,
      enabled: stored.get(`${type}:${channel}`) ?? NOTIFICATION_DEFAULTS[type][channel],
    })),
  );
}

/**
 * Whether the member wants `type` on `channel` (their choice or the default; never by a channel the type does not
 * come by; mail that stopped is the caller's to check).
 */
export async function wants(ctx: DbContext, userId: number, type: NotificationType, channel: NotificationChannel): Promise<boolean> {
  if (!NOTIFICATION_CHANNELS_OF[type].includes(channel)) return false;
  const found = (await rows.findPreferences(dbOf(ctx), userId)).find((row) => row.type === type && row.channel === channel);
  return found ? found.enabled : NOTIFICATION_DEFAULTS[type][channel];
}

/** Stores the member's changes; the others stay as they were. */
export async function savePreferences(ctx: AppContext, userId: number, changes: readonly NotificationPreference[]): Promise<void> {
  const valid = changes.filter(
    (change) => isType(change.type) && isChannel(change.channel) && NOTIFICATION_CHANNELS_OF[change.type].includes(change.channel),
  );
  await rows.upsertPreferences(dbOf(ctx), userId, valid, ctx.now());
}

/** The notifications page: every choice, why mail stopped (if it did), the address mail goes to, and whether push is on. */
export async function notificationSettings(ctx: AppContext, auth: Auth): Promise<NotificationSettings> {
  const db = dbOf(ctx);
  const [preferences, recipient, pushSubscribed] = [
    await preferencesOf(ctx, auth.user.id),
    await rows.findRecipient(db, auth.user.id),
    await rows.hasPushSubscription(db, auth.user.id),
  ];
  return {
    preferences,
    disabled: (recipient?.notificationsDisabled ?? []) as NotificationsDisabledReason[],
    email: recipient?.email ?? auth.user.email,
    push_subscribed: pushSubscribed,
  };
}

/**
 * The member asks for mail again, explicitly, for the reasons they name: after a bounce they say the address is
 * right (or change it: a confirmed new address resumes mail too, auth's mail change); after a spam report or an
 * unsubscribe they opt in again. A reason that is not there changes nothing.
 */
export async function resumeMail(ctx: AppContext, userId: number, reasons: readonly NotificationsDisabledReason[]): Promise<void> {
  await removeNotificationsDisabled(ctx, userId, reasons);
}

/** How a mail in `lang` names a member: a fictional profile labelled with the site's word for one. */
export function nameInMail(site: Site, lang: string): (person: { name: string; isFictional: boolean }) => string {
  const fictional = localizedSetting(site.fictionalSingular, lang);
  return (person) =>
    person.isFictional ? translate(lang, 'activity.fictionalName', { name: person.name, fictional }, 'emails') : person.name;
}

/** The unsubscribe links every mail that is not essential carries (unsubscribe.service.ts). */
export { unsubscribeLinks } from './unsubscribe.service';

/**
 * A page of the member's is visible (`visible`) or went away. Visible counts for two renewal periods, so a missed
 * renewal is no absence; a page that closes or hides ends it at once (another visible page renews it again).
 */
export async function markPresence(ctx: AppContext, userId: number, visible: boolean): Promise<void> {
  const now = ctx.now();
  if (visible) {
    await rows.setActiveUntil(dbOf(ctx), userId, new Date(now.getTime() + 2 * PRESENCE_RENEW_MS), now);
    return;
  }
  // Gone away: what came while they were here and is still unread is mailed after the delay (the job finds nothing
  // when they read it all).
  await withTransaction(ctx, async (tx) => {
    await rows.setActiveUntil(tx, userId, now, now);
    await scheduleActivityMail(ctx, tx, userId);
  });
}

/** Whether the member is on the site now: no mail or push about what they can see for themselves. */
export function isActive(ctx: AppContext, userId: number): Promise<boolean> {
  return rows.isActiveAt(dbOf(ctx), userId, ctx.now());
}

/**
 * Whether a push for `event` may go out now (the push.notify job asks before sending): a match always; a message
 * or a like only when none went out in the digest window while the member stayed away, so 20 messages in a minute
 * make one push (it says there is something; the site shows what). `pushed` records one that reached a browser.
 */
export async function mayPush(ctx: AppContext, userId: number, event: 'message' | 'like' | 'match'): Promise<boolean> {
  if (event === 'match') return true;
  return rows.isPushDue(dbOf(ctx), userId, ctx.now(), MESSAGE_DIGEST_WINDOW_MS);
}

/** A push reached one of the member's browsers: the next of a burst waits (mayPush). */
export async function pushed(ctx: AppContext, userId: number): Promise<void> {
  await rows.setPushedAt(dbOf(ctx), userId, ctx.now());
}

/** The activity mail's job runs once per member at a time; while it waits, what comes joins it. */
const activityMailKey = (userId: number) => `notifications.mail:${userId}`;

/**
 * In the unit of work that stores a message or a like for a member: their activity mail, and a push for this one
 * event. Nothing for a fictional profile (no account) or a deleted account.
 */
async function enqueueNotices(
  ctx: AppContext,
  recipientProfileId: number,
  push: { type: NotificationType; event: 'message' | 'like' | 'match'; fromProfileId: number; conversationId?: number },
): Promise<void> {
  await withTransaction(ctx, async (tx) => {
    const recipient = await rows.findNoticeRecipient(tx, recipientProfileId);
    if (recipient === null) return;
    const { userId, mailedAt } = recipient;
    await scheduleActivityMail(ctx, tx, userId, mailedAt);
    // Most members have no browser that takes pushes: no job for them (push.notify looks again when it runs).
    if (recipient.hasPush) await ctx.jobs.enqueue(tx, 'push.notify', { userId, ...push });
  });
}

/**
 * The member's activity mail is due after the first delay, or at the end of the digest window when a mail went
 * out less than a window ago; one waits at a time (what comes meanwhile joins it: 20 messages in a minute make
 * one mail).
 */
async function scheduleActivityMail(ctx: AppContext, tx: Executor, userId: number, lastMailedAt?: Date | null): Promise<void> {
  const mailedAt = lastMailedAt === undefined ? await rows.findMailedAt(tx, userId) : lastMailedAt;
  await ctx.jobs.enqueue(tx, 'notifications.mail', { userId }, activityMail(ctx, userId, mailedAt));
}

/** When the activity mail of a member last mailed at `mailedAt` is due, under its key. */
function activityMail(ctx: AppContext, userId: number, mailedAt: Date | null): { runAt: Date; dedupeKey: string } {
  const now = ctx.now().getTime();
  const last = mailedAt?.getTime() ?? null;
  const due = last !== null && last + MESSAGE_DIGEST_WINDOW_MS > now ? last + MESSAGE_DIGEST_WINDOW_MS : now + MESSAGE_MAIL_DELAY_MS;
  return { runAt: new Date(due), dedupeKey: activityMailKey(userId) };
}

/** A message for `recipientProfileId`: the first of a conversation the partner started counts as a new conversation. */
export function noticeMessage(
  ctx: AppContext,
  message: { recipientProfileId: number; senderProfileId: number; conversationId: number; isNewConversation: boolean },
): Promise<void> {
  return enqueueNotices(ctx, message.recipientProfileId, {
    type: message.isNewConversation ? 'new_conversations' : 'new_messages',
    event: 'message',
    fromProfileId: message.senderProfileId,
    conversationId: message.conversationId,
  });
}

/**
 * noticeMessage for a batch of messages stored in one unit of work (chat's batched sends), in three statements at
 * most whatever their number: the recipients, their activity mails, their pushes.
 */
export async function noticeMessages(
  ctx: AppContext,
  list: { recipientProfileId: number; senderProfileId: number; conversationId: number; isNewConversation: boolean }[],
): Promise<void> {
  if (list.length === 0) return;
  await withTransaction(ctx, async (tx) => {
    const recipients = await rows.findNoticeRecipients(tx, [...new Set(list.map((m) => m.recipientProfileId))]);
    const mails = new Map<number, { payload: { userId: number }; runAt: Date; dedupeKey: string }>();
    const pushes = [];
    for (const message of list) {
      const recipient = recipients.get(message.recipientProfileId);
      if (!recipient) continue;
      const { userId } = recipient;
      if (!mails.has(userId)) mails.set(userId, { payload: { userId }, ...activityMail(ctx, userId, recipient.mailedAt) });
      if (recipient.hasPush) {
        pushes.push({
          payload: {
            userId,
            type: message.isNewConversation ? ('new_conversations' as const) : ('new_messages' as const),
            event: 'message' as const,
            fromProfileId: message.senderProfileId,
            conversationId: message.conversationId,
          },
        });
      }
    }
    // In the order of the members' ids: two batches at once that write the keys of the same members never wait
    // on each other's keys in a circle.
    await ctx.jobs.enqueueMany(
      tx,
      'notifications.mail',
      [...mails.values()].sort((a, b) => a.payload.userId - b.payload.userId),
    );
    if (pushes.length > 0) await ctx.jobs.enqueueMany(tx, 'push.notify', pushes);
  });
}

/** A new like for `likedProfileId`; a match when they had liked the liker first (they hear of it, the liker saw it at once). */
export function noticeLike(ctx: AppContext, like: { likerProfileId: number; likedProfileId: number; isMatch: boolean }): Promise<void> {
  return enqueueNotices(ctx, like.likedProfileId, {
    type: 'like',
    event: like.isMatch ? 'match' : 'like',
    fromProfileId: like.likerProfileId,
  });
}

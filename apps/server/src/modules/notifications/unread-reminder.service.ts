import { translate } from '@amora/i18n';
import type { AppContext } from '../../context';
import { dbOf, withTransaction } from '../../lib/transaction';
import { mailLocale } from '../mail/mail.service';
import { siteUrl } from '../sites/sites.service';
import * as rows from './notifications.repository';
import { nameInMail, unsubscribeLinks, wants } from './notifications.service';

/** A message waits unread this long, with the member away as long, before they are reminded of it. */
const UNREAD_REMINDER_AFTER_MS = 86_400_000;
/** At most one reminder in this time. */
const UNREAD_REMINDER_EVERY_MS = 3 * 86_400_000;
/** Members reminded per run of the hourly job (the next run takes the rest). */
const PER_RUN = 500;

/**
 * The hourly `notifications.remind` job (the unread_message_reminders type): a member who has left messages unread
 * for a day while away gets one mail that says who is waiting and a push that names one of them, at most every
 * three days, each only if they want it (the mail only while their mail goes out). Answers how many were mailed.
 */
export async function remindOfUnread(ctx: AppContext): Promise<number> {
  const now = ctx.now();
  const members = await rows.findMembersToRemind(dbOf(ctx), {
    now,
    waitedMs: UNREAD_REMINDER_AFTER_MS,
    everyMs: UNREAD_REMINDER_EVERY_MS,
    limit: PER_RUN,
  });
  let mailed = 0;
  for (const { userId, profileId } of members) {
    if (await remindOne(ctx, userId, profileId, now)) mailed++;
  }
  return mailed;
}

async function remindOne(ctx: AppContext, userId: number, profileId: number, now: Date): Promise<boolean> {
  const db = dbOf(ctx);
  const recipient = await rows.findRecipient(db, userId);
  const site = recipient ? await ctx.sites.get(recipient.siteId) : null;
  const unread = await rows.findUnreadSince(db, profileId, new Date(0));
  const name = recipient?.profileName ?? null;
  const byMail =
    recipient !== null && recipient.notificationsDisabled.length === 0 && (await wants(ctx, userId, 'unread_message_reminders', 'email'));
  // The push job looks again (the member's subscriptions, whether they came back meanwhile).
  const byPush = await wants(ctx, userId, 'unread_message_reminders', 'push');
  if (!recipient || name === null || !site || unread.length === 0 || (!byMail && !byPush)) {
    // Looked at: not again before the next reminder would be due.
    await rows.setRemindedAt(db, userId, now);
    return false;
  }
  const lang = mailLocale('unread_reminder', recipient.language);
  const nameOf = nameInMail(site, lang);
  const count = unread.reduce((sum, from) => sum + from.count, 0);
  const links = byMail ? await unsubscribeLinks(ctx, site, userId, 'unread_message_reminders') : null;
  await withTransaction(ctx, async (tx) => {
    if (links) {
      await ctx.mailer.queue({
        kind: 'unread_reminder',
        site,
        locale: recipient.language,
        to: recipient.email,
        userId,
        vars: { name, count, link: siteUrl(ctx.config, site, '/chats') },
        extras: {
          items: unread.map((from) => translate(lang, 'activity.itemMessages', { name: nameOf(from), count: from.count }, 'emails')),
          unsubscribe: links,
        },
      });
    }
    if (byPush) {
      // The conversation with the newest unread message (findUnreadSince's order): its chat opens from the push.
      const [first] = unread;
      await ctx.jobs.enqueue(tx, 'push.notify', {
        userId,
        type: 'unread_message_reminders',
        event: 'message',
        fromProfileId: first.profileId,
        conversationId: first.conversationId,
      });
    }
    await rows.setRemindedAt(tx, userId, now);
  });
  return byMail;
}

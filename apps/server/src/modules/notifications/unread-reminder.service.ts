import { translate } from '@amora/i18n';
import type { AppContext } from '../../context';
import { dbOf, withTransaction } from '../../lib/transaction';
import { mailLocale } from '../mail/mail.service';
import { siteUrl } from '../sites/sites.service';
import { nameInMail } from './activity-mail.service';
import * as rows from './notifications.repository';
import { wants } from './notifications.service';
import { unsubscribeLinks } from './unsubscribe.service';

/** A message waits unread this long, with the member away as long, before they are reminded of it. */
const UNREAD_REMINDER_AFTER_MS = 86_400_000;
/** At most one reminder in this time. */
const UNREAD_REMINDER_EVERY_MS = 3 * 86_400_000;
/** Members reminded per run of the hourly job (the next run takes the rest). */
const PER_RUN = 500;

/**
 * The hourly `notifications.remind` job (the unread_message_reminders type): a member who has left messages unread
 * for a day while away gets one mail that says who is waiting, at most every three days, only while their mail
 * goes out and only if they want it. Answers how many were mailed.
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
  const wanted = await wants(ctx, userId, 'unread_message_reminders', 'email');
  const name = recipient?.profileName ?? null;
  if (!recipient || name === null || !site || unread.length === 0 || !wanted) {
    // Looked at: not again before the next reminder would be due.
    await rows.setRemindedAt(db, userId, now);
    return false;
  }
  const lang = mailLocale('unread_reminder', recipient.language);
  const nameOf = nameInMail(site, lang);
  const count = unread.reduce((sum, from) => sum + from.count, 0);
  const links = await unsubscribeLinks(ctx, site, userId, 'unread_message_reminders');
  await withTransaction(ctx, async (tx) => {
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
    await rows.setRemindedAt(tx, userId, now);
  });
  return true;
}

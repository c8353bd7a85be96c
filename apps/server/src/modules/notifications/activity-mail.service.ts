import type { NotificationType } from '@amora/contracts';
import { translate } from '@amora/i18n';
import type { AppContext } from '../../context';
import { dbOf, withTransaction } from '../../lib/transaction';
import { type ActivityMailKind, mailLocale } from '../mail/mail.service';
import { siteUrl } from '../sites/sites.service';
import * as rows from './notifications.repository';
import { isActive, nameInMail, unsubscribeLinks, wants } from './notifications.service';

/**
 * The `notifications.mail` job: one mail with what came for the member while they were away (messages per
 * conversation, likes, matches), of the types they want by mail, after the last such mail. Nothing while they are
 * on the site (they see it there; going away sets the job again), while their mail is stopped
 * (notifications_disabled), or when nothing new is left unread.
 */
export async function sendActivityMail(ctx: AppContext, userId: number): Promise<void> {
  const db = dbOf(ctx);
  const recipient = await rows.findRecipient(db, userId);
  if (!recipient || recipient.status === 'deleted' || recipient.notificationsDisabled.length > 0) return;
  if (await isActive(ctx, userId)) return;
  const { profileId, profileName } = recipient;
  if (profileId === null || profileName === null) return;
  const site = await ctx.sites.get(recipient.siteId);
  if (!site) return;

  const since = (await rows.findMailedAt(db, userId)) ?? new Date(0);
  const wanted = new Map<NotificationType, boolean>();
  const wantsMail = async (type: NotificationType) => {
    if (!wanted.has(type)) wanted.set(type, await wants(ctx, userId, type, 'email'));
    return wanted.get(type) as boolean;
  };
  const unread: rows.UnreadFrom[] = [];
  for (const from of await rows.findUnreadSince(db, profileId, since)) {
    if (await wantsMail(from.isNewConversation ? 'new_conversations' : 'new_messages')) unread.push(from);
  }
  const liked = (await wantsMail('like')) ? await rows.findLikesSince(db, profileId, since) : [];
  if (unread.length === 0 && liked.length === 0) return;

  const locale = recipient.language;
  const kind = kindOf(unread.length, liked);
  const lang = mailLocale(kind, locale);
  const nameOf = nameInMail(site, lang);
  const messageCount = unread.reduce((sum, from) => sum + from.count, 0);
  const first = unread[0] ?? liked[0];
  const items = [
    ...unread.map((from) => translate(lang, 'activity.itemMessages', { name: nameOf(from), count: from.count }, 'emails')),
    ...liked.map((like) => translate(lang, like.isMatch ? 'activity.itemMatch' : 'activity.itemLike', { name: nameOf(like) }, 'emails')),
  ];
  const path =
    kind === 'activity_message' && unread.length === 1
      ? `/members/${unread[0].profileId}/chat`
      : kind === 'activity_match'
        ? `/members/${liked[0].profileId}`
        : unread.length > 0
          ? '/chats'
          : '/likes';
  const type: NotificationType =
    unread.length > 0 ? (unread.every((from) => from.isNewConversation) ? 'new_conversations' : 'new_messages') : 'like';
  const count = unread.length > 0 ? messageCount : liked.length;
  // The mail and the moment it tells up to commit together: a retried job sends neither twice.
  const links = await unsubscribeLinks(ctx, site, userId, type);
  await withTransaction(ctx, async (tx) => {
    await ctx.mailer.queue({
      kind,
      site,
      locale,
      to: recipient.email,
      userId,
      vars: { name: profileName, from: nameOf(first), count, link: siteUrl(ctx.config, site, path) },
      extras: {
        // A mail about one conversation or one like says it all in its text; a list is for several.
        items: kind === 'activity_messages' || kind === 'activity_likes' ? items : [],
        unsubscribe: links,
      },
    });
    await rows.setMailedAt(tx, userId, newestOf(unread, liked));
  });
}

/** Which mail tells of this: one sender's messages, several senders' (or messages and likes), a match, one like, several. */
function kindOf(senders: number, liked: readonly rows.LikeFrom[]): ActivityMailKind {
  if (senders === 1 && liked.length === 0) return 'activity_message';
  if (senders > 0) return 'activity_messages';
  if (liked.length === 1) return liked[0].isMatch ? 'activity_match' : 'activity_like';
  return 'activity_likes';
}

/** When the newest message or like the mail tells of was stored: the next mail tells of what came after. */
function newestOf(unread: readonly rows.UnreadFrom[], liked: readonly rows.LikeFrom[]): Date {
  const times = [...unread.map((from) => from.newestAt.getTime()), ...liked.map((like) => like.createdAt.getTime())];
  return new Date(Math.max(...times));
}

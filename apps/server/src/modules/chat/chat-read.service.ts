import { type ChatsResponse, MESSAGES_PAGE, type Message, type MessagesResponse } from '@amora/contracts';
import type { AppContext } from '../../context';
import { notFound } from '../../lib/errors';
import { dbOf } from '../../lib/transaction';
import { readChatPhoto } from '../photos/photos.service';
import type { Auth } from '../sessions/sessions.service';
import { chatBlock, presentChat, presentMessage, presentPartnerCard } from './chat.presenter';
import {
  clearedSeqOf,
  clearForSide,
  findConversation,
  findPartner,
  findVisiblePhotoMessage,
  hasHiddenHistory,
  listChats as listChatRows,
  listMessages as listMessageRows,
  markPhotoRevealed,
  markRead,
  sideOf,
} from './chat.repository';
import { historySince, notYours, partnerOf } from './chat.service';
import { partnerReadSeq, readReceiptsShared } from './chat-safety.service';

/**
 * Reading chats (chats.php, messages.php, chat-read.php, removing a chat) and a chat's photos (chat-photo-reveal.php,
 * a photo message's picture for the two members).
 */

/**
 * The recipient of a photo message chooses to see it unblurred; remembered, so it stays sharp for them. The
 * message as they now see it. Another member's message (or one they no longer see) is a 404; the sender's own
 * photo is always sharp for them, so revealing it changes nothing. The sender learns of it ("Opened", by
 * chat.photo-opened now and in messages.php later) only while both members have read receipts on: opening a photo
 * says as much as reading a message, and a member who turned receipts off has chosen not to say that.
 */
export async function revealPhoto(ctx: AppContext, auth: Auth, messageId: number): Promise<Message> {
  const me = auth.profile;
  const found = await findVisiblePhotoMessage(dbOf(ctx), messageId, me.id, me.siteId, historySince(ctx.now()));
  if (!found) throw notFound('This photo could not be found');
  if (found.message.senderProfileId === me.id || found.message.photoRevealedAt) return presentMessage(found.message, me.id);
  const at = ctx.now();
  const isFirst = await markPhotoRevealed(dbOf(ctx), messageId, at);
  const senderId = found.message.senderProfileId;
  if (isFirst && (await readReceiptsShared(ctx, me.id, senderId))) {
    ctx.events.publish({
      type: 'chat.photo-opened',
      siteId: found.conversation.siteId,
      conversationId: found.conversation.id,
      messageId,
      profileId: me.id,
      recipientProfileId: senderId,
    });
  }
  return presentMessage({ ...found.message, photoRevealedAt: at }, me.id);
}

/**
 * A photo message's file for one of its two members: the blurred variant to both, the sharp one to the sender and
 * to the recipient once they revealed it. Null (a 404) for anyone else, for a message they no longer see, and for
 * the sharp photo before the recipient asked for it: nobody is sent an image they did not ask to see.
 */
export async function readMessagePhoto(ctx: AppContext, auth: Auth, messageId: number, variant: 'large' | 'blur'): Promise<Buffer | null> {
  const me = auth.profile;
  const found = await findVisiblePhotoMessage(dbOf(ctx), messageId, me.id, me.siteId, historySince(ctx.now()));
  if (!found?.message.photoKey) return null;
  const mayBeSharp = found.message.senderProfileId === me.id || found.message.photoRevealedAt !== null;
  if (variant === 'large' && !mayBeSharp) return null;
  return readChatPhoto(ctx, { userId: found.senderUserId, profileId: found.message.senderProfileId }, found.message.photoKey, variant);
}

/** chats.php (spec §3, §7): my chats, the latest first, and my unread messages in all. */
export async function listChats(ctx: AppContext, auth: Auth): Promise<ChatsResponse> {
  const now = ctx.now();
  const rows = await listChatRows(dbOf(ctx), auth.profile.id, auth.profile.siteId, historySince(now));
  const chats = rows.map((row) => presentChat(row, { profileId: auth.profile.id, userStatus: auth.user.status }, now));
  return { chats, num_unread_messages: chats.reduce((sum, chat) => sum + chat.num_unread_messages, 0) };
}

export interface MessagesInput {
  conversation: number;
  after?: number;
  before?: number;
  limit?: number;
}

/** messages.php: a page of a conversation of mine (another member's conversation is a 404). */
export async function listMessages(ctx: AppContext, auth: Auth, input: MessagesInput): Promise<MessagesResponse> {
  const me = auth.profile.id;
  const conversation = await findConversation(dbOf(ctx), input.conversation, me);
  if (!conversation || conversation.siteId !== auth.profile.siteId) throw notYours();
  const partner = await findPartner(dbOf(ctx), partnerOf(conversation, me), me);
  if (!partner) throw notYours();
  const receipts = await readReceiptsShared(ctx, me, partnerOf(conversation, me));
  const now = ctx.now();
  const since = historySince(now);
  const clearedSeq = clearedSeqOf(conversation, sideOf(conversation, me));
  const limit = input.limit ?? MESSAGES_PAGE;
  const visible = { conversationId: conversation.id, clearedSeq, since };
  const page = await listMessageRows(dbOf(ctx), { ...visible, after: input.after, before: input.before, limit });
  const forward = input.after !== undefined;
  const lastShown = page.rows.at(-1)?.seq ?? input.after ?? 0;
  // A page read forwards knows about later messages, one read backwards about earlier ones; the other
  // direction: after a page read backwards come the messages up to the last sequence, before a page read
  // forwards there may be visible messages (one look back from its first sequence).
  const firstShown = page.rows[0]?.seq ?? (input.after ?? 0) + 1;
  return {
    conversation: { id: conversation.id, last_seq: conversation.lastSeq },
    profile: presentPartnerCard(partner, now),
    blocked: chatBlock(partner, { userStatus: auth.user.status }),
    messages: page.rows.map((row) => presentMessage(row, me, receipts)),
    has_more_after: forward ? page.more : input.before !== undefined && lastShown < conversation.lastSeq,
    has_more_before: forward ? (await listMessageRows(dbOf(ctx), { ...visible, before: firstShown, limit: 1 })).rows.length > 0 : page.more,
    history_hidden: await hasHiddenHistory(dbOf(ctx), conversation.id, clearedSeq, since),
    partner_read_seq: await partnerReadSeq(ctx, conversation, me),
  };
}

/**
 * Opening a chat sets its unread count to 0 (spec §4). When it read something new and both members have read
 * receipts on, chat.read tells the other member's connections how far (they show "Seen").
 */
export async function openChat(ctx: AppContext, auth: Auth, conversationId: number): Promise<void> {
  const me = auth.profile.id;
  const before = await findConversation(dbOf(ctx), conversationId, me);
  if (!before || !(await markRead(dbOf(ctx), conversationId, me))) throw notYours();
  const side = sideOf(before, me);
  const readBefore = side === 'low' ? before.lowReadSeq : before.highReadSeq;
  if (before.lastSeq <= readBefore || before.siteId !== auth.profile.siteId) return;
  const partnerId = partnerOf(before, me);
  if (!(await readReceiptsShared(ctx, me, partnerId))) return;
  ctx.events.publish({
    type: 'chat.read',
    siteId: before.siteId,
    conversationId,
    seq: before.lastSeq,
    profileId: me,
    recipientProfileId: partnerId,
  });
}

/** DELETE chat.php: removes the chat for me only; the other member keeps it (and can still report). */
export async function removeChat(ctx: AppContext, auth: Auth, conversationId: number): Promise<void> {
  const conversation = await findConversation(dbOf(ctx), conversationId, auth.profile.id);
  if (!conversation || conversation.siteId !== auth.profile.siteId) throw notYours();
  await clearForSide(dbOf(ctx), conversationId, auth.profile.id);
}

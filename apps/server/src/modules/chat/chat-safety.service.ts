import type { ChatReportReason } from '@amora/contracts';
import type { AppContext } from '../../context';
import { HttpError, notFound } from '../../lib/errors';
import { dbOf } from '../../lib/transaction';
import { setReadReceipts } from '../accounts/accounts.service';
import { fileMemberReport } from '../complaints/complaints.service';
import type { Auth } from '../sessions/sessions.service';
import { type ConversationRow, findConversation, findPartner } from './chat.repository';
import { findMessageIn, receiptsShared } from './chat-safety.repository';

const partnerOf = (conversation: ConversationRow, profileId: number) =>
  conversation.profileLowId === profileId ? conversation.profileHighId : conversation.profileLowId;

export interface ChatReport {
  conversation: number;
  message?: number;
  reason: ChatReportReason;
  text?: string;
}

/**
 * Reports the other member of a conversation of mine, or one of their messages in it: a complaint in the
 * moderation queue under my account. The conversation counts as mine as long as it exists, whether I or the other
 * side removed it, unmatched, or deleted the account (until the purge), so the other side can still report.
 * Another member's conversation, or a message not in mine, is a 404. The message's text is copied into the
 * complaint, so what was reported stays readable after the chat is gone.
 */
export async function reportFromChat(ctx: AppContext, auth: Auth, input: ChatReport): Promise<string> {
  const me = auth.profile;
  const conversation = await findConversation(dbOf(ctx), input.conversation, me.id);
  if (!conversation || conversation.siteId !== me.siteId) throw notFound('This conversation could not be found');
  const partnerId = partnerOf(conversation, me.id);
  let quoted = '';
  if (input.message !== undefined) {
    const message = await findMessageIn(dbOf(ctx), conversation.id, input.message);
    if (!message) throw notFound('This message could not be found');
    if (message.senderProfileId === me.id) {
      throw new HttpError(400, 'validation_failed', 'You can report the other member’s messages only', {
        field: 'message',
        message_key: 'chatSafety.errors.own',
      });
    }
    quoted = `Message ${message.id} (#${message.seq}, ${message.kind}, ${message.createdAt.toISOString()}):\n${message.body}`;
  }
  const partner = await findPartner(dbOf(ctx), partnerId, me.id);
  const what = input.message !== undefined ? `message ${input.message}` : `profile ${partnerId}`;
  // The member themselves, not one message: once per period, as from their profile.
  const reported = input.message === undefined ? { reporterProfileId: me.id, id: partnerId, name: partner?.name ?? '' } : undefined;
  return fileMemberReport(
    ctx,
    {
      siteId: me.siteId,
      userId: auth.user.id,
      name: me.name,
      email: auth.user.email,
      language: auth.user.language,
      subject: `Chat report (${input.reason}): ${what} in conversation ${conversation.id}`,
      message: [
        `Reported profile: ${partnerId}${partner ? ` (${partner.name})` : ''}`,
        `Reporting profile: ${me.id}`,
        `Conversation: ${conversation.id}`,
        `Reason: ${input.reason}`,
        quoted,
        input.text?.trim() ? `Note: ${input.text.trim()}` : '',
      ]
        .filter(Boolean)
        .join('\n'),
      url: `/chats/${conversation.id}`,
      reportedProfileId: partnerId,
      conversationId: conversation.id,
      messageId: input.message,
    },
    reported,
  );
}

/** Turns my read receipts on or off. */
export async function changeReadReceipts(ctx: AppContext, auth: Auth, enabled: boolean): Promise<void> {
  await setReadReceipts(ctx, auth.user.id, enabled);
  ctx.events.publish({ type: 'account.changed', siteId: auth.user.siteId, userId: auth.user.id });
}

/** How far the other member of a conversation has read, when both have read receipts on; null otherwise. */
export async function partnerReadSeq(
  ctx: Pick<AppContext, 'db'>,
  conversation: ConversationRow,
  profileId: number,
): Promise<number | null> {
  const partnerId = partnerOf(conversation, profileId);
  if (!(await receiptsShared(dbOf(ctx), profileId, partnerId))) return null;
  return conversation.profileLowId === partnerId ? conversation.lowReadSeq : conversation.highReadSeq;
}

/** Whether the two members of a conversation both have read receipts on (the read frames pass only then). */
export function readReceiptsShared(ctx: Pick<AppContext, 'db'>, profileId: number, partnerId: number): Promise<boolean> {
  return receiptsShared(dbOf(ctx), profileId, partnerId);
}

import type { Chat, ChatBlock, GiftId, Message } from '@amora/contracts';
import { presentProfileCard } from '../profile-cards/profile-cards.presenter';
import type { ChatListRow, MessageRow, PartnerRow } from './chat.repository';

const PREVIEW_LENGTH = 100;

/** What the rules of spec §4 say about sending to the other member now, or null when I may. */
export function chatBlock(
  partner: Pick<PartnerRow, 'status' | 'userStatus' | 'blockedMe' | 'blockedByMe'>,
  me: { userStatus: string },
): ChatBlock | null {
  if (partner.blockedMe) return 'blocked_by_partner';
  if (partner.blockedByMe) return 'blocked_partner';
  if (partner.status !== 'active' && partner.userStatus !== 'not_confirmed') return 'partner_gone';
  if (partner.userStatus === 'deleted') return 'partner_gone';
  if (partner.userStatus === 'not_confirmed') return 'partner_unconfirmed';
  if (me.userStatus === 'not_confirmed') return 'own_unconfirmed';
  return null;
}

/**
 * A stored message as `viewerProfileId` sees it: the price and the client id only to its sender; `receiptsShared`
 * (both members have read receipts on) lets the sender of a photo know whether the recipient opened it.
 */
export function presentMessage(row: MessageRow, viewerProfileId: number, receiptsShared = false): Message {
  const fromMe = row.senderProfileId === viewerProfileId;
  return {
    id: row.id,
    conversation_id: row.conversationId,
    seq: row.seq,
    sender_profile_id: row.senderProfileId,
    from_me: fromMe,
    kind: row.kind,
    body: row.status === 'rejected' ? '' : row.body,
    status: row.status,
    price: fromMe ? row.price : 0,
    client_id: fromMe ? row.clientId : null,
    created_at: row.createdAt.toISOString(),
    ...(row.status === 'rejected' ? {} : mediaOf(row, fromMe, receiptsShared)),
  };
}

/** The address of a photo message's file; the route checks on every request that the viewer is one of the two. */
function chatPhotoUrl(messageId: number, variant: 'large' | 'blur'): string {
  return `/api/chat-photo.php?message=${messageId}&v=${variant}`;
}

/** A gift's id, or a photo as the viewer may see it: the sender sharp, the recipient blurred until they reveal it. */
function mediaOf(row: MessageRow, fromMe: boolean, receiptsShared: boolean): Pick<Message, 'gift' | 'photo'> {
  if (row.kind === 'gift' && row.gift) return { gift: row.gift as GiftId };
  if (row.kind === 'photo' && row.photoKey) {
    const revealed = fromMe || row.photoRevealedAt !== null;
    return {
      photo: {
        width: row.photoWidth ?? 0,
        height: row.photoHeight ?? 0,
        revealed,
        url: chatPhotoUrl(row.id, revealed ? 'large' : 'blur'),
        ...(fromMe && receiptsShared ? { opened: row.photoRevealedAt !== null } : {}),
      },
    };
  }
  return {};
}

export function presentPartnerCard(row: PartnerRow | ChatListRow, now: Date) {
  return presentProfileCard(row, row.paidUser === true, now);
}

/** A row of listChats → one chat of chats.php. */
export function presentChat(row: ChatListRow, me: { profileId: number; userStatus: string }, now: Date): Chat {
  const preview =
    row.lastAt && row.lastKind && row.lastSender !== null
      ? {
          seq: row.lastSeq,
          kind: row.lastKind,
          body:
            row.lastStatus === 'rejected'
              ? ''
              : Array.from(row.lastBody ?? '')
                  .slice(0, PREVIEW_LENGTH)
                  .join(''),
          ...(row.lastKind === 'gift' && row.lastGift && row.lastStatus !== 'rejected' ? { gift: row.lastGift as GiftId } : {}),
          from_me: row.lastSender === me.profileId,
          created_at: row.lastAt.toISOString(),
        }
      : null;
  return {
    conversation: { id: row.conversationId, last_seq: row.lastSeq, updated_at: row.updatedAt.toISOString() },
    profile: presentPartnerCard(row, now),
    num_unread_messages: row.unread,
    last_message: preview,
    blocked: chatBlock(row, me),
  };
}

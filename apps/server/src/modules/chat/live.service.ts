import { type DbContext, dbOf } from '../../lib/transaction';
import { chatBlock } from './chat.presenter';
import { findConversation, findPartner } from './chat.repository';

/** A conversation as the live channel needs it: who the other member is and how far it goes. */
export interface LiveConversation {
  partnerProfileId: number;
  lastSeq: number;
}

/**
 * The conversation `conversationId` when `profileId` (of site `siteId`) may signal in it (typing, read): it
 * takes part in it, and neither side has blocked the other and the partner is still there. Null otherwise,
 * whatever the reason, so a frame about another member's conversation learns nothing.
 */
export async function liveConversation(
  ctx: DbContext,
  conversationId: number,
  profileId: number,
  siteId: number,
): Promise<LiveConversation | null> {
  const db = dbOf(ctx);
  const conversation = await findConversation(db, conversationId, profileId);
  if (!conversation || conversation.siteId !== siteId) return null;
  const partnerProfileId = conversation.profileLowId === profileId ? conversation.profileHighId : conversation.profileLowId;
  const partner = await findPartner(db, partnerProfileId, profileId);
  if (!partner || partner.siteId !== siteId) return null;
  const block = chatBlock(partner, { userStatus: 'confirmed' });
  if (block === 'blocked_by_partner' || block === 'blocked_partner' || block === 'partner_gone') return null;
  return { partnerProfileId, lastSeq: conversation.lastSeq };
}

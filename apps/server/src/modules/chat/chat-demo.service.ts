import type { GiftId } from '@amora/contracts';
import { type DbContext, withTransaction } from '../../lib/transaction';
import { appendMessage, findPairConversation, insertConversation, lockConversation, markRead, sideOf } from './chat.repository';

/**
 * One message of the demo data: a text, a gift of the catalogue, or a photo already through the photo pipeline
 * (processChatPhoto), which `revealedAt` says the recipient chose to see.
 */
export type DemoLine = { from: number; at: Date } & (
  | { body: string }
  | { gift: GiftId }
  | { photo: { storageKey: string; width: number; height: number }; revealedAt?: Date }
);

/** A conversation of the demo data: its two profiles, its messages oldest first, and who has read all of it. */
export interface DemoConversation {
  siteId: number;
  starter: number;
  other: number;
  lines: DemoLine[];
  /** Profiles that have opened the chat since its last message (their unread count is 0). */
  readBy: number[];
}

/**
 * Writes a demo conversation on a first start as sends would (the pair's row started by `starter`, each message the
 * next sequence under the row's lock, one more unread for the other side; texts, gifts and photos), at the times
 * given and free of charge:
 * demo history costs no credits, so it has no ledger rows and no message.created event (nobody is connected yet).
 * Its conversation id.
 */
export async function writeDemoConversation(ctx: DbContext, demo: DemoConversation): Promise<number> {
  return withTransaction(ctx, async (tx) => {
    const made = await insertConversation(tx, { siteId: demo.siteId, starter: demo.starter, other: demo.other });
    const id = made ?? (await findPairConversation(tx, demo.starter, demo.other))?.id;
    const conversation = id === undefined ? undefined : await lockConversation(tx, id, demo.starter);
    if (!conversation) throw new Error(`Demo conversation ${demo.starter}-${demo.other} could not be made`);
    for (const [i, line] of demo.lines.entries()) {
      // A member answers with the chat open: what they were sent is read (as POST chat-read.php does).
      if (i > 0) await markRead(tx, conversation.id, line.from);
      await appendMessage(tx, sideOf(conversation, line.from), {
        conversationId: conversation.id,
        senderProfileId: line.from,
        kind: 'gift' in line ? 'gift' : 'photo' in line ? 'photo' : 'text',
        body: 'body' in line ? line.body : '',
        gift: 'gift' in line ? line.gift : null,
        photoKey: 'photo' in line ? line.photo.storageKey : null,
        photoWidth: 'photo' in line ? line.photo.width : null,
        photoHeight: 'photo' in line ? line.photo.height : null,
        photoRevealedAt: 'photo' in line ? (line.revealedAt ?? null) : null,
        clientId: `demo-${conversation.id}-${i + 1}`,
        price: 0,
        createdAt: line.at,
      });
    }
    for (const profileId of demo.readBy) await markRead(tx, conversation.id, profileId);
    return conversation.id;
  });
}

import { conversations, type Executor, messages, profiles, users } from '@amora/db';
import { and, asc, eq, inArray, ne, sql } from 'drizzle-orm';
import { alias } from 'drizzle-orm/pg-core';

/** A message of a conversation, or undefined when that conversation has no message with this id. */
export async function findMessageIn(db: Executor, conversationId: number, messageId: number) {
  const [row] = await db
    .select()
    .from(messages)
    .where(and(eq(messages.id, messageId), eq(messages.conversationId, conversationId)));
  return row;
}

/**
 * Whether both profiles have read receipts on (their accounts' read_receipts). A profile without an account (a
 * fictional one) has them on.
 */
export async function receiptsShared(db: Executor, a: number, b: number): Promise<boolean> {
  const rows = await db
    .select({ on: sql<boolean>`coalesce(${users.readReceipts}, true)` })
    .from(profiles)
    .leftJoin(users, eq(users.id, profiles.userId))
    .where(inArray(profiles.id, [a, b]));
  return rows.length === 2 && rows.every((row) => row.on);
}

/**
 * The queue of the operator console (a later issue): conversations with a fictional profile whose last message is
 * the member's, so nobody has answered it yet, the longest waiting first. Nothing answers them by itself.
 */
export async function listUnansweredToFictional(db: Executor, siteId: number, limit = 100) {
  const low = alias(profiles, 'low_profile');
  const high = alias(profiles, 'high_profile');
  const fictionalId = sql<number>`case when ${low.isFictional} then ${conversations.profileLowId} else ${conversations.profileHighId} end`;
  return db
    .select({
      conversationId: conversations.id,
      fictionalProfileId: fictionalId.mapWith(Number),
      memberProfileId: messages.senderProfileId,
      lastSeq: conversations.lastSeq,
      /** Messages the fictional side has not read (what waits since its last answer or opening). */
      waiting: sql<number>`case when ${low.isFictional} then ${conversations.lowUnread} else ${conversations.highUnread} end`.mapWith(
        Number,
      ),
      lastAt: messages.createdAt,
    })
    .from(conversations)
    .innerJoin(low, eq(low.id, conversations.profileLowId))
    .innerJoin(high, eq(high.id, conversations.profileHighId))
    .innerJoin(messages, and(eq(messages.conversationId, conversations.id), eq(messages.seq, conversations.lastSeq)))
    .where(
      and(
        eq(conversations.siteId, siteId),
        // One side fictional (a fictional profile never writes to another one), the last message from the other.
        ne(low.isFictional, high.isFictional),
        ne(messages.senderProfileId, fictionalId),
        eq(messages.status, 'sent'),
      ),
    )
    .orderBy(asc(messages.createdAt), asc(conversations.id))
    .limit(limit);
}

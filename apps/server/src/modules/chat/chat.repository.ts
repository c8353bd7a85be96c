import {
  blocks,
  conversations,
  type Executor,
  messages,
  notHiddenFrom,
  ownerNotDeleted,
  profileCardColumns,
  profiles,
  users,
} from '@amora/db';
import { and, asc, desc, eq, gt, gte, lt, or, type SQL, sql } from 'drizzle-orm';

export type ConversationRow = typeof conversations.$inferSelect;
export type MessageRow = typeof messages.$inferSelect;
/** Which end of a conversation a profile is: the lower or the higher profile id. */
export type Side = 'low' | 'high';

export const sideOf = (conversation: Pick<ConversationRow, 'profileLowId'>, profileId: number): Side =>
  conversation.profileLowId === profileId ? 'low' : 'high';

const unread = { low: conversations.lowUnread, high: conversations.highUnread } as const;
const readSeqKey = { low: 'lowReadSeq', high: 'highReadSeq' } as const;
const unreadKey = { low: 'lowUnread', high: 'highUnread' } as const;
const clearedSeqKey = { low: 'lowClearedSeq', high: 'highClearedSeq' } as const;

const isMember = (profileId: number): SQL =>
  or(eq(conversations.profileLowId, profileId), eq(conversations.profileHighId, profileId)) as SQL;

/** The conversation with that id that `profileId` takes part in, or undefined. */
export async function findConversation(db: Executor, id: number, profileId: number): Promise<ConversationRow | undefined> {
  const [row] = await db
    .select()
    .from(conversations)
    .where(and(eq(conversations.id, id), isMember(profileId)));
  return row;
}

/** The same, locked until the transaction ends: sends to one conversation take turns. */
export async function lockConversation(tx: Executor, id: number, profileId: number): Promise<ConversationRow | undefined> {
  const [row] = await tx
    .select()
    .from(conversations)
    .where(and(eq(conversations.id, id), isMember(profileId)))
    .for('update');
  return row;
}

/**
 * lockConversation and findPartner in one statement (a send's first): the conversation locked until the
 * transaction ends, and the other member as `profileId` sees them. When the lock had to wait, the partner is read
 * as the statement began (a block made in that moment is one a send just before it would have missed as well).
 */
export async function lockConversationWithPartner(
  tx: Executor,
  id: number,
  profileId: number,
): Promise<{ conversation: ConversationRow; partner: PartnerRow } | undefined> {
  const partnerId = sql`case when ${conversations.profileLowId} = ${profileId} then ${conversations.profileHighId} else ${conversations.profileLowId} end`;
  const [row] = await tx
    .select({ conversation: conversations, partner: partnerColumns(profileId) })
    .from(conversations)
    .innerJoin(profiles, eq(profiles.id, partnerId))
    .leftJoin(users, eq(users.id, profiles.userId))
    .where(and(eq(conversations.id, id), isMember(profileId)))
    .for('update', { of: conversations });
  return row;
}

/**
 * lockConversationWithPartner for a batch of sends, one a conversation, in one statement: each conversation that
 * its sender takes part in, locked (in the order of their ids, so that two batches never wait on each other in a
 * circle), with the partner as the sender sees them and the id of a message the sender stored before under the
 * send's client id (a retry), by conversation id. A conversation its sender is not in is left out.
 */
export async function lockConversationsForSends(
  tx: Executor,
  sends: { conversationId: number; senderProfileId: number; clientId: string }[],
): Promise<Map<number, { conversation: ConversationRow; partner: PartnerRow; storedMessageId: number | null }>> {
  const wanted = sql`unnest(${sql.param(sends.map((s) => s.conversationId))}::bigint[], ${sql.param(sends.map((s) => s.senderProfileId))}::bigint[], ${sql.param(sends.map((s) => s.clientId))}::text[]) as wanted(conversation_id, sender, client_id)`;
  const sender = sql`wanted.sender`;
  const partnerId = sql`case when ${conversations.profileLowId} = ${sender} then ${conversations.profileHighId} else ${conversations.profileLowId} end`;
  const rows = await tx
    .select({
      conversation: conversations,
      partner: partnerColumns(sender),
      storedMessageId: sql<
        number | null
      >`(select m.id from ${messages} m where m.sender_profile_id = ${sender} and m.client_id = wanted.client_id)`.mapWith((id) =>
        id === null ? null : Number(id),
      ),
    })
    .from(conversations)
    .innerJoin(
      wanted,
      sql`wanted.conversation_id = ${conversations.id} and ${sender} in (${conversations.profileLowId}, ${conversations.profileHighId})`,
    )
    .innerJoin(profiles, eq(profiles.id, partnerId))
    .leftJoin(users, eq(users.id, profiles.userId))
    .orderBy(asc(conversations.id))
    .for('update', { of: conversations });
  return new Map(rows.map((row) => [row.conversation.id, row]));
}

export async function findPairConversation(db: Executor, a: number, b: number): Promise<ConversationRow | undefined> {
  const [low, high] = a < b ? [a, b] : [b, a];
  const [row] = await db
    .select()
    .from(conversations)
    .where(and(eq(conversations.profileLowId, low), eq(conversations.profileHighId, high)));
  return row;
}

/**
 * Until the transaction ends, takes the lock of the conversations a profile starts: of two starts at the same
 * moment the second counts the first, so the free members' limit holds. An advisory lock, not the user row, so
 * it never waits in a circle with a send that holds a conversation and wants the balance.
 */
export async function lockStarts(tx: Executor, profileId: number): Promise<void> {
  await tx.execute(sql`select pg_advisory_xact_lock(hashtextextended(${`chat-start:${profileId}`}, 0))`);
}

export async function countStarted(db: Executor, profileId: number): Promise<number> {
  const [row] = await db
    .select({ n: sql<number>`count(*)::int` })
    .from(conversations)
    .where(eq(conversations.startedByProfileId, profileId));
  return row?.n ?? 0;
}

/** Makes the conversation of a pair unless it exists; its id, or null when it existed (or was made meanwhile). */
export async function insertConversation(tx: Executor, values: { siteId: number; starter: number; other: number }): Promise<number | null> {
  const [low, high] = values.starter < values.other ? [values.starter, values.other] : [values.other, values.starter];
  const [row] = await tx
    .insert(conversations)
    .values({ siteId: values.siteId, profileLowId: low, profileHighId: high, startedByProfileId: values.starter })
    .onConflictDoNothing({ target: [conversations.profileLowId, conversations.profileHighId] })
    .returning({ id: conversations.id });
  return row?.id ?? null;
}

/**
 * Stores a message from `senderSide` under the conversation's next sequence number (the row must be locked), in
 * one statement: the row's update (one more unread for the other side, and the sender has read up to their own
 * message) is a data-modifying WITH of the insert, which takes its sequence from it. `values.createdAt`, where
 * given, is also the row's time of change (the demo data's history); otherwise both are now.
 */
export async function appendMessage(
  tx: Executor,
  senderSide: Side,
  values: Omit<typeof messages.$inferInsert, 'seq'> & { conversationId: number },
): Promise<MessageRow> {
  const other: Side = senderSide === 'low' ? 'high' : 'low';
  const next = tx.$with('next_seq', { seq: sql<number>`last_seq` }).as(
    tx
      .update(conversations)
      .set({
        lastSeq: sql`${conversations.lastSeq} + 1`,
        [unreadKey[other]]: sql`${unread[other]} + 1`,
        [readSeqKey[senderSide]]: sql`${conversations.lastSeq} + 1`,
        [unreadKey[senderSide]]: 0,
        updatedAt: values.createdAt ?? sql`now()`,
      })
      .where(eq(conversations.id, values.conversationId))
      .returning({ seq: conversations.lastSeq })
      .getSQL(),
  );
  const [row] = await tx
    .with(next)
    .insert(messages)
    .values({ ...values, seq: sql`(select last_seq from ${next})` })
    .returning();
  return row;
}

/**
 * appendMessage for a batch of messages, one a conversation (their rows locked), in one statement: each row's
 * update as appendMessage makes it, then the messages under their new sequences. The stored rows, in the order given.
 */
export async function appendMessages(
  tx: Executor,
  list: (Omit<typeof messages.$inferInsert, 'seq' | 'createdAt'> & { conversationId: number; senderProfileId: number })[],
): Promise<MessageRow[]> {
  if (list.length === 0) return [];
  const change = sql`unnest(${sql.param(list.map((m) => m.conversationId))}::bigint[], ${sql.param(list.map((m) => m.senderProfileId))}::bigint[]) as change(id, sender)`;
  const low = sql`${conversations.profileLowId} = change.sender`;
  const next = tx.$with('next_seq', { id: sql<number>`id`, seq: sql<number>`last_seq` }).as(
    sql`update ${conversations} set
        last_seq = ${conversations.lastSeq} + 1,
        low_unread = case when ${low} then 0 else ${conversations.lowUnread} + 1 end,
        high_unread = case when ${low} then ${conversations.highUnread} + 1 else 0 end,
        low_read_seq = case when ${low} then ${conversations.lastSeq} + 1 else ${conversations.lowReadSeq} end,
        high_read_seq = case when ${low} then ${conversations.highReadSeq} else ${conversations.lastSeq} + 1 end,
        updated_at = now()
      from ${change}
      where ${conversations.id} = change.id
      returning ${conversations.id} as id, ${conversations.lastSeq} as last_seq`,
  );
  const stored = await tx
    .with(next)
    .insert(messages)
    .values(list.map((values) => ({ ...values, seq: sql`(select last_seq from ${next} where id = ${values.conversationId})` })))
    .returning();
  const byConversation = new Map(stored.map((row) => [row.conversationId, row]));
  return list.map((values) => {
    const row = byConversation.get(values.conversationId);
    if (!row) throw new Error(`The message to conversation ${values.conversationId} was not stored`);
    return row;
  });
}

export async function findMessageByClientId(db: Executor, senderProfileId: number, clientId: string): Promise<MessageRow | undefined> {
  const [row] = await db
    .select()
    .from(messages)
    .where(and(eq(messages.senderProfileId, senderProfileId), eq(messages.clientId, clientId)));
  return row;
}

/** Opening a chat: nothing in it is unread for that side any more. False when it is not theirs. */
export async function markRead(db: Executor, conversationId: number, profileId: number): Promise<boolean> {
  const conversation = await findConversation(db, conversationId, profileId);
  if (!conversation) return false;
  const side = sideOf(conversation, profileId);
  await db
    .update(conversations)
    .set({ [unreadKey[side]]: 0, [readSeqKey[side]]: conversations.lastSeq })
    .where(eq(conversations.id, conversationId));
  return true;
}

/** Removing a chat for one side: its messages so far are gone for that side only. False when it is not theirs. */
export async function clearForSide(db: Executor, conversationId: number, profileId: number): Promise<boolean> {
  const conversation = await findConversation(db, conversationId, profileId);
  if (!conversation) return false;
  const side = sideOf(conversation, profileId);
  await db
    .update(conversations)
    .set({ [clearedSeqKey[side]]: conversations.lastSeq, [unreadKey[side]]: 0, [readSeqKey[side]]: conversations.lastSeq })
    .where(eq(conversations.id, conversationId));
  return true;
}

/** What a chat needs of the other member, as `viewerId` sees them (the rules of spec §4). */
const partnerColumns = (viewerId: number | SQL) => ({
  ...profileCardColumns,
  siteId: profiles.siteId,
  status: profiles.status,
  isInvisible: profiles.isInvisible,
  userStatus: users.status,
  paidUser: users.paidUser,
  blockedMe: sql<boolean>`exists (select 1 from ${blocks} b where b.blocker_profile_id = ${profiles.id} and b.blocked_profile_id = ${viewerId})`,
  blockedByMe: sql<boolean>`exists (select 1 from ${blocks} b where b.blocker_profile_id = ${viewerId} and b.blocked_profile_id = ${profiles.id})`,
  /** Invisible and has not contacted the viewer (spec §4: an invisible member must message first). */
  hiddenFromMe: sql<boolean>`not ${notHiddenFrom(viewerId)}`,
});

/** The other profile of a chat as its card shows it, with what the chat rules need to know about it. */
export async function findPartner(db: Executor, partnerId: number, viewerId: number) {
  const [row] = await db
    .select(partnerColumns(viewerId))
    .from(profiles)
    .leftJoin(users, eq(users.id, profiles.userId))
    .where(eq(profiles.id, partnerId));
  return row;
}
export type PartnerRow = NonNullable<Awaited<ReturnType<typeof findPartner>>>;

/** A member's balance as it is now. */
export async function findCredits(db: Executor, userId: number): Promise<number> {
  const [row] = await db.select({ credits: users.credits }).from(users).where(eq(users.id, userId));
  return row?.credits ?? 0;
}

const CHATS_LIST_LIMIT = 500;

/**
 * chats.php: the conversations of a profile that have a message it has not removed, the latest first, each with
 * the other profile's card, the side's unread count and the last message (when it is newer than `since`).
 */
export async function listChats(db: Executor, profileId: number, siteId: number, since: Date) {
  const isLow = sql`${conversations.profileLowId} = ${profileId}`;
  const partnerId = sql`case when ${isLow} then ${conversations.profileHighId} else ${conversations.profileLowId} end`;
  return db
    .select({
      conversationId: conversations.id,
      lastSeq: conversations.lastSeq,
      updatedAt: conversations.updatedAt,
      unread: sql<number>`case when ${isLow} then ${conversations.lowUnread} else ${conversations.highUnread} end`,
      ...profileCardColumns,
      status: profiles.status,
      userStatus: users.status,
      paidUser: users.paidUser,
      blockedMe: sql<boolean>`exists (select 1 from ${blocks} b where b.blocker_profile_id = ${profiles.id} and b.blocked_profile_id = ${profileId})`,
      blockedByMe: sql<boolean>`exists (select 1 from ${blocks} b where b.blocker_profile_id = ${profileId} and b.blocked_profile_id = ${profiles.id})`,
      lastKind: messages.kind,
      lastBody: messages.body,
      lastGift: messages.gift,
      lastStatus: messages.status,
      lastSender: messages.senderProfileId,
      lastAt: messages.createdAt,
    })
    .from(conversations)
    .innerJoin(profiles, eq(profiles.id, partnerId))
    .leftJoin(users, eq(users.id, profiles.userId))
    .leftJoin(
      messages,
      and(eq(messages.conversationId, conversations.id), eq(messages.seq, conversations.lastSeq), gte(messages.createdAt, since)),
    )
    .where(
      and(
        eq(conversations.siteId, siteId),
        or(
          and(eq(conversations.profileLowId, profileId), gt(conversations.lastSeq, conversations.lowClearedSeq)),
          and(eq(conversations.profileHighId, profileId), gt(conversations.lastSeq, conversations.highClearedSeq)),
        ),
        ownerNotDeleted(),
      ),
    )
    .orderBy(desc(conversations.updatedAt), desc(conversations.id))
    .limit(CHATS_LIST_LIMIT);
}
export type ChatListRow = Awaited<ReturnType<typeof listChats>>[number];

/**
 * A profile's unread messages over the chats chats.php lists (its site, the other profile's account not deleted;
 * a removed chat has none unread until a new message brings it back).
 */
export async function sumUnread(db: Executor, profileId: number, siteId: number): Promise<number> {
  const isLow = sql`${conversations.profileLowId} = ${profileId}`;
  const partnerId = sql`case when ${isLow} then ${conversations.profileHighId} else ${conversations.profileLowId} end`;
  const [row] = await db
    .select({
      n: sql<number>`coalesce(sum(case when ${isLow} then ${conversations.lowUnread} else ${conversations.highUnread} end), 0)::int`,
    })
    .from(conversations)
    .innerJoin(profiles, eq(profiles.id, partnerId))
    .leftJoin(users, eq(users.id, profiles.userId))
    .where(and(eq(conversations.siteId, siteId), isMember(profileId), ownerNotDeleted()));
  return Number(row?.n ?? 0);
}

export interface MessageWindow {
  conversationId: number;
  /** Messages up to this sequence were removed by the reader. */
  clearedSeq: number;
  /** Messages older than this are hidden for privacy. */
  since: Date;
  after?: number;
  before?: number;
  limit: number;
}

/**
 * A page of a conversation's messages the reader may see, oldest first: after a sequence, before one, or the
 * newest. One more than `limit` is read to tell whether there are more in the direction read.
 */
export async function listMessages(db: Executor, w: MessageWindow): Promise<{ rows: MessageRow[]; more: boolean }> {
  const visible = and(eq(messages.conversationId, w.conversationId), gt(messages.seq, w.clearedSeq), gte(messages.createdAt, w.since));
  const forward = w.after !== undefined;
  const rows = await db
    .select()
    .from(messages)
    .where(
      and(
        visible,
        w.after !== undefined ? gt(messages.seq, w.after) : undefined,
        w.before !== undefined ? lt(messages.seq, w.before) : undefined,
      ),
    )
    .orderBy(forward ? asc(messages.seq) : desc(messages.seq))
    .limit(w.limit + 1);
  const more = rows.length > w.limit;
  const page = rows.slice(0, w.limit);
  return { rows: forward ? page : page.reverse(), more };
}

/** Whether a message the reader has not removed is older than the privacy window (before `beforeSeq`, if given). */
export async function hasHiddenHistory(db: Executor, conversationId: number, clearedSeq: number, since: Date): Promise<boolean> {
  const [row] = await db
    .select({ one: sql<number>`1` })
    .from(messages)
    .where(and(eq(messages.conversationId, conversationId), gt(messages.seq, clearedSeq), lt(messages.createdAt, since)))
    .limit(1);
  return Boolean(row);
}

export const clearedSeqOf = (conversation: ConversationRow, side: Side): number =>
  side === 'low' ? conversation.lowClearedSeq : conversation.highClearedSeq;

/** The account purge: the conversations of a profile, with all their messages, for both sides. */
export async function deleteConversationsOf(db: Executor, profileId: number): Promise<void> {
  await db.delete(conversations).where(isMember(profileId));
}

/**
 * Moderation rejects a message: 'sent' → 'rejected'. Its sender's account, site and price for the refund, or
 * undefined when there is no such message or it was rejected before.
 */
export async function markRejected(tx: Executor, messageId: number) {
  const [row] = await tx
    .update(messages)
    .set({ status: 'rejected' })
    .where(and(eq(messages.id, messageId), eq(messages.status, 'sent')))
    .returning({ senderProfileId: messages.senderProfileId, price: messages.price });
  if (!row) return undefined;
  const [sender] = await tx
    .select({ userId: profiles.userId, siteId: profiles.siteId })
    .from(profiles)
    .where(eq(profiles.id, row.senderProfileId));
  return { ...row, userId: sender?.userId ?? null, siteId: sender?.siteId ?? null };
}

/**
 * A photo message of a conversation `profileId` takes part in and still sees (not removed on their side, not
 * rejected, inside the privacy window), with the conversation and its sender's account (whose media hold the
 * files); undefined otherwise.
 */
export async function findVisiblePhotoMessage(db: Executor, messageId: number, profileId: number, siteId: number, since: Date) {
  const [row] = await db
    .select({ message: messages, conversation: conversations, senderUserId: profiles.userId })
    .from(messages)
    .innerJoin(conversations, eq(conversations.id, messages.conversationId))
    .innerJoin(profiles, eq(profiles.id, messages.senderProfileId))
    .where(
      and(
        eq(messages.id, messageId),
        eq(messages.kind, 'photo'),
        eq(messages.status, 'sent'),
        gte(messages.createdAt, since),
        eq(conversations.siteId, siteId),
        isMember(profileId),
      ),
    );
  if (!row) return undefined;
  const cleared = clearedSeqOf(row.conversation, sideOf(row.conversation, profileId));
  return row.message.seq > cleared ? row : undefined;
}

/**
 * The recipient chose to see a photo unblurred: remembered from the first time (a second reveal changes nothing).
 * True when this call was the first.
 */
export async function markPhotoRevealed(db: Executor, messageId: number, at: Date): Promise<boolean> {
  const changed = await db
    .update(messages)
    .set({ photoRevealedAt: at })
    .where(and(eq(messages.id, messageId), sql`${messages.photoRevealedAt} is null`))
    .returning({ id: messages.id });
  return changed.length > 0;
}

/**
 * For moderation: the messages of a conversation around one of them (up to `around` before and after, all of
 * them, whatever either member removed), oldest first, with their senders' names.
 */
export async function listMessagesAround(db: Executor, conversationId: number, messageId: number, around: number) {
  const [target] = await db
    .select({ seq: messages.seq })
    .from(messages)
    .where(and(eq(messages.id, messageId), eq(messages.conversationId, conversationId)));
  const columns = { message: messages, senderName: profiles.name, senderIsFictional: profiles.isFictional };
  const base = () => db.select(columns).from(messages).innerJoin(profiles, eq(profiles.id, messages.senderProfileId));
  if (!target) {
    const newest = await base().where(eq(messages.conversationId, conversationId)).orderBy(desc(messages.seq)).limit(around);
    return newest.reverse();
  }
  const [before, after] = await Promise.all([
    base()
      .where(and(eq(messages.conversationId, conversationId), lt(messages.seq, target.seq)))
      .orderBy(desc(messages.seq))
      .limit(around),
    base()
      .where(and(eq(messages.conversationId, conversationId), gte(messages.seq, target.seq)))
      .orderBy(asc(messages.seq))
      .limit(around + 1),
  ]);
  return [...before.reverse(), ...after];
}

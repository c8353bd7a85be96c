import {
  conversations,
  type Executor,
  likes,
  memberPresence,
  messageNotices,
  messages,
  notificationPreferences,
  profiles,
  pushSubscriptions,
  users,
} from '@amora/db';
import { and, eq, gt, ne, sql } from 'drizzle-orm';

export interface PreferenceRow {
  type: string;
  channel: string;
  enabled: boolean;
}

/** The member's stored choices (a type and channel without a row has its default). */
export function findPreferences(db: Executor, userId: number): Promise<PreferenceRow[]> {
  return db
    .select({ type: notificationPreferences.type, channel: notificationPreferences.channel, enabled: notificationPreferences.enabled })
    .from(notificationPreferences)
    .where(eq(notificationPreferences.userId, userId));
}

/** Stores choices, each replacing the one it names. */
export async function upsertPreferences(db: Executor, userId: number, rows: readonly PreferenceRow[], now: Date): Promise<void> {
  if (rows.length === 0) return;
  await db
    .insert(notificationPreferences)
    .values(rows.map((row) => ({ userId, ...row, updatedAt: now })))
    .onConflictDoUpdate({
      target: [notificationPreferences.userId, notificationPreferences.type, notificationPreferences.channel],
      set: { enabled: sql`excluded.enabled`, updatedAt: sql`excluded.updated_at` },
    });
}

/** The member is on the site until `until` (a visible page renews it), or was until now (it went away). */
export async function setActiveUntil(db: Executor, userId: number, until: Date, now: Date): Promise<void> {
  await db
    .insert(memberPresence)
    .values({ userId, activeUntil: until, updatedAt: now })
    .onConflictDoUpdate({ target: memberPresence.userId, set: { activeUntil: until, updatedAt: now } });
}

/** Whether a page of the member's is open and visible at `now`. */
export async function isActiveAt(db: Executor, userId: number, now: Date): Promise<boolean> {
  const rows = await db
    .select({ userId: memberPresence.userId })
    .from(memberPresence)
    .where(and(eq(memberPresence.userId, userId), gt(memberPresence.activeUntil, now)));
  return rows.length > 0;
}

/**
 * Up to when the member's messages and likes have been told of by mail (null: never): the time the newest thing a
 * mail told of was stored, on the database's clock like the messages' and likes' own.
 */
export async function findMailedAt(db: Executor, userId: number): Promise<Date | null> {
  const [row] = await db.select({ mailedAt: messageNotices.mailedAt }).from(messageNotices).where(eq(messageNotices.userId, userId));
  return row?.mailedAt ?? null;
}

export async function setMailedAt(db: Executor, userId: number, at: Date): Promise<void> {
  await db
    .insert(messageNotices)
    .values({ userId, mailedAt: at })
    .onConflictDoUpdate({ target: messageNotices.userId, set: { mailedAt: at } });
}

/**
 * What a notice needs of the member: where to write, in which language, on which site, whether mail has stopped,
 * and their profile (the one that receives messages and likes; null without one).
 */
export async function findRecipient(db: Executor, userId: number) {
  const [row] = await db
    .select({
      id: users.id,
      siteId: users.siteId,
      email: users.email,
      language: users.language,
      status: users.status,
      notificationsDisabled: users.notificationsDisabled,
      profileId: profiles.id,
      profileName: profiles.name,
    })
    .from(users)
    .leftJoin(profiles, eq(profiles.userId, users.id))
    .where(eq(users.id, userId));
  return row ?? null;
}

/**
 * What a notice for a profile needs, in one read: the member's account (null for a fictional profile or a deleted
 * account), when their last activity mail went out, and whether any browser of theirs takes pushes.
 */
export async function findNoticeRecipient(
  db: Executor,
  profileId: number,
): Promise<{ userId: number; mailedAt: Date | null; hasPush: boolean } | null> {
  return (await findNoticeRecipients(db, [profileId])).get(profileId) ?? null;
}

/** findNoticeRecipient for several profiles in one statement, by profile id (a profile without an account is left out). */
export async function findNoticeRecipients(
  db: Executor,
  profileIds: number[],
): Promise<Map<number, { userId: number; mailedAt: Date | null; hasPush: boolean }>> {
  const found = await db
    .select({
      profileId: profiles.id,
      userId: users.id,
      mailedAt: messageNotices.mailedAt,
      hasPush: sql<boolean>`exists (select 1 from ${pushSubscriptions} s where s.user_id = ${users.id})`,
    })
    .from(profiles)
    .innerJoin(users, eq(users.id, profiles.userId))
    .leftJoin(messageNotices, eq(messageNotices.userId, users.id))
    .where(and(sql`${profiles.id} = any(${sql.param(profileIds)}::bigint[])`, sql`${users.status} <> 'deleted'`));
  return new Map(found.map((row) => [row.profileId, { userId: row.userId, mailedAt: row.mailedAt, hasPush: Boolean(row.hasPush) }]));
}

export interface UnreadFrom {
  conversationId: number;
  profileId: number;
  name: string;
  isFictional: boolean;
  count: number;
  /** The partner started the conversation and the member has not written in it yet. */
  isNewConversation: boolean;
  /** The newest of these messages. */
  newestAt: Date;
}

/** Per conversation: the messages to `profileId` it has not read, that came after `since`, and who sent them. */
export async function findUnreadSince(db: Executor, profileId: number, since: Date): Promise<UnreadFrom[]> {
  const mine = sql`case when ${conversations.profileLowId} = ${profileId} then ${conversations.lowReadSeq} else ${conversations.highReadSeq} end`;
  const rows = await db
    .select({
      conversationId: messages.conversationId,
      profileId: messages.senderProfileId,
      name: profiles.name,
      isFictional: profiles.isFictional,
      count: sql<number>`count(*)::int`,
      newestAt: sql<Date>`max(${messages.createdAt})`.mapWith((value: string | Date) => new Date(value)),
      isNewConversation: sql<boolean>`bool_and(${conversations.startedByProfileId} <> ${profileId}) and not exists (
        select 1 from ${messages} m2 where m2.conversation_id = ${conversations.id} and m2.sender_profile_id = ${profileId})`,
    })
    .from(messages)
    .innerJoin(conversations, eq(conversations.id, messages.conversationId))
    .innerJoin(profiles, eq(profiles.id, messages.senderProfileId))
    .where(
      and(
        sql`(${conversations.profileLowId} = ${profileId} or ${conversations.profileHighId} = ${profileId})`,
        ne(messages.senderProfileId, profileId),
        sql`${messages.seq} > ${mine}`,
        // In milliseconds, as `since` is kept (PostgreSQL keeps microseconds): the newest told of is not told again.
        sql`date_trunc('milliseconds', ${messages.createdAt}) > ${since.toISOString()}`,
      ),
    )
    .groupBy(messages.conversationId, messages.senderProfileId, profiles.name, profiles.isFictional, conversations.id)
    .orderBy(sql`max(${messages.createdAt}) desc`)
    .limit(20);
  return rows.map((row) => ({ ...row, count: Number(row.count) }));
}

export interface LikeFrom {
  profileId: number;
  name: string;
  isFictional: boolean;
  /** The member had liked them first: this like made a match. */
  isMatch: boolean;
  createdAt: Date;
}

/** The likes `profileId` got after `since` that are still new to them, newest first. */
export async function findLikesSince(db: Executor, profileId: number, since: Date): Promise<LikeFrom[]> {
  return db
    .select({
      profileId: likes.likerProfileId,
      name: profiles.name,
      isFictional: profiles.isFictional,
      isMatch: sql<boolean>`exists (select 1 from ${likes} back where back.liker_profile_id = ${profileId} and back.liked_profile_id = ${likes.likerProfileId})`,
      createdAt: likes.createdAt,
    })
    .from(likes)
    .innerJoin(profiles, eq(profiles.id, likes.likerProfileId))
    .where(
      and(
        eq(likes.likedProfileId, profileId),
        sql`date_trunc('milliseconds', ${likes.createdAt}) > ${since.toISOString()}`,
        eq(likes.isNew, true),
      ),
    )
    .orderBy(sql`${likes.createdAt} desc`)
    .limit(20);
}

/** Whether the member has a push subscription on their site. */
export async function hasPushSubscription(db: Executor, userId: number): Promise<boolean> {
  const rows = await db.select({ id: pushSubscriptions.id }).from(pushSubscriptions).where(eq(pushSubscriptions.userId, userId)).limit(1);
  return rows.length > 0;
}

/**
 * Whether no push went out to the member within `windowMs` before `now` while they stayed away (a push went out
 * and they have not been on the site since): the next one may go.
 */
export async function isPushDue(db: Executor, userId: number, now: Date, windowMs: number): Promise<boolean> {
  const since = new Date(now.getTime() - windowMs);
  const rows = await db.execute(sql`
    select 1 from ${messageNotices} n
    where n.user_id = ${userId} and n.pushed_at >= ${since.toISOString()}
      and not exists (
        select 1 from ${memberPresence} p
        where p.user_id = ${userId} and p.updated_at > n.pushed_at and p.active_until > n.pushed_at
      )`);
  return (rows as unknown as { rows: unknown[] }).rows.length === 0;
}

export async function setPushedAt(db: Executor, userId: number, at: Date): Promise<void> {
  await db
    .insert(messageNotices)
    .values({ userId, pushedAt: at })
    .onConflictDoUpdate({ target: messageNotices.userId, set: { pushedAt: at } });
}

/**
 * Members to remind of messages left unread (at most `limit`): a message to them has waited unread for more than
 * `waitedMs` (but not over two weeks), they have not been on the site for as long, no activity mail went out in
 * that time, no reminder in `everyMs`, and their mail has not stopped.
 */
export async function findMembersToRemind(
  db: Executor,
  options: { now: Date; waitedMs: number; everyMs: number; limit: number },
): Promise<{ userId: number; profileId: number }[]> {
  const { now, waitedMs, everyMs, limit } = options;
  const waited = new Date(now.getTime() - waitedMs).toISOString();
  const lastReminder = new Date(now.getTime() - everyMs).toISOString();
  const oldest = new Date(now.getTime() - 14 * 86_400_000).toISOString();
  const rows = await db.execute(sql`
    select u.id as user_id, p.id as profile_id
    from ${users} u
    join ${profiles} p on p.user_id = u.id
    left join ${messageNotices} n on n.user_id = u.id
    left join ${memberPresence} mp on mp.user_id = u.id
    where u.status <> 'deleted'
      and (n.reminded_at is null or n.reminded_at < ${lastReminder})
      and (n.mailed_at is null or n.mailed_at < ${waited})
      and (mp.active_until is null or mp.active_until < ${waited})
      and exists (
        select 1 from ${conversations} c join ${messages} m on m.conversation_id = c.id
        where (c.profile_low_id = p.id or c.profile_high_id = p.id) and m.sender_profile_id <> p.id
          and m.seq > case when c.profile_low_id = p.id then c.low_read_seq else c.high_read_seq end
          and m.created_at < ${waited} and m.created_at > ${oldest})
    order by u.id
    limit ${limit}`);
  return (rows as unknown as { rows: { user_id: number | string; profile_id: number | string }[] }).rows.map((row) => ({
    userId: Number(row.user_id),
    profileId: Number(row.profile_id),
  }));
}

export async function setRemindedAt(db: Executor, userId: number, at: Date): Promise<void> {
  await db
    .insert(messageNotices)
    .values({ userId, remindedAt: at })
    .onConflictDoUpdate({ target: messageNotices.userId, set: { remindedAt: at } });
}

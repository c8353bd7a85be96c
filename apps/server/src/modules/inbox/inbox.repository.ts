import { blocks, conversations, type Executor, inboxClaims, messages, profiles, sites, staffUsers, users } from '@amora/db';
import { and, asc, count, desc, eq, gt, isNull, lt, ne, or, type SQL, sql } from 'drizzle-orm';
import { alias } from 'drizzle-orm/pg-core';

const member = alias(profiles, 'member_profile');
const fictional = alias(profiles, 'fictional_profile');
const last = alias(messages, 'last_message');
const memberAccount = alias(users, 'member_account');

/** The fictional side of a conversation: one of its two profiles, fictional (a fictional one never writes to another). */
const fictionalSide = and(
  or(eq(fictional.id, conversations.profileLowId), eq(fictional.id, conversations.profileHighId)),
  eq(fictional.isFictional, true),
) as SQL;
const memberSide = and(
  or(eq(member.id, conversations.profileLowId), eq(member.id, conversations.profileHighId)),
  eq(member.isFictional, false),
) as SQL;

/** The member's account, when the profile has one (needs `memberAccount` left-joined on it). */
const memberAccountJoin = eq(memberAccount.id, member.userId);

/** Either profile blocked the other (a fictional profile never blocks, but the rule is the chat's, both ways). */
const blockedBetween = sql<boolean>`exists (select 1 from ${blocks} b where (b.blocker_profile_id = ${member.id} and b.blocked_profile_id = ${fictional.id})
  or (b.blocker_profile_id = ${fictional.id} and b.blocked_profile_id = ${member.id}))`;

/**
 * The member can be answered, as the chat's send decides (chatBlock): an active profile whose account (if it has
 * one) is confirmed, not deleted, and no block between the two. A member who blocked the profile, deleted their
 * account, was suspended or banned (profile `suspended`) or disabled their profile does not wait in the inbox.
 * Invisible mode does not hide them: they wrote first, which is what it asks (spec §4).
 */
const memberAnswerable = and(
  eq(member.status, 'active'),
  or(isNull(member.userId), eq(memberAccount.status, 'confirmed')),
  sql`not ${blockedBetween}`,
) as SQL;

/** A claim still held at `now`, with its holder's name. */
const liveClaim = (now: Date) => and(eq(inboxClaims.conversationId, conversations.id), gt(inboxClaims.expiresAt, now)) as SQL;

/** The member's messages after the fictional profile's last one (what waits for an answer). */
const waitingCount = sql<number>`(select count(*) from ${messages} w where w.conversation_id = ${conversations.id}
  and w.sender_profile_id = ${member.id} and w.status = 'sent'
  and w.seq > coalesce((select max(a.seq) from ${messages} a where a.conversation_id = ${conversations.id} and a.sender_profile_id = ${fictional.id}), 0))`;

const claimColumns = {
  claimStaffId: inboxClaims.staffId,
  claimStaffName: staffUsers.name,
  claimExpiresAt: inboxClaims.expiresAt,
};

/**
 * The inbox: conversations with a fictional profile whose last message is the member's (sent, not removed by
 * moderation) and whose member can be answered, the longest waiting first, one page of them and how many there
 * are in all.
 */
export async function listInbox(db: Executor, filter: { siteId?: number; now: Date; limit: number; offset: number }) {
  const where = and(
    filter.siteId === undefined ? undefined : eq(conversations.siteId, filter.siteId),
    eq(last.senderProfileId, member.id),
    eq(last.status, 'sent'),
    memberAnswerable,
  );
  const [total] = await db
    .select({ n: count() })
    .from(conversations)
    .innerJoin(fictional, fictionalSide)
    .innerJoin(member, memberSide)
    .innerJoin(last, and(eq(last.conversationId, conversations.id), eq(last.seq, conversations.lastSeq)))
    .leftJoin(memberAccount, memberAccountJoin)
    .where(where);
  const rows = await db
    .select({
      conversationId: conversations.id,
      siteId: sites.id,
      siteName: sites.name,
      siteDomain: sites.domain,
      memberId: member.id,
      memberName: member.name,
      memberBirthDate: member.birthDate,
      memberCity: member.city,
      memberCountry: member.country,
      memberPhotoId: member.mainPhotoId,
      fictionalId: fictional.id,
      fictionalName: fictional.name,
      fictionalPhotoId: fictional.mainPhotoId,
      waiting: waitingCount.mapWith(Number),
      lastAt: last.createdAt,
      ...claimColumns,
    })
    .from(conversations)
    .innerJoin(fictional, fictionalSide)
    .innerJoin(member, memberSide)
    .innerJoin(last, and(eq(last.conversationId, conversations.id), eq(last.seq, conversations.lastSeq)))
    .leftJoin(memberAccount, memberAccountJoin)
    .innerJoin(sites, eq(sites.id, conversations.siteId))
    .leftJoin(inboxClaims, liveClaim(filter.now))
    .leftJoin(staffUsers, eq(staffUsers.id, inboxClaims.staffId))
    .where(where)
    .orderBy(asc(last.createdAt), asc(conversations.id))
    .limit(filter.limit)
    .offset(filter.offset);
  return { rows, total: total?.n ?? 0 };
}

const profileColumns = (p: typeof member | typeof fictional) => ({
  id: p.id,
  name: p.name,
  birthDate: p.birthDate,
  gender: p.gender,
  sexuality: p.sexuality,
  country: p.country,
  region: p.region,
  city: p.city,
  about: p.about,
  interests: p.interests,
  isFictional: p.isFictional,
  mainPhotoId: p.mainPhotoId,
});

/**
 * A conversation of a fictional profile with a member: both profiles, the site, the last message's sender, the
 * claim, and what decides whether the member can be answered (their profile's and account's status, a block).
 */
export async function findInboxConversation(db: Executor, conversationId: number, now: Date) {
  const [row] = await db
    .select({
      conversationId: conversations.id,
      siteId: sites.id,
      siteName: sites.name,
      siteDomain: sites.domain,
      lastSeq: conversations.lastSeq,
      member: profileColumns(member),
      fictional: profileColumns(fictional),
      lastSenderId: last.senderProfileId,
      lastStatus: last.status,
      memberStatus: member.status,
      memberAccountStatus: memberAccount.status,
      blocked: blockedBetween,
      ...claimColumns,
    })
    .from(conversations)
    .innerJoin(fictional, fictionalSide)
    .innerJoin(member, memberSide)
    .leftJoin(memberAccount, memberAccountJoin)
    .innerJoin(sites, eq(sites.id, conversations.siteId))
    .leftJoin(last, and(eq(last.conversationId, conversations.id), eq(last.seq, conversations.lastSeq)))
    .leftJoin(inboxClaims, liveClaim(now))
    .leftJoin(staffUsers, eq(staffUsers.id, inboxClaims.staffId))
    .where(eq(conversations.id, conversationId));
  return row;
}
export type InboxConversationRow = NonNullable<Awaited<ReturnType<typeof findInboxConversation>>>;

/** A page of a conversation's messages, newest first (before a sequence when given), one more than asked to know of more. */
export function listConversationMessages(db: Executor, conversationId: number, before: number | undefined, limit: number) {
  return db
    .select({
      id: messages.id,
      seq: messages.seq,
      senderProfileId: messages.senderProfileId,
      kind: messages.kind,
      body: messages.body,
      status: messages.status,
      createdAt: messages.createdAt,
    })
    .from(messages)
    .where(and(eq(messages.conversationId, conversationId), before === undefined ? undefined : lt(messages.seq, before)))
    .orderBy(desc(messages.seq))
    .limit(limit + 1);
}

/**
 * Claims a conversation for an operator in one statement: a new claim, or taking over one that has run out, or
 * renewing one's own. Of two operators at once, the second waits on the first's row and then finds it held, so
 * only one gets it. The claim, or undefined when another operator holds it.
 */
export async function claim(db: Executor, conversationId: number, staffId: number, now: Date, expiresAt: Date) {
  const [row] = await db
    .insert(inboxClaims)
    .values({ conversationId, staffId, claimedAt: now, expiresAt })
    .onConflictDoUpdate({
      target: inboxClaims.conversationId,
      set: { staffId, claimedAt: now, expiresAt },
      setWhere: or(eq(inboxClaims.staffId, staffId), sql`${inboxClaims.expiresAt} <= ${now}`),
    })
    .returning();
  return row;
}

/** Who holds the conversation's claim at `now` (their id and name), if anyone. */
export async function findClaimHolder(db: Executor, conversationId: number, now: Date) {
  const [row] = await db
    .select({ staffId: inboxClaims.staffId, name: staffUsers.name, expiresAt: inboxClaims.expiresAt })
    .from(inboxClaims)
    .innerJoin(staffUsers, eq(staffUsers.id, inboxClaims.staffId))
    .where(and(eq(inboxClaims.conversationId, conversationId), gt(inboxClaims.expiresAt, now)));
  return row;
}

/** The operator's own live claim, locked until the transaction ends (an answer holds it while it sends). */
export async function lockOwnClaim(tx: Executor, conversationId: number, staffId: number, now: Date) {
  const [row] = await tx
    .select()
    .from(inboxClaims)
    .where(and(eq(inboxClaims.conversationId, conversationId), eq(inboxClaims.staffId, staffId), gt(inboxClaims.expiresAt, now)))
    .for('update');
  return row;
}

/** Ends the operator's own claim. False when they held none. */
export async function releaseClaim(db: Executor, conversationId: number, staffId: number): Promise<boolean> {
  const rows = await db
    .delete(inboxClaims)
    .where(and(eq(inboxClaims.conversationId, conversationId), eq(inboxClaims.staffId, staffId)))
    .returning({ id: inboxClaims.conversationId });
  return rows.length > 0;
}

/** The fictional profiles, per site then by name; a page of them and how many there are. */
export async function listFictionalProfiles(db: Executor, filter: { siteId?: number; limit: number; offset: number }) {
  const where = and(
    eq(profiles.isFictional, true),
    ne(profiles.status, 'deleted'),
    filter.siteId === undefined ? undefined : eq(profiles.siteId, filter.siteId),
  );
  const [total] = await db.select({ n: count() }).from(profiles).where(where);
  const rows = await db
    .select({ profile: profiles, siteName: sites.name, siteDomain: sites.domain })
    .from(profiles)
    .innerJoin(sites, eq(sites.id, profiles.siteId))
    .where(where)
    .orderBy(asc(profiles.siteId), asc(profiles.name), asc(profiles.id))
    .limit(filter.limit)
    .offset(filter.offset);
  return { rows, total: total?.n ?? 0 };
}

export async function findFictionalProfile(db: Executor, profileId: number) {
  const [row] = await db
    .select({ profile: profiles, siteName: sites.name, siteDomain: sites.domain })
    .from(profiles)
    .innerJoin(sites, eq(sites.id, profiles.siteId))
    .where(and(eq(profiles.id, profileId), eq(profiles.isFictional, true)));
  return row;
}
export type FictionalProfileRow = NonNullable<Awaited<ReturnType<typeof findFictionalProfile>>>;

export function listSites(db: Executor) {
  return db.select({ id: sites.id, name: sites.name, domain: sites.domain }).from(sites).orderBy(asc(sites.id));
}

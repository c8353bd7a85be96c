import {
  blocks,
  complaints,
  conversations,
  creditLedger,
  dataExports,
  type Executor,
  likes,
  messages,
  notificationPreferences,
  paymentOrders,
  profiles,
  users,
} from '@amora/db';
import { and, asc, desc, eq, inArray, lt, lte, or } from 'drizzle-orm';
import { alias } from 'drizzle-orm/pg-core';

export type DataExportRow = typeof dataExports.$inferSelect;

// The member's requests (this module owns data_exports).

/** The member's newest export, if they ever asked for one. */
export async function findLatestExport(db: Executor, userId: number): Promise<DataExportRow | undefined> {
  const [row] = await db.select().from(dataExports).where(eq(dataExports.userId, userId)).orderBy(desc(dataExports.id)).limit(1);
  return row;
}

export async function findExport(db: Executor, id: number): Promise<DataExportRow | undefined> {
  const [row] = await db.select().from(dataExports).where(eq(dataExports.id, id));
  return row;
}

export async function findExportByToken(db: Executor, tokenHash: string): Promise<DataExportRow | undefined> {
  const [row] = await db.select().from(dataExports).where(eq(dataExports.tokenHash, tokenHash));
  return row;
}

export async function insertExport(tx: Executor, userId: number, createdAt: Date): Promise<DataExportRow> {
  const [row] = await tx.insert(dataExports).values({ userId, createdAt }).returning();
  return row;
}

/** A pending export becomes ready; false when it is no longer pending (another run finished it, or it failed). */
export async function markReady(
  tx: Executor,
  id: number,
  values: { fileKey: string; sizeBytes: number; tokenHash: string; readyAt: Date; expiresAt: Date },
): Promise<boolean> {
  const rows = await tx
    .update(dataExports)
    .set({ status: 'ready', ...values })
    .where(and(eq(dataExports.id, id), eq(dataExports.status, 'pending')))
    .returning({ id: dataExports.id });
  return rows.length > 0;
}

export async function markDownloaded(db: Executor, id: number, at: Date): Promise<void> {
  await db.update(dataExports).set({ downloadedAt: at }).where(eq(dataExports.id, id));
}

/** Ready exports whose link ran out by `now`: marked expired; their file keys, for the files to go. */
export async function expireReadyBefore(tx: Executor, now: Date): Promise<string[]> {
  const rows = await tx
    .update(dataExports)
    .set({ status: 'expired' })
    .where(and(eq(dataExports.status, 'ready'), lte(dataExports.expiresAt, now)))
    .returning({ fileKey: dataExports.fileKey });
  return rows.flatMap((row) => (row.fileKey ? [row.fileKey] : []));
}

/** A pending export that cannot be prepared (its account is gone or being deleted). */
export async function markFailed(db: Executor, id: number): Promise<void> {
  await db
    .update(dataExports)
    .set({ status: 'failed' })
    .where(and(eq(dataExports.id, id), eq(dataExports.status, 'pending')));
}

/** Exports still pending since before `cutoff` (their job gave up): failed, so the member may ask again. */
export async function failPendingBefore(tx: Executor, cutoff: Date): Promise<number> {
  const rows = await tx
    .update(dataExports)
    .set({ status: 'failed' })
    .where(and(eq(dataExports.status, 'pending'), lt(dataExports.createdAt, cutoff)))
    .returning({ id: dataExports.id });
  return rows.length;
}

/** The account purge: the member's exports; their file keys, for the files to go after the commit. */
export async function deleteExportsOf(tx: Executor, userId: number): Promise<string[]> {
  const rows = await tx.delete(dataExports).where(eq(dataExports.userId, userId)).returning({ fileKey: dataExports.fileKey });
  return rows.flatMap((row) => (row.fileKey ? [row.fileKey] : []));
}

// What goes into the export: the member's own rows, read as they are (no other module's table is written here).

/** The account row, without its password hash. */
export async function accountOf(db: Executor, userId: number) {
  const [row] = await db
    .select({
      id: users.id,
      siteId: users.siteId,
      email: users.email,
      status: users.status,
      language: users.language,
      dateOfBirth: users.dateOfBirth,
      credits: users.credits,
      creditDebt: users.creditDebt,
      paidUser: users.paidUser,
      trafficsource: users.trafficsource,
      tracking: users.tracking,
      notificationsDisabled: users.notificationsDisabled,
      readReceipts: users.readReceipts,
      directDebitBlocked: users.directDebitBlocked,
      signupDate: users.signupDate,
      confirmedAt: users.confirmedAt,
    })
    .from(users)
    .where(eq(users.id, userId));
  return row;
}

export async function profileOf(db: Executor, userId: number) {
  const [row] = await db.select().from(profiles).where(eq(profiles.userId, userId));
  return row;
}

export async function notificationPreferencesOf(db: Executor, userId: number) {
  return db
    .select({
      type: notificationPreferences.type,
      channel: notificationPreferences.channel,
      enabled: notificationPreferences.enabled,
      updatedAt: notificationPreferences.updatedAt,
    })
    .from(notificationPreferences)
    .where(eq(notificationPreferences.userId, userId))
    .orderBy(asc(notificationPreferences.type), asc(notificationPreferences.channel));
}

const other = alias(profiles, 'other');

/** The member's conversations with the other profile's id, name and whether it is fictional. */
export async function conversationsOf(db: Executor, profileId: number) {
  return db
    .select({
      id: conversations.id,
      createdAt: conversations.createdAt,
      startedByProfileId: conversations.startedByProfileId,
      otherId: other.id,
      otherName: other.name,
      otherFictional: other.isFictional,
    })
    .from(conversations)
    .innerJoin(
      other,
      or(
        and(eq(conversations.profileLowId, profileId), eq(other.id, conversations.profileHighId)),
        and(eq(conversations.profileHighId, profileId), eq(other.id, conversations.profileLowId)),
      ),
    )
    .orderBy(asc(conversations.id));
}

/** Every message of those conversations, oldest first in each. */
export async function messagesIn(db: Executor, conversationIds: number[]) {
  if (conversationIds.length === 0) return [];
  return db
    .select({
      id: messages.id,
      conversationId: messages.conversationId,
      seq: messages.seq,
      senderProfileId: messages.senderProfileId,
      kind: messages.kind,
      body: messages.body,
      gift: messages.gift,
      photoKey: messages.photoKey,
      price: messages.price,
      status: messages.status,
      createdAt: messages.createdAt,
    })
    .from(messages)
    .where(inArray(messages.conversationId, conversationIds))
    .orderBy(asc(messages.conversationId), asc(messages.seq));
}

/** Likes the member gave, with the liked profile's name. */
export async function likesGivenBy(db: Executor, profileId: number) {
  return db
    .select({ profileId: other.id, name: other.name, fictional: other.isFictional, source: likes.source, createdAt: likes.createdAt })
    .from(likes)
    .innerJoin(other, eq(other.id, likes.likedProfileId))
    .where(eq(likes.likerProfileId, profileId))
    .orderBy(asc(likes.createdAt));
}

/** Likes the member received, with the liker's name. */
export async function likesReceivedBy(db: Executor, profileId: number) {
  return db
    .select({ profileId: other.id, name: other.name, fictional: other.isFictional, createdAt: likes.createdAt })
    .from(likes)
    .innerJoin(other, eq(other.id, likes.likerProfileId))
    .where(eq(likes.likedProfileId, profileId))
    .orderBy(asc(likes.createdAt));
}

/** Profiles the member blocked. */
export async function blocksBy(db: Executor, profileId: number) {
  return db
    .select({ profileId: other.id, name: other.name, createdAt: blocks.createdAt })
    .from(blocks)
    .innerJoin(other, eq(other.id, blocks.blockedProfileId))
    .where(eq(blocks.blockerProfileId, profileId))
    .orderBy(asc(blocks.createdAt));
}

export async function ledgerOf(db: Executor, userId: number) {
  return db
    .select({
      id: creditLedger.id,
      delta: creditLedger.delta,
      balanceAfter: creditLedger.balanceAfter,
      reason: creditLedger.reason,
      createdAt: creditLedger.createdAt,
    })
    .from(creditLedger)
    .where(eq(creditLedger.userId, userId))
    .orderBy(asc(creditLedger.id));
}

/** The member's orders: what was bought and paid, never a checkout address or a mandate. */
export async function ordersOf(db: Executor, userId: number) {
  return db
    .select({
      id: paymentOrders.id,
      credits: paymentOrders.credits,
      country: paymentOrders.country,
      currency: paymentOrders.currency,
      listPriceMinor: paymentOrders.listPriceMinor,
      discountMinor: paymentOrders.discountMinor,
      feeMinor: paymentOrders.feeMinor,
      amountMinor: paymentOrders.amountMinor,
      method: paymentOrders.method,
      provider: paymentOrders.provider,
      providerPaymentId: paymentOrders.providerPaymentId,
      status: paymentOrders.status,
      createdAt: paymentOrders.createdAt,
      paidAt: paymentOrders.paidAt,
      chargedBackAt: paymentOrders.chargedBackAt,
    })
    .from(paymentOrders)
    .where(eq(paymentOrders.userId, userId))
    .orderBy(asc(paymentOrders.id));
}

/** Complaints and reports the member filed, without who handled them. */
export async function complaintsBy(db: Executor, userId: number) {
  return db
    .select({
      reference: complaints.reference,
      kind: complaints.kind,
      category: complaints.category,
      name: complaints.name,
      email: complaints.email,
      subject: complaints.subject,
      message: complaints.message,
      url: complaints.url,
      reportedProfileId: complaints.reportedProfileId,
      conversationId: complaints.conversationId,
      messageId: complaints.messageId,
      status: complaints.status,
      createdAt: complaints.createdAt,
      handledAt: complaints.handledAt,
    })
    .from(complaints)
    .where(eq(complaints.userId, userId))
    .orderBy(asc(complaints.id));
}

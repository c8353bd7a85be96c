import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import {
  accountTokens,
  blocks,
  complaints,
  conversations,
  creditLedger,
  creditPackages,
  dataExports,
  directDebitMandates,
  discountCodes,
  discountRedemptions,
  likes,
  mailingRecipients,
  mailings,
  mailReports,
  memberPresence,
  memberReminders,
  memberSanctions,
  messageNotices,
  messages,
  notificationPreferences,
  outboxEmails,
  outboxSms,
  paymentCustomers,
  paymentOrders,
  photos,
  profiles,
  pushSubscriptions,
  schema,
  sessions,
  signupMessages,
  skips,
  smsVerifications,
  swipeDays,
  users,
} from '@amora/db';
import { eq, getTableName, is, or, type SQL, sql } from 'drizzle-orm';
import { PgTable } from 'drizzle-orm/pg-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createLike, createMember } from '../../test/factories';
import { createTestApp, type TestApp } from '../../test/harness';
import { purgeDeletedAccounts } from './deletion.service';

/**
 * The account purge (purgeDeletedAccounts, each module's purgeMember) covers every table that holds a member's
 * data. Every table of the schema is in one of the two lists below, so a new table fails this test until it is
 * classified: member data (the purge removes the member's rows, or keeps them without the member: the condition
 * finds a row that still refers to them) or not (with the reason).
 */
type Who = { userId: number; profileId: number };
const MEMBER_DATA: Record<string, (m: Who) => SQL | undefined> = {
  users: (m) => eq(users.id, m.userId),
  sessions: (m) => eq(sessions.userId, m.userId),
  accountTokens: (m) => eq(accountTokens.userId, m.userId),
  signupMessages: (m) => or(eq(signupMessages.userId, m.userId), eq(signupMessages.toProfileId, m.profileId)),
  profiles: (m) => or(eq(profiles.userId, m.userId), eq(profiles.id, m.profileId)),
  photos: (m) => eq(photos.profileId, m.profileId),
  blocks: (m) => or(eq(blocks.blockerProfileId, m.profileId), eq(blocks.blockedProfileId, m.profileId)),
  likes: (m) => or(eq(likes.likerProfileId, m.profileId), eq(likes.likedProfileId, m.profileId)),
  skips: (m) => or(eq(skips.profileId, m.profileId), eq(skips.skippedProfileId, m.profileId)),
  swipeDays: (m) => eq(swipeDays.profileId, m.profileId),
  conversations: (m) =>
    or(
      eq(conversations.profileLowId, m.profileId),
      eq(conversations.profileHighId, m.profileId),
      eq(conversations.startedByProfileId, m.profileId),
    ),
  messages: (m) => eq(messages.senderProfileId, m.profileId),
  // Money records stay, without the member (DESIGN: the ledger and the orders are kept for the books).
  creditLedger: (m) => eq(creditLedger.userId, m.userId),
  paymentOrders: (m) => eq(paymentOrders.userId, m.userId),
  paymentCustomers: (m) => eq(paymentCustomers.userId, m.userId),
  discountCodes: (m) => eq(discountCodes.userId, m.userId),
  discountRedemptions: (m) => eq(discountRedemptions.userId, m.userId),
  directDebitMandates: (m) => eq(directDebitMandates.userId, m.userId),
  smsVerifications: (m) => eq(smsVerifications.userId, m.userId),
  outboxEmails: (m) => eq(outboxEmails.userId, m.userId),
  outboxSms: (m) => eq(outboxSms.userId, m.userId),
  mailReports: (m) => eq(mailReports.userId, m.userId),
  notificationPreferences: (m) => eq(notificationPreferences.userId, m.userId),
  memberPresence: (m) => eq(memberPresence.userId, m.userId),
  memberReminders: (m) => eq(memberReminders.userId, m.userId),
  memberSanctions: (m) => eq(memberSanctions.userId, m.userId),
  messageNotices: (m) => eq(messageNotices.userId, m.userId),
  pushSubscriptions: (m) => eq(pushSubscriptions.userId, m.userId),
  // A complaint is the operator's record: it stays, without the link to the account.
  complaints: (m) => eq(complaints.userId, m.userId),
  dataExports: (m) => eq(dataExports.userId, m.userId),
  // Who a mailing went to: goes with the account (the mailing's counts then leave them out).
  mailingRecipients: (m) => eq(mailingRecipients.userId, m.userId),
};

const NOT_MEMBER_DATA: Record<string, string> = {
  sites: 'the sites and their settings',
  companies: 'the companies behind the sites',
  creditPackages: "the sites' packages",
  paymentMethods: "the sites' payment methods",
  paymentEvents: "the provider's status changes of an order, kept with the order (which keeps no member)",
  pageBounces: 'counts per site, day and path, of no one',
  siteVisits: 'counts per site, day, lander, slug and traffic network, of no one (no member id, no address)',
  reportDays: "the business reports' counts per site and day, of no one; recounted every night, a purge shows by the next",
  reportDayMoney: "the business reports' sums per site, day and currency, of no one; rebuilt every night like report_days",
  reportDaySources: "the business reports' counts per site, day, lander, slug and network, of no one; rebuilt every night like report_days",
  reportRollup: "which days the business reports' rollup holds and when it was rebuilt",
  rateLimits: 'counters keyed by address or account that end with their window (minutes to a day)',
  jobs: 'ids of rows (a mail, an order) that the purge removes or keeps without the member; a job whose row is gone does nothing',
  jobSchedules: 'when each recurring job runs next',
  serverKeys: "the server's own signing keys (Web Push, unsubscribe links)",
  staffUsers: "the operator console's staff, who are not members",
  staffSessions: "the staff's console sessions",
  staffRecoveryCodes: "the staff's recovery codes",
  inboxClaims: "an operator's hold on a conversation while answering, minutes long; the conversation goes with the purge",
  mailings: 'news and promotions staff wrote for a site: their texts and where the sending stands, of no member',
  auditLog: "the operator's record of console actions: it names a member by id only, never their data",
  sandboxPayments: "the payment sandbox, standing in for the provider (development): the provider's own records",
  sandboxCustomers: "the payment sandbox, standing in for the provider (development): the provider's own records",
  sandboxMandates: "the payment sandbox, standing in for the provider (development): the provider's own records",
};

const DAY = 86_400_000;

describe('the account purge covers every table', () => {
  let t: TestApp;
  let dataDir: string;
  beforeAll(async () => {
    dataDir = mkdtempSync(join(tmpdir(), 'amora-purge-'));
    t = await createTestApp({ dataDir });
  }, 60_000);
  afterAll(async () => {
    await t?.close();
    rmSync(dataDir, { recursive: true, force: true });
  });

  it('has every table of the schema classified as member data or not, once', () => {
    const tables = Object.entries(schema)
      .filter(([, value]) => is(value, PgTable))
      .map(([name]) => name)
      .sort();
    const classified = [...Object.keys(MEMBER_DATA), ...Object.keys(NOT_MEMBER_DATA)].sort();
    expect(classified).toEqual(tables);
    expect(tables.length).toBe(55);
  });

  it("leaves no row of a member's data that refers to them once their account is purged", async () => {
    const member = await createMember(t);
    const other = await createMember(t);
    const m: Who = { userId: member.userId, profileId: member.profileId };
    const db = t.ctx.db;
    const [{ siteId }] = await db.select({ siteId: users.siteId }).from(users).where(eq(users.id, m.userId));
    const now = t.clock.now().getTime();

    // A row of the member in every table of member data (through the API where the signup made one already).
    await db.insert(signupMessages).values([
      { userId: m.userId, toProfileId: other.profileId, text: 'hello' },
      { userId: other.userId, toProfileId: m.profileId, text: 'hello back' },
    ]);
    await db.insert(photos).values({ profileId: m.profileId, storageKey: 'purge-test', width: 240, height: 320 });
    await db.insert(blocks).values({ blockerProfileId: m.profileId, blockedProfileId: other.profileId });
    await createLike(t, m.profileId, other.profileId);
    await createLike(t, other.profileId, m.profileId);
    await db.insert(skips).values({ profileId: other.profileId, skippedProfileId: m.profileId });
    await db.insert(swipeDays).values({ profileId: m.profileId, day: '2026-01-01', likesGranted: 1 });
    const [low, high] = [m.profileId, other.profileId].sort((a, b) => a - b);
    const [conversation] = await db
      .insert(conversations)
      .values({ siteId, profileLowId: low, profileHighId: high, startedByProfileId: m.profileId })
      .returning();
    await db.insert(messages).values([
      { conversationId: conversation.id, seq: 1, senderProfileId: m.profileId, body: 'hi', clientId: 'purge-1' },
      { conversationId: conversation.id, seq: 2, senderProfileId: other.profileId, body: 'hi', clientId: 'purge-2' },
    ]);
    await db.insert(creditLedger).values({ userId: m.userId, siteId, delta: 5, balanceAfter: 5, reason: 'test' });
    await db.insert(dataExports).values({ userId: m.userId });
    await db.insert(paymentCustomers).values({ userId: m.userId, provider: 'mollie', customerId: 'cst_purge' });
    const [pkg] = await db.select().from(creditPackages).where(eq(creditPackages.siteId, siteId)).limit(1);
    const [order] = await db
      .insert(paymentOrders)
      .values({
        siteId,
        userId: m.userId,
        packageId: pkg.id,
        country: pkg.country,
        credits: pkg.credits,
        currency: pkg.currency,
        listPriceMinor: pkg.priceMinor,
        amountMinor: pkg.priceMinor,
        method: 'ideal',
        provider: 'mollie',
      })
      .returning();
    const [code] = await db
      .insert(discountCodes)
      .values({
        code: `PURGE${m.userId}`,
        siteId,
        userId: m.userId,
        valuePercentage: 10,
        source: 'welcome',
        expiresAt: new Date(now + DAY),
      })
      .returning();
    await db.insert(discountRedemptions).values({ discountCodeId: code.id, userId: m.userId, orderId: order.id });
    await db.insert(directDebitMandates).values({
      siteId,
      userId: m.userId,
      accountHolder: member.name,
      ibanLast4: '4300',
      street: 'Street',
      houseNumber: '1',
      zip: '1000 AA',
      city: 'Amsterdam',
      phone: '+31612345678',
      provider: 'mollie',
      providerMandateId: 'mdt_purge',
    });
    await db.insert(smsVerifications).values({
      userId: m.userId,
      purpose: 'directdebit',
      phone: '+31612345678',
      codeHash: 'x',
      expiresAt: new Date(now + DAY),
    });
    await db.insert(outboxSms).values({ siteId, userId: m.userId, kind: 'directdebit_code', toNumber: '+31612345678', text: 'code' });
    await db.insert(notificationPreferences).values({ userId: m.userId, type: 'like', channel: 'email', enabled: false });
    await db.insert(memberPresence).values({ userId: m.userId, activeUntil: new Date(now) });
    await db.insert(messageNotices).values({ userId: m.userId, mailedAt: new Date(now) });
    await db.insert(memberReminders).values({ userId: m.userId, kind: 'weekly_update', sentAt: new Date(now) });
    await db.insert(memberSanctions).values({ userId: m.userId, kind: 'warning', reason: 'test' });
    const [mailing] = await db
      .insert(mailings)
      .values({ siteId, kind: 'news', status: 'sent', texts: { en: { subject: 'News', body: 'Text' } } })
      .returning();
    await db.insert(mailingRecipients).values({ mailingId: mailing.id, userId: m.userId, locale: 'en' });
    await db.insert(pushSubscriptions).values({ userId: m.userId, siteId, endpoint: 'https://push.example/purge', p256dh: 'k', auth: 'a' });
    await db.insert(mailReports).values({ userId: m.userId, kind: 'bounce', status: 'permanent' });
    await db.insert(complaints).values({
      reference: `PURGE-${m.userId}`,
      siteId,
      userId: m.userId,
      name: member.name,
      email: member.email,
      category: 'other',
      subject: 'subject',
      message: 'message',
      language: 'en',
    });

    const counts = async () => {
      const found: Record<string, number> = {};
      for (const [name, refersTo] of Object.entries(MEMBER_DATA)) {
        const table = (schema as Record<string, unknown>)[name] as PgTable;
        const [row] = await db.select({ n: sql<number>`count(*)::int` }).from(table).where(refersTo(m));
        found[name] = Number(row.n);
      }
      return found;
    };
    const before = await counts();
    for (const [name, n] of Object.entries(before))
      expect(n, `${name} (${getTableName((schema as Record<string, PgTable>)[name])}) has a row of the member`).toBeGreaterThan(0);

    // Deleted more than the reactivation window ago, then purged.
    await db
      .update(users)
      .set({ status: 'deleted', deletedAt: new Date(now - 15 * DAY) })
      .where(eq(users.id, m.userId));
    await db.update(profiles).set({ status: 'deleted' }).where(eq(profiles.id, m.profileId));
    expect(await purgeDeletedAccounts(t.ctx)).toBeGreaterThanOrEqual(1);

    const after = await counts();
    expect(Object.entries(after).filter(([, n]) => n > 0)).toEqual([]);
    // The other member keeps theirs; the money records stay, without the member.
    expect(await db.select().from(profiles).where(eq(profiles.id, other.profileId))).toHaveLength(1);
    expect(await db.select().from(paymentOrders).where(eq(paymentOrders.id, order.id))).toHaveLength(1);
  }, 60_000);
});

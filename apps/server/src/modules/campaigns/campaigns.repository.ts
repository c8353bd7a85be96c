import {
  type Executor,
  type MailingText,
  mailingRecipients,
  mailings,
  notificationPreferences,
  outboxEmails,
  profiles,
  staffUsers,
  users,
} from '@amora/db';
import { and, asc, count, desc, eq, gt, inArray, isNull, type SQL, sql } from 'drizzle-orm';

export type MailingRow = typeof mailings.$inferSelect;
export type MailingKindValue = MailingRow['kind'];

/** A mailing with the name of the staff member who wrote it. */
export type MailingWithAuthor = MailingRow & { authorName: string | null };

const withAuthor = {
  mailing: mailings,
  authorName: staffUsers.name,
};

export async function insertMailing(
  db: Executor,
  values: { siteId: number; kind: MailingKindValue; texts: Record<string, MailingText>; createdBy: number | null; now: Date },
): Promise<MailingRow> {
  const [row] = await db
    .insert(mailings)
    .values({ ...values, createdAt: values.now, updatedAt: values.now })
    .returning();
  return row;
}

/** Changes a draft; undefined when there is no draft with that id (gone, or scheduled meanwhile). */
export async function updateDraft(
  db: Executor,
  id: number,
  values: { siteId: number; kind: MailingKindValue; texts: Record<string, MailingText>; now: Date },
): Promise<MailingRow | undefined> {
  const [row] = await db
    .update(mailings)
    .set({ siteId: values.siteId, kind: values.kind, texts: values.texts, updatedAt: values.now })
    .where(and(eq(mailings.id, id), eq(mailings.status, 'draft')))
    .returning();
  return row;
}

export async function findMailing(db: Executor, id: number): Promise<MailingWithAuthor | undefined> {
  const [row] = await db
    .select(withAuthor)
    .from(mailings)
    .leftJoin(staffUsers, eq(staffUsers.id, mailings.createdBy))
    .where(eq(mailings.id, id));
  return row ? { ...row.mailing, authorName: row.authorName } : undefined;
}

/** The mailing's row, locked until the unit of work ends: one batch, a scheduling or a cancellation at a time. */
export async function lockMailing(db: Executor, id: number): Promise<MailingRow | undefined> {
  const [row] = await db.select().from(mailings).where(eq(mailings.id, id)).for('update');
  return row;
}

/** A page of mailings, newest first (one site's, or every site's). */
export async function listMailings(
  db: Executor,
  options: { siteId?: number; limit: number; offset: number },
): Promise<{ rows: MailingWithAuthor[]; total: number }> {
  const where = options.siteId === undefined ? undefined : eq(mailings.siteId, options.siteId);
  const found = await db
    .select(withAuthor)
    .from(mailings)
    .leftJoin(staffUsers, eq(staffUsers.id, mailings.createdBy))
    .where(where)
    .orderBy(desc(mailings.createdAt), desc(mailings.id))
    .limit(options.limit)
    .offset(options.offset);
  const [{ total }] = await db.select({ total: count() }).from(mailings).where(where);
  return { rows: found.map((row) => ({ ...row.mailing, authorName: row.authorName })), total: Number(total) };
}

export interface ProgressCounts {
  recipients: number;
  queued: number;
  sent: number;
  failed: number;
  notSent: number;
}

/**
 * How far each mailing's sending got, from its recipients' mails: waiting to leave, left ('sent', or 'dev': kept
 * in the dev mailbox where there is no SMTP), failed so far, or not sent (withdrawn by a cancellation, or
 * suppressed because the member's mail stopped).
 */
export async function progressOf(db: Executor, mailingIds: readonly number[]): Promise<Map<number, ProgressCounts>> {
  const found = new Map<number, ProgressCounts>();
  if (mailingIds.length === 0) return found;
  const status = sql`${outboxEmails.status}`;
  const counted = (condition: SQL) => sql<number>`count(*) filter (where ${condition})`.mapWith(Number);
  const rows = await db
    .select({
      mailingId: mailingRecipients.mailingId,
      recipients: count(),
      queued: counted(sql`${status} = 'pending'`),
      sent: counted(sql`${status} in ('sent', 'dev')`),
      failed: counted(sql`${status} = 'failed'`),
      notSent: counted(sql`${status} in ('suppressed', 'withdrawn') or ${outboxEmails.id} is null`),
    })
    .from(mailingRecipients)
    .leftJoin(outboxEmails, eq(outboxEmails.id, mailingRecipients.outboxId))
    .where(inArray(mailingRecipients.mailingId, [...mailingIds]))
    .groupBy(mailingRecipients.mailingId);
  for (const row of rows) found.set(row.mailingId, { ...row, recipients: Number(row.recipients) });
  return found;
}

/**
 * Members of the site a mailing of `kind` may go to: an address confirmed, not deleted, their mail not stopped
 * (notifications_disabled empty), not suspended or banned (the profile's status), and `kind` wanted by email (their
 * choice, else `wantedByDefault`). The service asks notifications' `wants()` for each as well.
 */
function audience(siteId: number, kind: MailingKindValue, wantedByDefault: boolean): SQL | undefined {
  return and(
    eq(users.siteId, siteId),
    eq(users.status, 'confirmed'),
    isNull(users.deletedAt),
    sql`${users.notificationsDisabled} = '[]'::jsonb`,
    sql`coalesce(${profiles.status}, '') <> 'suspended'`,
    sql`coalesce((select ${notificationPreferences.enabled} from ${notificationPreferences}
      where ${notificationPreferences.userId} = ${users.id} and ${notificationPreferences.type} = ${kind}
        and ${notificationPreferences.channel} = 'email'), ${sql.raw(wantedByDefault ? 'true' : 'false')})`,
  );
}

export interface Candidate {
  userId: number;
  email: string;
  language: string;
  /** The member's profile name, which the mail greets them with. */
  name: string;
}

/** The next members after `afterUserId` (by account id) a mailing may go to; the batch's last id is the next cursor. */
export async function findCandidates(
  db: Executor,
  options: { siteId: number; kind: MailingKindValue; wantedByDefault: boolean; afterUserId: number; limit: number },
): Promise<Candidate[]> {
  const rows = await db
    .select({ userId: users.id, email: users.email, language: users.language, name: profiles.name })
    .from(users)
    .leftJoin(profiles, eq(profiles.userId, users.id))
    .where(and(gt(users.id, options.afterUserId), audience(options.siteId, options.kind, options.wantedByDefault)))
    .orderBy(asc(users.id))
    .limit(options.limit);
  return rows.map((row) => ({ ...row, name: row.name ?? '' }));
}

/** How many members a mailing of `kind` on the site would go to now. */
export async function countAudience(db: Executor, siteId: number, kind: MailingKindValue, wantedByDefault: boolean): Promise<number> {
  const [row] = await db
    .select({ n: count() })
    .from(users)
    .leftJoin(profiles, eq(profiles.userId, users.id))
    .where(audience(siteId, kind, wantedByDefault));
  return Number(row.n);
}

/**
 * Takes the member for the mailing: true when they had not been taken (the primary key makes it once per member
 * and mailing, whichever run asks). In the unit of work that queues their mail, so a claim and its mail commit
 * together or not at all.
 */
export async function claimRecipient(db: Executor, mailingId: number, userId: number, locale: string): Promise<boolean> {
  const claimed = await db
    .insert(mailingRecipients)
    .values({ mailingId, userId, locale })
    .onConflictDoNothing()
    .returning({ userId: mailingRecipients.userId });
  return claimed.length > 0;
}

export async function setRecipientMail(db: Executor, mailingId: number, userId: number, outboxId: number): Promise<void> {
  await db
    .update(mailingRecipients)
    .set({ outboxId })
    .where(and(eq(mailingRecipients.mailingId, mailingId), eq(mailingRecipients.userId, userId)));
}

/** The mailing's mails that have not left yet (a cancellation withdraws them). */
export async function unsentMailsOf(db: Executor, mailingId: number): Promise<number[]> {
  const rows = await db
    .select({ id: outboxEmails.id })
    .from(mailingRecipients)
    .innerJoin(outboxEmails, eq(outboxEmails.id, mailingRecipients.outboxId))
    .where(and(eq(mailingRecipients.mailingId, mailingId), inArray(outboxEmails.status, ['pending', 'failed'])));
  return rows.map((row) => row.id);
}

/** Moves the mailing on: its status and times, and the cursor of the members looked at. */
export async function updateMailing(
  db: Executor,
  id: number,
  values: Partial<Pick<MailingRow, 'status' | 'sendAt' | 'cursorUserId' | 'startedAt' | 'finishedAt' | 'cancelledAt' | 'updatedAt'>>,
): Promise<MailingRow> {
  const [row] = await db.update(mailings).set(values).where(eq(mailings.id, id)).returning();
  return row;
}

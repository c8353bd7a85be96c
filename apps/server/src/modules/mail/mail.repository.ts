import { type Executor, outboxEmails, sites, users } from '@amora/db';
import { and, desc, eq, inArray, sql } from 'drizzle-orm';

export type OutboxRow = typeof outboxEmails.$inferSelect;
export type NewOutboxRow = typeof outboxEmails.$inferInsert;

/** Stores a mail (its sending job is written in the same transaction, see mail.service). */
export async function insertOutbox(db: Executor, row: NewOutboxRow): Promise<number> {
  const [inserted] = await db.insert(outboxEmails).values(row).returning({ id: outboxEmails.id });
  return inserted.id;
}

export async function markSent(db: Executor, id: number): Promise<void> {
  await db.update(outboxEmails).set({ status: 'sent', sentAt: sql`now()`, lastError: null }).where(eq(outboxEmails.id, id));
}

export async function markFailed(db: Executor, id: number, error: string): Promise<void> {
  await db
    .update(outboxEmails)
    .set({ status: 'failed', attempts: sql`${outboxEmails.attempts} + 1`, lastError: error, sentAt: null })
    .where(eq(outboxEmails.id, id));
}

export interface MailToSend {
  id: number;
  kind: string;
  status: string;
  fromAddress: string;
  toAddress: string;
  subject: string;
  html: string;
  text: string;
  replyTo: string | null;
  /** The site's domain: the return path's and the DKIM signature's domain. */
  siteDomain: string | null;
  /** The member's reasons their mail stopped (spec §3); empty while it goes, or for a mail to no member. */
  notificationsDisabled: string[];
  listUnsubscribe: string | null;
}

/**
 * A stored mail as its sending job needs it (the reply-to is the site's support address; the member's
 * notifications_disabled says whether a mail that is not essential may still go).
 */
export async function findMailToSend(db: Executor, id: number): Promise<MailToSend | null> {
  const [row] = await db
    .select({
      id: outboxEmails.id,
      kind: outboxEmails.kind,
      status: outboxEmails.status,
      fromAddress: outboxEmails.fromAddress,
      toAddress: outboxEmails.toAddress,
      subject: outboxEmails.subject,
      html: outboxEmails.html,
      text: outboxEmails.text,
      replyTo: sites.supportEmail,
      siteDomain: sites.domain,
      notificationsDisabled: users.notificationsDisabled,
      listUnsubscribe: outboxEmails.listUnsubscribe,
    })
    .from(outboxEmails)
    .leftJoin(sites, eq(outboxEmails.siteId, sites.id))
    .leftJoin(users, eq(outboxEmails.userId, users.id))
    .where(eq(outboxEmails.id, id));
  return row ? { ...row, notificationsDisabled: row.notificationsDisabled ?? [] } : null;
}

/** The member's notifications_disabled (spec §3): empty while their mail goes. */
export async function findNotificationsDisabled(db: Executor, userId: number): Promise<string[]> {
  const [row] = await db.select({ reasons: users.notificationsDisabled }).from(users).where(eq(users.id, userId));
  return row?.reasons ?? [];
}

/** Mails not sent yet that are not to be sent (a cancelled mailing's): kept as 'withdrawn'. Answers how many. */
export async function markWithdrawn(db: Executor, ids: readonly number[]): Promise<number> {
  if (ids.length === 0) return 0;
  const rows = await db
    .update(outboxEmails)
    .set({ status: 'withdrawn' })
    .where(and(inArray(outboxEmails.id, [...ids]), inArray(outboxEmails.status, ['pending', 'failed'])))
    .returning({ id: outboxEmails.id });
  return rows.length;
}

/** A mail that is not essential, to a member whose mail stopped: kept, never sent. */
export async function markSuppressed(db: Executor, id: number): Promise<void> {
  await db.update(outboxEmails).set({ status: 'suppressed', lastError: null }).where(eq(outboxEmails.id, id));
}

export interface OutboxListItem {
  id: number;
  kind: string;
  siteName: string | null;
  toAddress: string;
  subject: string;
  status: string;
  createdAt: Date;
}

export async function listOutbox(db: Executor, limit: number, to: string | null): Promise<OutboxListItem[]> {
  return db
    .select({
      id: outboxEmails.id,
      kind: outboxEmails.kind,
      siteName: sites.name,
      toAddress: outboxEmails.toAddress,
      subject: outboxEmails.subject,
      status: outboxEmails.status,
      createdAt: outboxEmails.createdAt,
    })
    .from(outboxEmails)
    .leftJoin(sites, eq(outboxEmails.siteId, sites.id))
    .where(to ? eq(sql`lower(${outboxEmails.toAddress})`, to.toLowerCase()) : undefined)
    .orderBy(desc(outboxEmails.createdAt), desc(outboxEmails.id))
    .limit(limit);
}

export async function findOutboxEmails(db: Executor, to: string | null, limit: number): Promise<OutboxRow[]> {
  return db
    .select()
    .from(outboxEmails)
    .where(to ? eq(sql`lower(${outboxEmails.toAddress})`, to.toLowerCase()) : undefined)
    .orderBy(desc(outboxEmails.createdAt), desc(outboxEmails.id))
    .limit(limit);
}

export async function findOutboxEmail(db: Executor, id: number): Promise<OutboxRow | null> {
  const [row] = await db.select().from(outboxEmails).where(eq(outboxEmails.id, id));
  return row ?? null;
}

/** The account purge: every mail stored for the member. */
export async function deleteOutboxOf(db: Executor, userId: number): Promise<void> {
  await db.delete(outboxEmails).where(eq(outboxEmails.userId, userId));
}

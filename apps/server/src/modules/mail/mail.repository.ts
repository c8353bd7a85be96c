import { type Executor, outboxEmails, sites } from '@amora/db';
import { and, asc, desc, eq, isNull, lt, or, type SQL, sql } from 'drizzle-orm';

export type OutboxRow = typeof outboxEmails.$inferSelect;
export type NewOutboxRow = typeof outboxEmails.$inferInsert;

/** A mail no process is sending any more after this long was left by one that stopped mid-send. */
export const STALE_ATTEMPT = sql`interval '10 minutes'`;

/**
 * Rows a retry may take: failed ones, and pending ones whose attempt went stale, with tries left.
 * While a row is 'pending', `sent_at` is when the attempt under way started (a lease); it keeps its meaning,
 * the time the mail was handed to SMTP, once the row is 'sent', and is null again after a failure.
 */
function retryable(maxAttempts: number): SQL {
  return and(
    lt(outboxEmails.attempts, maxAttempts),
    or(
      eq(outboxEmails.status, 'failed'),
      and(eq(outboxEmails.status, 'pending'), or(isNull(outboxEmails.sentAt), lt(outboxEmails.sentAt, sql`now() - ${STALE_ATTEMPT}`))),
    ),
  ) as SQL;
}

/** Stores a mail; `leased` when this process sends it right away (see `retryable`). */
export async function insertOutbox(db: Executor, row: Omit<NewOutboxRow, 'sentAt'>, leased: boolean): Promise<number> {
  const [inserted] = await db
    .insert(outboxEmails)
    .values({ ...row, sentAt: leased ? sql`now()` : null })
    .returning({ id: outboxEmails.id });
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

export interface RetryCandidate {
  id: number;
  fromAddress: string;
  toAddress: string;
  subject: string;
  html: string;
  text: string;
  replyTo: string | null;
}

export async function findRetryCandidates(db: Executor, maxAttempts: number, limit: number): Promise<RetryCandidate[]> {
  return db
    .select({
      id: outboxEmails.id,
      fromAddress: outboxEmails.fromAddress,
      toAddress: outboxEmails.toAddress,
      subject: outboxEmails.subject,
      html: outboxEmails.html,
      text: outboxEmails.text,
      replyTo: sites.supportEmail,
    })
    .from(outboxEmails)
    .leftJoin(sites, eq(outboxEmails.siteId, sites.id))
    .where(retryable(maxAttempts))
    .orderBy(asc(outboxEmails.createdAt), asc(outboxEmails.id))
    .limit(limit);
}

/**
 * Takes one row for an attempt, if it is still retryable: the conditional update lets exactly one process win
 * when several retry at once (PostgreSQL re-checks the condition on the row it waited for).
 */
export async function claimForAttempt(db: Executor, id: number, maxAttempts: number): Promise<boolean> {
  const rows = await db
    .update(outboxEmails)
    .set({ status: 'pending', sentAt: sql`now()` })
    .where(and(eq(outboxEmails.id, id), retryable(maxAttempts)))
    .returning({ id: outboxEmails.id });
  return rows.length === 1;
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

import { type Executor, outboxSms, sites } from '@amora/db';
import { and, desc, eq, lt, ne, sql } from 'drizzle-orm';

export type SmsRow = typeof outboxSms.$inferSelect;
export type NewSmsRow = typeof outboxSms.$inferInsert;

/** Stores an SMS (its sending job is written in the same transaction, see sms.service). */
export async function insertSms(db: Executor, row: NewSmsRow): Promise<number> {
  const [inserted] = await db.insert(outboxSms).values(row).returning({ id: outboxSms.id });
  return inserted.id;
}

export async function findSms(db: Executor, id: number): Promise<SmsRow | null> {
  const [row] = await db.select().from(outboxSms).where(eq(outboxSms.id, id));
  return row ?? null;
}

export async function markSmsSent(db: Executor, id: number): Promise<void> {
  await db
    .update(outboxSms)
    .set({ status: 'sent', sentAt: sql`now()`, lastError: null, attempts: sql`${outboxSms.attempts} + 1` })
    .where(eq(outboxSms.id, id));
}

export async function markSmsFailed(db: Executor, id: number, error: string, final = false): Promise<void> {
  await db
    .update(outboxSms)
    .set({ status: final ? 'dropped' : 'failed', attempts: sql`${outboxSms.attempts} + 1`, lastError: error.slice(0, 500) })
    .where(eq(outboxSms.id, id));
}

export interface SmsListItem extends SmsRow {
  siteName: string | null;
}

/** The newest SMS (to one number, when given), for the dev SMS page. */
export async function listSms(db: Executor, to: string | null, limit: number): Promise<SmsListItem[]> {
  const rows = await db
    .select({ sms: outboxSms, siteName: sites.name })
    .from(outboxSms)
    .leftJoin(sites, eq(outboxSms.siteId, sites.id))
    .where(to ? eq(outboxSms.toNumber, to) : undefined)
    .orderBy(desc(outboxSms.createdAt), desc(outboxSms.id))
    .limit(limit);
  return rows.map((r) => ({ ...r.sms, siteName: r.siteName }));
}

/** The account purge: every SMS sent to the member. */
export async function deleteSmsOf(db: Executor, userId: number): Promise<void> {
  await db.delete(outboxSms).where(eq(outboxSms.userId, userId));
}

/** SMS of `kind` written before `before` lose their text (a one-time code has no use once it expired). */
export async function forgetSmsTexts(db: Executor, kind: string, before: Date): Promise<number> {
  const rows = await db
    .update(outboxSms)
    .set({ text: '' })
    .where(and(eq(outboxSms.kind, kind), lt(outboxSms.createdAt, before), ne(outboxSms.text, '')))
    .returning({ id: outboxSms.id });
  return rows.length;
}

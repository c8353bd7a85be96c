import { directDebitMandates, type Executor, profiles, sites, smsVerifications, users } from '@amora/db';
import { and, desc, eq, gt, isNull, lt, sql } from 'drizzle-orm';

export type MandateRow = typeof directDebitMandates.$inferSelect;
export type NewMandateRow = typeof directDebitMandates.$inferInsert;

/** The member's newest valid mandate (of one provider, when given). */
export async function findValidMandate(db: Executor, userId: number, provider?: string): Promise<MandateRow | null> {
  const [row] = await db
    .select()
    .from(directDebitMandates)
    .where(
      and(
        eq(directDebitMandates.userId, userId),
        eq(directDebitMandates.status, 'valid'),
        provider ? eq(directDebitMandates.provider, provider) : undefined,
      ),
    )
    .orderBy(desc(directDebitMandates.id))
    .limit(1);
  return row ?? null;
}

/** A new mandate replaces the member's earlier ones (kept as 'replaced' for the payments made with them). */
export async function insertMandate(db: Executor, row: NewMandateRow): Promise<MandateRow> {
  await db
    .update(directDebitMandates)
    .set({ status: 'replaced' })
    .where(and(eq(directDebitMandates.userId, row.userId), eq(directDebitMandates.status, 'valid')));
  const [inserted] = await db.insert(directDebitMandates).values(row).returning();
  return inserted;
}

export type VerificationRow = typeof smsVerifications.$inferSelect;

/** The purpose of the direct-debit form's codes in sms_verifications. */
const PURPOSE = 'directdebit';

/** A new code for the member's form; their earlier open ones stop working (one live code at a time). */
export async function insertVerification(
  db: Executor,
  row: { userId: number; phone: string; codeHash: string; payload: Record<string, unknown>; expiresAt: Date },
): Promise<VerificationRow> {
  await db
    .delete(smsVerifications)
    .where(and(eq(smsVerifications.userId, row.userId), eq(smsVerifications.purpose, PURPOSE), isNull(smsVerifications.usedAt)));
  const [inserted] = await db
    .insert(smsVerifications)
    .values({ ...row, purpose: PURPOSE })
    .returning();
  return inserted;
}

/** The member's own verification (another member's id answers null). */
export async function findVerification(db: Executor, id: number, userId: number): Promise<VerificationRow | null> {
  const [row] = await db
    .select()
    .from(smsVerifications)
    .where(and(eq(smsVerifications.id, id), eq(smsVerifications.userId, userId), eq(smsVerifications.purpose, PURPOSE)));
  return row ?? null;
}

/** A new code for an open verification: the tries start again. Null when it is used or its form is gone. */
export async function renewVerification(
  db: Executor,
  id: number,
  userId: number,
  change: { codeHash: string; expiresAt: Date },
): Promise<VerificationRow | null> {
  const [row] = await db
    .update(smsVerifications)
    .set({ ...change, attempts: 0 })
    .where(
      and(
        eq(smsVerifications.id, id),
        eq(smsVerifications.userId, userId),
        eq(smsVerifications.purpose, PURPOSE),
        isNull(smsVerifications.usedAt),
        sql`${smsVerifications.payload} <> '{}'::jsonb`,
      ),
    )
    .returning();
  return row ?? null;
}

/**
 * Counts one try of a code, in one conditional statement: only while the verification is unused, unexpired and
 * has tries left. Of any number of tries at once at most `maxAttempts` ever get the row (and its hash) back.
 */
export async function takeAttempt(
  db: Executor,
  id: number,
  userId: number,
  now: Date,
  maxAttempts: number,
): Promise<VerificationRow | null> {
  const [row] = await db
    .update(smsVerifications)
    .set({ attempts: sql`${smsVerifications.attempts} + 1` })
    .where(
      and(
        eq(smsVerifications.id, id),
        eq(smsVerifications.userId, userId),
        eq(smsVerifications.purpose, PURPOSE),
        isNull(smsVerifications.usedAt),
        gt(smsVerifications.expiresAt, now),
        lt(smsVerifications.attempts, maxAttempts),
      ),
    )
    .returning();
  return row ?? null;
}

/** Uses the verification up, once: the form's data (the full IBAN) goes with it. False when it was used already. */
export async function useVerification(db: Executor, id: number, now: Date): Promise<boolean> {
  const rows = await db
    .update(smsVerifications)
    .set({ usedAt: now, payload: {} })
    .where(and(eq(smsVerifications.id, id), isNull(smsVerifications.usedAt)))
    .returning({ id: smsVerifications.id });
  return rows.length > 0;
}

/** A verification out of tries keeps no form data. */
export async function forgetPayload(db: Executor, id: number): Promise<void> {
  await db.update(smsVerifications).set({ payload: {} }).where(eq(smsVerifications.id, id));
}

/** Verifications past their time: their form data (IBAN, address, phone) is not kept. */
export async function deleteExpiredVerifications(db: Executor, before: Date): Promise<number> {
  const rows = await db
    .delete(smsVerifications)
    .where(and(eq(smsVerifications.purpose, PURPOSE), lt(smsVerifications.expiresAt, before)))
    .returning({ id: smsVerifications.id });
  return rows.length;
}

/** The member's country (their profile's, else their site's) and what the SMS and the mandate need. */
export async function findMemberForDirectDebit(
  db: Executor,
  userId: number,
): Promise<{ blocked: boolean; siteId: number; language: string; email: string; country: string; siteName: string } | null> {
  const [row] = await db
    .select({
      blocked: users.directDebitBlocked,
      siteId: users.siteId,
      language: users.language,
      email: users.email,
      profileCountry: profiles.country,
      siteCountry: sites.defaultCountry,
      siteName: sites.name,
    })
    .from(users)
    .innerJoin(sites, eq(sites.id, users.siteId))
    .leftJoin(profiles, eq(profiles.userId, users.id))
    .where(eq(users.id, userId));
  if (!row) return null;
  return {
    blocked: row.blocked,
    siteId: row.siteId,
    language: row.language,
    email: row.email,
    country: (row.profileCountry || row.siteCountry).toUpperCase(),
    siteName: row.siteName,
  };
}

/** The account purge: the member's mandates (the provider keeps its own record) and open codes. */
export async function deleteDirectDebitDataOf(db: Executor, userId: number): Promise<void> {
  await db.delete(smsVerifications).where(eq(smsVerifications.userId, userId));
  await db.delete(directDebitMandates).where(eq(directDebitMandates.userId, userId));
}

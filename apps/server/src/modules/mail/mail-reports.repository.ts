import { type Executor, mailReports, outboxEmails, users } from '@amora/db';
import { and, eq, gte, isNotNull, sql } from 'drizzle-orm';

/** The member a stored mail went to, and whether it went to the address they have now. */
export interface ReportedMember {
  userId: number;
  siteId: number;
  /** The mail's address is the member's address today (a report about an old address stops nothing). */
  currentAddress: boolean;
}

/** The member of the stored mail `outboxId` (a VERP address names it), or null: a mail to no member, or purged. */
export async function findMemberOfMail(db: Executor, outboxId: number): Promise<ReportedMember | null> {
  const [row] = await db
    .select({
      userId: users.id,
      siteId: users.siteId,
      currentAddress: sql<boolean>`lower(${outboxEmails.toAddress}) = lower(${users.email})`,
    })
    .from(outboxEmails)
    .innerJoin(users, eq(outboxEmails.userId, users.id))
    .where(eq(outboxEmails.id, outboxId));
  return row ?? null;
}

/**
 * The members whose address today is `address` (lower-cased) and who were mailed at it, on one site or on any:
 * a report without our return path is believed only when this names exactly one.
 */
export async function findMembersMailedAt(db: Executor, address: string, siteId: number | null): Promise<ReportedMember[]> {
  const rows = await db
    .selectDistinct({ userId: users.id, siteId: users.siteId })
    .from(outboxEmails)
    .innerJoin(users, eq(outboxEmails.userId, users.id))
    .where(
      and(
        eq(sql`lower(${outboxEmails.toAddress})`, address),
        eq(sql`lower(${users.email})`, address),
        isNotNull(outboxEmails.userId),
        siteId === null ? undefined : eq(users.siteId, siteId),
      ),
    )
    .limit(2);
  return rows.map((row) => ({ ...row, currentAddress: true }));
}

/** Reports about one member are taken one at a time (the same report twice, the temporary ones counted). */
export async function lockMemberReports(tx: Executor, userId: number): Promise<void> {
  await tx.execute(sql`select pg_advisory_xact_lock(hashtextextended(${`mail-reports:${userId}`}, 0))`);
}

/** Whether a report whose detail starts with `prefix` (its report id) is stored for the member. */
export async function hasReport(db: Executor, userId: number, prefix: string): Promise<boolean> {
  const [row] = await db
    .select({ id: mailReports.id })
    .from(mailReports)
    .where(and(eq(mailReports.userId, userId), sql`starts_with(${mailReports.detail}, ${prefix})`))
    .limit(1);
  return row !== undefined;
}

export async function insertReport(db: Executor, row: typeof mailReports.$inferInsert): Promise<void> {
  await db.insert(mailReports).values(row);
}

/** The details of the member's temporary bounces since `since`. */
export async function temporaryBouncesSince(db: Executor, userId: number, since: Date): Promise<string[]> {
  const rows = await db
    .select({ detail: mailReports.detail })
    .from(mailReports)
    .where(
      and(
        eq(mailReports.userId, userId),
        eq(mailReports.kind, 'bounce'),
        eq(mailReports.status, 'temporary'),
        gte(mailReports.createdAt, since),
      ),
    );
  return rows.map((row) => row.detail);
}

import { auditLog, DEMO_STAFF, DEMO_STAFF_TOTP_SECRET, type Executor, staffRecoveryCodes, staffSessions, staffUsers } from '@amora/db';
import { and, count, desc, eq, gt, isNull, ne, type SQL, sql } from 'drizzle-orm';

export type StaffRow = typeof staffUsers.$inferSelect;
export type StaffSessionRow = typeof staffSessions.$inferSelect;

export async function insertStaff(db: Executor, row: typeof staffUsers.$inferInsert): Promise<StaffRow> {
  const [made] = await db.insert(staffUsers).values(row).returning();
  return made;
}

export async function findStaffByEmail(db: Executor, email: string): Promise<StaffRow | undefined> {
  const [row] = await db.select().from(staffUsers).where(sql`lower(${staffUsers.email}) = ${email.toLowerCase()}`);
  return row;
}

export async function findStaff(db: Executor, id: number): Promise<StaffRow | undefined> {
  const [row] = await db.select().from(staffUsers).where(eq(staffUsers.id, id));
  return row;
}

export function listStaff(db: Executor): Promise<StaffRow[]> {
  return db.select().from(staffUsers).orderBy(staffUsers.id);
}

export async function updateStaff(
  db: Executor,
  id: number,
  values: Partial<typeof staffUsers.$inferInsert>,
): Promise<StaffRow | undefined> {
  const [row] = await db.update(staffUsers).set(values).where(eq(staffUsers.id, id)).returning();
  return row;
}

/** Active admins other than `exceptId`. */
export async function countOtherActiveAdmins(db: Executor, exceptId: number): Promise<number> {
  const [row] = await db
    .select({ n: count() })
    .from(staffUsers)
    .where(and(eq(staffUsers.role, 'admin'), eq(staffUsers.isActive, true), ne(staffUsers.id, exceptId)));
  return Number(row?.n ?? 0);
}

/**
 * Accepts the TOTP time step `step` for the staff member when it is later than the last one accepted, in one
 * statement: a code is taken once, also when two requests bring it at the same moment.
 */
export async function acceptTotpStep(db: Executor, staffId: number, step: number): Promise<boolean> {
  const rows = await db
    .update(staffUsers)
    .set({ totpLastStep: step })
    .where(and(eq(staffUsers.id, staffId), sql`coalesce(${staffUsers.totpLastStep}, -1) < ${step}`))
    .returning({ id: staffUsers.id });
  return rows.length > 0;
}

export async function replaceRecoveryCodes(db: Executor, staffId: number, hashes: readonly string[]): Promise<void> {
  await db.delete(staffRecoveryCodes).where(eq(staffRecoveryCodes.staffId, staffId));
  if (hashes.length > 0) await db.insert(staffRecoveryCodes).values(hashes.map((codeHash) => ({ staffId, codeHash })));
}

/** Uses a recovery code: true once for each code (one statement). */
export async function useRecoveryCode(db: Executor, staffId: number, codeHash: string, at: Date): Promise<boolean> {
  const rows = await db
    .update(staffRecoveryCodes)
    .set({ usedAt: at })
    .where(and(eq(staffRecoveryCodes.staffId, staffId), eq(staffRecoveryCodes.codeHash, codeHash), isNull(staffRecoveryCodes.usedAt)))
    .returning({ staffId: staffRecoveryCodes.staffId });
  return rows.length > 0;
}

export async function insertSession(db: Executor, row: typeof staffSessions.$inferInsert): Promise<void> {
  await db.insert(staffSessions).values(row);
}

/** A session that is neither revoked nor expired, with its staff member. */
export async function findLiveSession(
  db: Executor,
  id: string,
  now: Date,
): Promise<{ session: StaffSessionRow; staff: StaffRow } | undefined> {
  const [row] = await db
    .select({ session: staffSessions, staff: staffUsers })
    .from(staffSessions)
    .innerJoin(staffUsers, eq(staffUsers.id, staffSessions.staffId))
    .where(and(eq(staffSessions.id, id), isNull(staffSessions.revokedAt), gt(staffSessions.expiresAt, now)));
  return row;
}

export async function updateSession(db: Executor, id: string, values: Partial<typeof staffSessions.$inferInsert>): Promise<void> {
  await db.update(staffSessions).set(values).where(eq(staffSessions.id, id));
}

export function listLiveSessions(db: Executor, staffId: number, now: Date): Promise<StaffSessionRow[]> {
  return db
    .select()
    .from(staffSessions)
    .where(and(eq(staffSessions.staffId, staffId), isNull(staffSessions.revokedAt), gt(staffSessions.expiresAt, now)))
    .orderBy(desc(staffSessions.lastSeenAt));
}

/** Revokes the staff member's sessions (those whose id starts with `idPrefix`, when given); answers how many. */
export async function revokeSessions(db: Executor, staffId: number, at: Date, idPrefix?: string): Promise<number> {
  const rows = await db
    .update(staffSessions)
    .set({ revokedAt: at })
    .where(
      and(
        eq(staffSessions.staffId, staffId),
        isNull(staffSessions.revokedAt),
        idPrefix ? sql`${staffSessions.id} like ${`${idPrefix}%`}` : undefined,
      ),
    )
    .returning({ id: staffSessions.id });
  return rows.length;
}

export async function insertAudit(db: Executor, row: typeof auditLog.$inferInsert): Promise<void> {
  await db.insert(auditLog).values(row);
}

export async function auditPage(
  db: Executor,
  filter: { objectType?: string; objectId?: string; staffId?: number },
  page: number,
  perPage: number,
) {
  const where: SQL | undefined = and(
    filter.objectType ? eq(auditLog.objectType, filter.objectType) : undefined,
    filter.objectId ? eq(auditLog.objectId, filter.objectId) : undefined,
    filter.staffId ? eq(auditLog.staffId, filter.staffId) : undefined,
  );
  const [total] = await db.select({ n: count() }).from(auditLog).where(where);
  const rows = await db
    .select({ entry: auditLog, staffName: staffUsers.name, staffEmail: staffUsers.email })
    .from(auditLog)
    .leftJoin(staffUsers, eq(staffUsers.id, auditLog.staffId))
    .where(where)
    .orderBy(desc(auditLog.id))
    .limit(perPage)
    .offset((page - 1) * perPage);
  return { rows, total: Number(total?.n ?? 0) };
}

/** The demo data's staff (development): their addresses and their one authenticator secret. */
export const demoStaff = { emails: DEMO_STAFF.map((staff) => staff.email), secret: DEMO_STAFF_TOTP_SECRET };

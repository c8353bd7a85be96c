import { complaints, type Executor, profiles } from '@amora/db';
import { and, asc, count, desc, eq, isNull, lt, ne } from 'drizzle-orm';

export type NewComplaint = typeof complaints.$inferInsert;

export async function insertComplaint(db: Executor, complaint: NewComplaint): Promise<string> {
  const [row] = await db.insert(complaints).values(complaint).returning({ reference: complaints.reference });
  return row.reference;
}

export type ComplaintRow = typeof complaints.$inferSelect;

/** Which complaints the moderation queue lists. */
export interface ComplaintFilter {
  siteId?: number;
  kind?: ComplaintRow['kind'];
  handled: boolean;
  createdBefore?: Date;
}

function whereOf(filter: ComplaintFilter) {
  return and(
    filter.handled ? eq(complaints.status, 'handled') : ne(complaints.status, 'handled'),
    filter.siteId === undefined ? undefined : eq(complaints.siteId, filter.siteId),
    filter.kind === undefined ? undefined : eq(complaints.kind, filter.kind),
    filter.createdBefore === undefined ? undefined : lt(complaints.createdAt, filter.createdBefore),
  );
}

/** Oldest first (open) or newest handled first, with the reported profile's name. */
export async function listComplaints(db: Executor, filter: ComplaintFilter, limit: number) {
  return db
    .select({ complaint: complaints, reported: { name: profiles.name, userId: profiles.userId, isFictional: profiles.isFictional } })
    .from(complaints)
    .leftJoin(profiles, eq(profiles.id, complaints.reportedProfileId))
    .where(whereOf(filter))
    .orderBy(filter.handled ? desc(complaints.handledAt) : asc(complaints.createdAt), asc(complaints.id))
    .limit(limit);
}

export async function countComplaints(db: Executor, filter: ComplaintFilter): Promise<number> {
  const [row] = await db.select({ value: count() }).from(complaints).where(whereOf(filter));
  return Number(row?.value ?? 0);
}

export async function findComplaintRow(db: Executor, id: number): Promise<ComplaintRow | undefined> {
  const [row] = await db.select().from(complaints).where(eq(complaints.id, id));
  return row;
}

export async function setHandled(
  db: Executor,
  id: number,
  values: { resolution: string; handledBy: number; handledAt: Date },
): Promise<ComplaintRow | undefined> {
  const [row] = await db
    .update(complaints)
    .set({ status: 'handled', ...values })
    .where(eq(complaints.id, id))
    .returning();
  return row;
}

export async function countAbout(db: Executor, profileId: number): Promise<number> {
  const [row] = await db.select({ value: count() }).from(complaints).where(eq(complaints.reportedProfileId, profileId));
  return Number(row?.value ?? 0);
}

/** The member's complaints and reports handled that they have not been told of yet. */
export async function listHandledUnseen(db: Executor, userId: number) {
  return db
    .select({ reference: complaints.reference, handledAt: complaints.handledAt })
    .from(complaints)
    .where(and(eq(complaints.userId, userId), eq(complaints.status, 'handled'), isNull(complaints.reporterNotifiedAt)))
    .orderBy(desc(complaints.handledAt))
    .limit(20);
}

export async function setReporterNotified(db: Executor, userId: number, at: Date): Promise<void> {
  await db
    .update(complaints)
    .set({ reporterNotifiedAt: at })
    .where(and(eq(complaints.userId, userId), eq(complaints.status, 'handled'), isNull(complaints.reporterNotifiedAt)));
}

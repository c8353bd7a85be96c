import { complaints, type Executor } from '@amora/db';

export type NewComplaint = typeof complaints.$inferInsert;

export async function insertComplaint(db: Executor, complaint: NewComplaint): Promise<string> {
  const [row] = await db.insert(complaints).values(complaint).returning({ reference: complaints.reference });
  return row.reference;
}

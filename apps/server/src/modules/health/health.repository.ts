import type { Executor } from '@amora/db';
import { sql } from 'drizzle-orm';

/** One round trip to the database: throws when it cannot be reached. */
export async function pingDatabase(db: Executor): Promise<void> {
  await db.execute(sql`select 1`);
}

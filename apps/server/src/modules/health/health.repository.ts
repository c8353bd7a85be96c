import { type Executor, type PoolUse, pendingMigrations, poolUse } from '@amora/db';
import { sql } from 'drizzle-orm';

/** One round trip to the database: throws when it cannot be reached. */
export async function pingDatabase(db: Executor): Promise<void> {
  await db.execute(sql`select 1`);
}

/** How many of this build's migrations the database lacks (0: applied, or the database is newer). */
export function countPendingMigrations(db: Executor): Promise<number> {
  return pendingMigrations(db);
}

/** The PostgreSQL pools' use now (none on PGlite). */
export function databasePoolUse(db: Executor): PoolUse[] {
  return poolUse(db);
}

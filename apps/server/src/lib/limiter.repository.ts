import { type Executor, rateLimits } from '@amora/db';
import { sql } from 'drizzle-orm';

/** A window of the database limiter (lib/limiter.ts): how many it has counted, and when it ends. */
export type LimitRow = { count: number; reset_at: string | Date };

/** Counts one more in the key's window, or starts a new window of one when it has ended. */
export async function countInWindow(db: Executor, key: string, at: Date, resetAt: Date): Promise<LimitRow> {
  const rows = (await db.execute(sql`
    insert into ${rateLimits} (key, count, reset_at) values (${key}, 1, ${resetAt.toISOString()})
    on conflict (key) do update set
      count = case when ${rateLimits.resetAt} <= ${at.toISOString()} then 1 else ${rateLimits.count} + 1 end,
      reset_at = case when ${rateLimits.resetAt} <= ${at.toISOString()} then excluded.reset_at else ${rateLimits.resetAt} end
    returning count, reset_at`)) as unknown as { rows: LimitRow[] };
  return rows.rows[0];
}

/**
 * Counts one more only while the window has fewer than `max` (or has ended): the window after it, or undefined
 * when every place is taken. The update's condition is checked on the row as it is once any other writer of it
 * has committed (PostgreSQL re-reads a row it waited for), so the count and the check are one step.
 */
export async function takeInWindow(db: Executor, key: string, at: Date, resetAt: Date, max: number): Promise<LimitRow | undefined> {
  const taken = (await db.execute(sql`
    insert into ${rateLimits} (key, count, reset_at) values (${key}, 1, ${resetAt.toISOString()})
    on conflict (key) do update set
      count = case when ${rateLimits.resetAt} <= ${at.toISOString()} then 1 else ${rateLimits.count} + 1 end,
      reset_at = case when ${rateLimits.resetAt} <= ${at.toISOString()} then excluded.reset_at else ${rateLimits.resetAt} end
    where ${rateLimits.resetAt} <= ${at.toISOString()} or ${rateLimits.count} < ${max}
    returning count, reset_at`)) as unknown as { rows: LimitRow[] };
  return taken.rows[0];
}

export async function findWindow(db: Executor, key: string): Promise<LimitRow | undefined> {
  const rows = (await db.execute(sql`select count, reset_at from ${rateLimits} where key = ${key}`)) as unknown as { rows: LimitRow[] };
  return rows.rows[0];
}

/** Gives one place back to a window that has not ended. */
export async function releaseInWindow(db: Executor, key: string, at: Date): Promise<void> {
  await db.execute(sql`update ${rateLimits} set count = count - 1 where key = ${key} and count > 0 and reset_at > ${at.toISOString()}`);
}

export async function deleteWindow(db: Executor, key: string): Promise<void> {
  await db.execute(sql`delete from ${rateLimits} where key = ${key}`);
}

/** The windows not yet ended whose key starts with `prefix`. */
export async function findWindowsStartingWith(db: Executor, prefix: string, at: Date): Promise<(LimitRow & { key: string })[]> {
  const rows = (await db.execute(
    sql`select key, count, reset_at from ${rateLimits} where left(key, ${prefix.length}) = ${prefix} and reset_at > ${at.toISOString()}`,
  )) as unknown as { rows: (LimitRow & { key: string })[] };
  return rows.rows;
}

export async function deleteWindowsStartingWith(db: Executor, prefix: string): Promise<void> {
  await db.execute(sql`delete from ${rateLimits} where left(key, ${prefix.length}) = ${prefix}`);
}

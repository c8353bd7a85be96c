import { type Database, rateLimits } from '@amora/db';
import { sql } from 'drizzle-orm';
import type { Redis } from 'ioredis';

export interface LimitResult {
  allowed: boolean;
  count: number;
  retryAfterSeconds: number;
}

/** Fixed-window counters shared by every server process: in Redis when configured, else in the database. */
export interface Limiter {
  hit(key: string, windowMs: number, max: number): Promise<LimitResult>;
  peek(key: string, max: number): Promise<LimitResult>;
  reset(key: string): Promise<void>;
}

type LimitRow = { count: number; reset_at: string | Date };

export function createDbLimiter(db: Database, now: () => Date = () => new Date()): Limiter {
  return {
    async hit(key, windowMs, max) {
      const at = now();
      const resetAt = new Date(at.getTime() + windowMs);
      const rows = (await db.execute(sql`
        insert into ${rateLimits} (key, count, reset_at) values (${key}, 1, ${resetAt.toISOString()})
        on conflict (key) do update set
          count = case when ${rateLimits.resetAt} <= ${at.toISOString()} then 1 else ${rateLimits.count} + 1 end,
          reset_at = case when ${rateLimits.resetAt} <= ${at.toISOString()} then excluded.reset_at else ${rateLimits.resetAt} end
        returning count, reset_at`)) as unknown as { rows: LimitRow[] };
      const row = rows.rows[0];
      const count = Number(row.count);
      const retryAfterSeconds = Math.max(1, Math.ceil((new Date(row.reset_at).getTime() - at.getTime()) / 1000));
      return { allowed: count <= max, count, retryAfterSeconds };
    },
    async peek(key, max) {
      const at = now();
      const rows = (await db.execute(
        sql`select count, reset_at from ${rateLimits} where key = ${key} and reset_at > ${at.toISOString()}`,
      )) as unknown as { rows: LimitRow[] };
      const row = rows.rows[0];
      if (!row) return { allowed: true, count: 0, retryAfterSeconds: 0 };
      const count = Number(row.count);
      const retryAfterSeconds = Math.max(1, Math.ceil((new Date(row.reset_at).getTime() - at.getTime()) / 1000));
      return { allowed: count < max, count, retryAfterSeconds };
    },
    async reset(key) {
      await db.execute(sql`delete from ${rateLimits} where key = ${key}`);
    },
  };
}

export function createRedisLimiter(redis: Redis, prefix = 'amora:limit:'): Limiter {
  return {
    async hit(key, windowMs, max) {
      const k = prefix + key;
      const [[, count], [, ttl]] = (await redis.multi().incr(k).pttl(k).exec()) as [[null, number], [null, number]];
      let ttlMs = ttl;
      if (ttl < 0) {
        await redis.pexpire(k, windowMs);
        ttlMs = windowMs;
      }
      return { allowed: count <= max, count, retryAfterSeconds: Math.max(1, Math.ceil(ttlMs / 1000)) };
    },
    async peek(key, max) {
      const k = prefix + key;
      const [[, value], [, ttl]] = (await redis.multi().get(k).pttl(k).exec()) as [[null, string | null], [null, number]];
      const count = Number(value ?? 0);
      return { allowed: count < max, count, retryAfterSeconds: ttl > 0 ? Math.ceil(ttl / 1000) : 0 };
    },
    async reset(key) {
      await redis.del(prefix + key);
    },
  };
}

import { type Database, rateLimits } from '@amora/db';
import { sql } from 'drizzle-orm';
import type { Redis } from 'ioredis';

export interface LimitResult {
  allowed: boolean;
  count: number;
  retryAfterSeconds: number;
}

/**
 * Fixed-window counters shared by every server process: in Redis when configured, else in the database.
 * Each call is one atomic step in the store, so limits hold whatever number of requests arrive at once.
 */
export interface Limiter {
  /** Counts one more in the key's window, allowed or not (a request over the limit keeps counting). */
  hit(key: string, windowMs: number, max: number): Promise<LimitResult>;
  /**
   * Takes one of the window's `max` places, or none when they are all taken: the count never goes past `max`,
   * and the check and the count are one step, so of many calls at once exactly the free places are allowed.
   */
  take(key: string, windowMs: number, max: number): Promise<LimitResult>;
  /** Gives back a place taken in the current window (a guess that turned out right). */
  release(key: string): Promise<void>;
  reset(key: string): Promise<void>;
}

type LimitRow = { count: number; reset_at: string | Date };

export function createDbLimiter(db: Database, now: () => Date = () => new Date()): Limiter {
  const resultOf = (row: LimitRow, at: Date, allowed: boolean): LimitResult => ({
    allowed,
    count: Number(row.count),
    retryAfterSeconds: Math.max(1, Math.ceil((new Date(row.reset_at).getTime() - at.getTime()) / 1000)),
  });
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
      return resultOf(row, at, Number(row.count) <= max);
    },
    async take(key, windowMs, max) {
      const at = now();
      const resetAt = new Date(at.getTime() + windowMs);
      // The update's condition is checked on the row as it is once any other writer of it has committed
      // (PostgreSQL re-reads a row it waited for), so the count and the check are one step.
      const taken = (await db.execute(sql`
        insert into ${rateLimits} (key, count, reset_at) values (${key}, 1, ${resetAt.toISOString()})
        on conflict (key) do update set
          count = case when ${rateLimits.resetAt} <= ${at.toISOString()} then 1 else ${rateLimits.count} + 1 end,
          reset_at = case when ${rateLimits.resetAt} <= ${at.toISOString()} then excluded.reset_at else ${rateLimits.resetAt} end
        where ${rateLimits.resetAt} <= ${at.toISOString()} or ${rateLimits.count} < ${max}
        returning count, reset_at`)) as unknown as { rows: LimitRow[] };
      if (taken.rows[0]) return resultOf(taken.rows[0], at, true);
      const full = (await db.execute(sql`select count, reset_at from ${rateLimits} where key = ${key}`)) as unknown as { rows: LimitRow[] };
      return resultOf(full.rows[0] ?? { count: max, reset_at: resetAt }, at, false);
    },
    async release(key) {
      await db.execute(
        sql`update ${rateLimits} set count = count - 1 where key = ${key} and count > 0 and reset_at > ${now().toISOString()}`,
      );
    },
    async reset(key) {
      await db.execute(sql`delete from ${rateLimits} where key = ${key}`);
    },
  };
}

/** INCR with the window set in the same step (a key never outlives its window, even if a process stops midway). */
const HIT_SCRIPT = `
local count = redis.call('INCR', KEYS[1])
local ttl = redis.call('PTTL', KEYS[1])
if ttl < 0 then
  redis.call('PEXPIRE', KEYS[1], ARGV[1])
  ttl = tonumber(ARGV[1])
end
return {count, ttl}`;

/** Takes a place only while fewer than ARGV[2] are taken; answers {taken (1/0), count, ttl}. */
const TAKE_SCRIPT = `
local count = tonumber(redis.call('GET', KEYS[1]) or '0')
local ttl = redis.call('PTTL', KEYS[1])
if count >= tonumber(ARGV[2]) and ttl > 0 then
  return {0, count, ttl}
end
if ttl <= 0 then count = 0 end
count = count + 1
redis.call('SET', KEYS[1], count, 'PX', ttl > 0 and ttl or tonumber(ARGV[1]))
return {1, count, ttl > 0 and ttl or tonumber(ARGV[1])}`;

/** Gives a place back while the window lasts. */
const RELEASE_SCRIPT = `
local count = tonumber(redis.call('GET', KEYS[1]) or '0')
if count > 0 and redis.call('PTTL', KEYS[1]) > 0 then
  redis.call('DECR', KEYS[1])
end
return 0`;

export function createRedisLimiter(redis: Redis, prefix = 'amora:limit:'): Limiter {
  const seconds = (ms: number) => Math.max(1, Math.ceil(ms / 1000));
  return {
    async hit(key, windowMs, max) {
      const [count, ttl] = (await redis.eval(HIT_SCRIPT, 1, prefix + key, windowMs)) as [number, number];
      return { allowed: count <= max, count, retryAfterSeconds: seconds(ttl) };
    },
    async take(key, windowMs, max) {
      const [taken, count, ttl] = (await redis.eval(TAKE_SCRIPT, 1, prefix + key, windowMs, max)) as [number, number, number];
      return { allowed: taken === 1, count, retryAfterSeconds: seconds(ttl) };
    },
    async release(key) {
      await redis.eval(RELEASE_SCRIPT, 1, prefix + key);
    },
    async reset(key) {
      await redis.del(prefix + key);
    },
  };
}

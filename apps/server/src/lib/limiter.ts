import type { Database } from '@amora/db';
import type { Redis } from 'ioredis';
import {
  countInWindow,
  deleteWindow,
  deleteWindowsStartingWith,
  findWindow,
  findWindowsStartingWith,
  type LimitRow,
  releaseInWindow,
  takeInWindow,
} from './limiter.repository';

interface LimitResult {
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
  /** The windows still open whose key starts with `prefix` (what support sees of a member's login throttles). */
  windows(prefix: string): Promise<{ key: string; count: number; retryAfterSeconds: number }[]>;
  /** Ends every window whose key starts with `prefix`. */
  resetAll(prefix: string): Promise<void>;
}

export function createDbLimiter(db: Database, now: () => Date = () => new Date()): Limiter {
  const resultOf = (row: LimitRow, at: Date, allowed: boolean): LimitResult => ({
    allowed,
    count: Number(row.count),
    retryAfterSeconds: Math.max(1, Math.ceil((new Date(row.reset_at).getTime() - at.getTime()) / 1000)),
  });
  return {
    async hit(key, windowMs, max) {
      const at = now();
      const row = await countInWindow(db, key, at, new Date(at.getTime() + windowMs));
      return resultOf(row, at, Number(row.count) <= max);
    },
    async take(key, windowMs, max) {
      const at = now();
      const resetAt = new Date(at.getTime() + windowMs);
      const taken = await takeInWindow(db, key, at, resetAt, max);
      if (taken) return resultOf(taken, at, true);
      return resultOf((await findWindow(db, key)) ?? { count: max, reset_at: resetAt }, at, false);
    },
    async release(key) {
      await releaseInWindow(db, key, now());
    },
    async reset(key) {
      await deleteWindow(db, key);
    },
    async windows(prefix) {
      const at = now();
      return (await findWindowsStartingWith(db, prefix, at)).map((row) => ({ key: row.key, ...resultOf(row, at, true) }));
    },
    async resetAll(prefix) {
      await deleteWindowsStartingWith(db, prefix);
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
    async windows(start) {
      const keys = await scanKeys(redis, prefix + start);
      const found = await Promise.all(
        keys.map(async (key) => {
          const [count, ttl] = await Promise.all([redis.get(key), redis.pttl(key)]);
          return { key: key.slice(prefix.length), count: Number(count ?? 0), retryAfterSeconds: seconds(ttl), live: ttl > 0 };
        }),
      );
      return found.filter((w) => w.live).map(({ key, count, retryAfterSeconds }) => ({ key, count, retryAfterSeconds }));
    },
    async resetAll(start) {
      const keys = await scanKeys(redis, prefix + start);
      if (keys.length > 0) await redis.del(...keys);
    },
  };
}

/** Every key that starts with `start` (SCAN with the glob's special characters escaped). */
async function scanKeys(redis: Redis, start: string): Promise<string[]> {
  const pattern = `${start.replace(/[*?[\]\\]/g, '\\$&')}*`;
  const keys: string[] = [];
  let cursor = '0';
  do {
    const [next, batch] = await redis.scan(cursor, 'MATCH', pattern, 'COUNT', 200);
    cursor = next;
    keys.push(...batch);
  } while (cursor !== '0');
  return keys;
}

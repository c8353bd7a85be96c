import type { Redis } from 'ioredis';

/** What a Redis connection's outages are written to (pino's shape). */
export interface RedisLog {
  warn(details: object, message: string): void;
  info(details: object, message: string): void;
}

/**
 * Writes a Redis connection's outages to the log: one line when it fails, one when it is back. ioredis emits an
 * `error` on every reconnection attempt (every 2 s at most while Redis is down) and, when nothing listens,
 * prints "[ioredis] Unhandled error event" for each; the connection keeps retrying either way.
 */
export function logRedisOutages(redis: Redis, log: RedisLog, name: string): void {
  let isDown = false;
  redis.on('error', (err: Error) => {
    if (isDown) return;
    isDown = true;
    log.warn({ err, connection: name }, `Redis: the ${name} connection failed; reconnecting`);
  });
  redis.on('ready', () => {
    if (!isDown) return;
    isDown = false;
    log.info({ connection: name }, `Redis: the ${name} connection is back`);
  });
}

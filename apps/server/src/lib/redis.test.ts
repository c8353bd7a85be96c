import { createServer, type Server } from 'node:net';
import { Redis } from 'ioredis';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { logRedisOutages } from './redis';

describe('logRedisOutages', () => {
  let redis: Redis | null = null;
  let server: Server | null = null;
  afterEach(() => {
    redis?.disconnect();
    server?.close();
  });

  it('writes one line for an outage, however many reconnection attempts fail, and nothing to the console', async () => {
    // A port nothing listens on: taken, then freed.
    server = createServer();
    await new Promise<void>((resolve) => server?.listen(0, '127.0.0.1', resolve));
    const { port } = server.address() as { port: number };
    await new Promise<void>((resolve) => server?.close(() => resolve()));
    server = null;

    const consoleError = vi.spyOn(console, 'error').mockImplementation(() => {});
    const log = { warn: vi.fn(), info: vi.fn() };
    let attempts = 0;
    try {
      redis = new Redis({ port, host: '127.0.0.1', retryStrategy: () => 10, maxRetriesPerRequest: 0 });
      redis.on('reconnecting', () => attempts++);
      logRedisOutages(redis, log, 'main');
      await vi.waitFor(() => expect(attempts).toBeGreaterThanOrEqual(3), { timeout: 5_000 });
      expect(log.warn).toHaveBeenCalledTimes(1);
      expect(log.warn.mock.calls[0]?.[1]).toBe('Redis: the main connection failed; reconnecting');
      expect(consoleError).not.toHaveBeenCalled();
    } finally {
      consoleError.mockRestore();
    }
  });
});

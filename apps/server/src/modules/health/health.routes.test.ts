import { mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { healthResponseSchema } from '@amora/contracts';
import { sql } from 'drizzle-orm';
import type { Redis } from 'ioredis';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { createTestApp, type TestApp } from '../../test/harness';
import { readiness } from './health.service';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(async () => {
  await t.close();
});

describe('GET /api/health.php', () => {
  it('answers 200 with status ok once the database answers', async () => {
    const res = await t.app.inject({ url: '/api/health.php' });
    expect(res.statusCode).toBe(200);
    const body = healthResponseSchema.parse(res.json());
    expect(body.status).toBe('ok');
    expect(body.database).toBe('ok');
    expect(body.uptime_seconds).toBeGreaterThanOrEqual(0);
    expect(res.headers['cache-control']).toBe('no-store');
  });

  it('answers on any site host', async () => {
    const res = await t.app.inject({ url: '/api/health.php', headers: { host: 'herzklopfen.localhost' } });
    expect(res.statusCode).toBe(200);
    expect(res.json().status).toBe('ok');
  });
});

describe('GET /health/live', () => {
  it('answers 200 while the process runs, on any host', async () => {
    const res = await t.app.inject({ url: '/health/live', headers: { host: '10.0.0.7' } });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({ status: 'live' });
    expect(res.headers['cache-control']).toBe('no-store');
  });
});

describe('GET /health/ready', () => {
  const redis = process.env.AMORA_TEST_DB === 'postgres' && process.env.TEST_REDIS_URL ? 'ok' : 'off';
  let dataDir: string;
  let ready: TestApp;
  beforeAll(async () => {
    dataDir = mkdtempSync(join(tmpdir(), 'amora-ready-'));
    ready = await createTestApp({ dataDir });
  });
  afterAll(async () => {
    await ready?.close();
    rmSync(dataDir, { recursive: true, force: true });
  });

  it('answers 200 when the database, its migrations, Redis (when configured) and the media storage answer', async () => {
    const res = await ready.app.inject({ url: '/health/ready', headers: { host: '10.0.0.7' } });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ status: 'ready', checks: { database: 'ok', migrations: 'ok', redis, storage: 'ok' } });
    expect(res.headers['cache-control']).toBe('no-store');
    // The storage probe leaves nothing behind.
    expect(readdirSync(join(dataDir, 'media'))).toEqual([]);
  });

  it('answers 503 while a migration of this build is missing from the database', async () => {
    const [last] = (
      (await ready.ctx.db.execute(
        sql`select id, hash, created_at from drizzle.__drizzle_migrations order by created_at desc limit 1`,
      )) as unknown as {
        rows: { id: number; hash: string; created_at: string }[];
      }
    ).rows;
    await ready.ctx.db.execute(sql`delete from drizzle.__drizzle_migrations where id = ${last.id}`);
    try {
      const res = await ready.app.inject({ url: '/health/ready' });
      expect(res.statusCode).toBe(503);
      expect(res.json()).toEqual({ status: 'not_ready', checks: { database: 'ok', migrations: 'pending', redis, storage: 'ok' } });
    } finally {
      await ready.ctx.db.execute(
        sql`insert into drizzle.__drizzle_migrations (id, hash, created_at) values (${last.id}, ${last.hash}, ${last.created_at})`,
      );
    }
    expect((await ready.app.inject({ url: '/health/ready' })).statusCode).toBe(200);
  });

  it('answers 503 when the media storage cannot be written', async () => {
    const file = join(dataDir, 'a-file');
    writeFileSync(file, 'not a folder');
    const broken = await createTestApp({ dataDir: file });
    try {
      const res = await broken.app.inject({ url: '/health/ready' });
      expect(res.statusCode).toBe(503);
      expect(res.json().checks).toEqual({ database: 'ok', migrations: 'ok', redis, storage: 'failed' });
    } finally {
      await broken.close();
    }
  });

  it('answers 503 when Redis is configured and does not answer', async () => {
    const down = { ...ready.ctx, redis: { status: 'reconnecting', ping: async () => 'PONG' } as unknown as Redis };
    const result = await readiness(down);
    expect(result.ready).toBe(false);
    expect(result.checks.redis).toBe('failed');
    expect(result.errors.redis).toBe('Redis connection is reconnecting');
  });

  it.skipIf(process.env.AMORA_TEST_DB === 'postgres')('answers 503 once the database is closed (PGlite)', async () => {
    const closing = await createTestApp({ dataDir });
    try {
      // Served once while its database answered (the site directory is loaded then, as in a running server).
      expect((await closing.app.inject({ url: '/health/ready' })).statusCode).toBe(200);
      await (closing.ctx.db as unknown as { $client: { close(): Promise<void> } }).$client.close();
      const res = await closing.app.inject({ url: '/health/ready' });
      expect(res.statusCode).toBe(503);
      expect(res.json().checks).toMatchObject({ database: 'failed', migrations: 'failed', storage: 'ok' });
      // Live only says the process runs.
      expect((await closing.app.inject({ url: '/health/live' })).statusCode).toBe(200);
    } finally {
      // Its database is closed already: closing it again fails, after everything else is closed.
      await closing.close().catch(() => {});
    }
  });

  it.skipIf(process.env.AMORA_TEST_DB !== 'postgres')('answers 503 while the database refuses connections (PostgreSQL)', async () => {
    // From the server's maintenance database: the app's own refuses new connections, and its open ones are ended.
    const admin = new pg.Client({ connectionString: process.env.TEST_DATABASE_URL });
    await admin.connect();
    try {
      const name = new URL(ready.shared.databaseUrl as string).pathname.slice(1);
      await admin.query(`alter database ${name} allow_connections false`);
      await admin.query('select pg_terminate_backend(pid) from pg_stat_activity where datname = $1', [name]);
      try {
        const res = await ready.app.inject({ url: '/health/ready' });
        expect(res.statusCode).toBe(503);
        expect(res.json().checks).toMatchObject({ database: 'failed', migrations: 'failed', storage: 'ok' });
      } finally {
        await admin.query(`alter database ${name} allow_connections true`);
      }
      await vi.waitFor(async () => expect((await ready.app.inject({ url: '/health/ready' })).statusCode).toBe(200), { timeout: 10_000 });
    } finally {
      await admin.end();
    }
  });
});

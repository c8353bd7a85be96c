import { randomBytes } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { type DbHandle, openDatabase } from '@amora/db';
import type { FastifyInstance, InjectOptions, LightMyRequestResponse } from 'fastify';
import { Redis } from 'ioredis';
import pg from 'pg';
import { pino } from 'pino';
import { inject } from 'vitest';
import { buildApp } from '../app';
import { type Config, loadConfig } from '../config';
import type { AppContext } from '../context';
import { JOBS } from '../job-specs';
import { createEventBus } from '../lib/events';
import { createJobs } from '../lib/jobs';
import { createDbLimiter, createRedisLimiter } from '../lib/limiter';
import { createMetrics } from '../lib/metrics';
import { refuseQueriesBesideOpenUnits } from '../lib/transaction';
import { createMailer } from '../modules/mail/mail.service';
import { createPaymentProvider } from '../modules/payments/provider';
import { SiteDirectory } from '../modules/sites/sites.service';
import { adminUrl } from './paths';

export interface TestApp {
  app: FastifyInstance;
  ctx: AppContext;
  /** Moves the app's clock; services read time only through ctx.now. */
  clock: { set(date: Date): void; advance(ms: number): void; now(): Date };
  close(): Promise<void>;
  /** What a second app joining this one shares with it (see TestAppOptions.joining). */
  shared: { databaseUrl: string | null; redisPrefix: string };
}

async function openTestDatabase(joining?: TestApp): Promise<{ handle: DbHandle; url: string | null; drop: () => Promise<void> }> {
  if (joining) {
    if (!joining.shared.databaseUrl) throw new Error('only an app on PostgreSQL can be joined');
    const handle = await openDatabase({ url: joining.shared.databaseUrl, poolSize: 4 });
    return { handle, url: joining.shared.databaseUrl, drop: async () => {} };
  }
  if (process.env.AMORA_TEST_DB === 'postgres') {
    const url = process.env.TEST_DATABASE_URL as string;
    const template = inject('templateDb');
    const name = `${template.replace('tpl', 't')}_${randomBytes(4).toString('hex')}`;
    const admin = new pg.Client({ connectionString: url });
    await admin.connect();
    await admin.query(`create database ${name} template ${template}`);
    await admin.end();
    const handle = await openDatabase({ url: adminUrl(url, name), poolSize: 4 });
    return {
      handle,
      url: adminUrl(url, name),
      drop: async () => {
        // pool.end() resolves before its sockets are closed; the forced drop below may terminate one, which the
        // pool would report as an unhandled 'error' event.
        handle.pool?.on('error', () => {});
        const cleanup = new pg.Client({ connectionString: url });
        await cleanup.connect();
        await cleanup.query(`drop database if exists ${name} with (force)`);
        await cleanup.end();
      },
    };
  }
  const dump = readFileSync(inject('pgliteTemplate'));
  const handle = await openDatabase({ dataDir: null, loadDataDir: new Blob([dump]) });
  return { handle, url: null, drop: async () => {} };
}

export interface TestAppOptions {
  /** Runs on the built app before `ready()`, e.g. to register a test-only route. */
  beforeReady?: (app: FastifyInstance) => void | Promise<void>;
  /**
   * Another server process beside `joining`: its own connections to the same PostgreSQL database and, with
   * TEST_REDIS_URL, to Redis (same keys, same event channel). Close it before the app it joins.
   */
  joining?: TestApp;
}

/** A full app on its own copy of the seeded database (and Redis when TEST_REDIS_URL is set on the postgres run). */
export async function createTestApp(overrides: Partial<Config> = {}, options: TestAppOptions = {}): Promise<TestApp> {
  const { handle, url, drop } = await openTestDatabase(options.joining);
  // A query on the database beside an open unit of work throws instead of waiting forever (PGlite).
  if (handle.kind === 'pglite') refuseQueriesBesideOpenUnits(handle.db);
  const useRedis = process.env.AMORA_TEST_DB === 'postgres' && process.env.TEST_REDIS_URL;
  const redis = useRedis ? new Redis(process.env.TEST_REDIS_URL as string, { maxRetriesPerRequest: 2 }) : null;
  let current: Date | null = null;
  const clock = {
    set(date: Date) {
      current = date;
    },
    advance(ms: number) {
      current = new Date((current ?? new Date()).getTime() + ms);
    },
    now: () => current ?? new Date(),
  };
  const config: Config = { ...loadConfig({ NODE_ENV: 'test' }), webDist: '/nonexistent', ...overrides };
  const prefix = options.joining?.shared.redisPrefix ?? `amora:test:${randomBytes(4).toString('hex')}:`;
  const metrics = createMetrics();
  const events = createEventBus({ redis, channel: `${prefix}events`, log: pino({ level: 'silent' }), metrics });
  await events.ready();
  // No worker loop: a test runs due jobs itself with ctx.jobs.runDue(), on the test clock.
  const jobs = createJobs({ db: handle.db, specs: JOBS, now: clock.now, metrics });
  const ctx: AppContext = {
    config,
    db: handle.db,
    dbKind: handle.kind,
    redis,
    limiter: redis ? createRedisLimiter(redis, prefix) : createDbLimiter(handle.db, clock.now),
    mailer: createMailer({ smtpUrl: config.smtpUrl, db: handle.db, jobs, mail: config.mail, metrics }),
    jobs,
    events,
    sites: new SiteDirectory(handle.db),
    metrics,
    payments: createPaymentProvider(config),
    now: clock.now,
  };
  const app = await buildApp(ctx, { logger: false });
  await options.beforeReady?.(app);
  await app.ready();
  return {
    app,
    ctx,
    clock,
    shared: { databaseUrl: url, redisPrefix: prefix },
    async close() {
      await app.close();
      await ctx.mailer.close();
      await ctx.jobs.stop();
      await events.close();
      if (redis) {
        // The keys belong to the first app; one that joined it leaves them.
        const keys = options.joining ? [] : await redis.keys(`${prefix}*`);
        if (keys.length) await redis.del(...keys);
        redis.disconnect();
      }
      await handle.close();
      await drop();
    },
  };
}

export const CLIENT = { 'x-request-type': 'client' } as const;

export function request(app: FastifyInstance, options: InjectOptions): Promise<LightMyRequestResponse> {
  return app.inject(options) as Promise<LightMyRequestResponse>;
}

import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import {
  type DbHandle,
  dataDirExists,
  hasSites,
  migrateDatabase,
  openDatabase,
  pgliteTemplateDir,
  seedDemo,
  seedDemoStaff,
  seedPaymentCatalogue,
} from '@amora/db';
import { type Logger, pino } from 'pino';
import type { Config } from './config';
import type { AppContext } from './context';
import { JOBS } from './job-specs';
import { logBatchFailuresTo } from './lib/batches';
import { createEventBus, readyWithin } from './lib/events';
import { createJobs } from './lib/jobs';
import { createDbLimiter, createRedisLimiter } from './lib/limiter';
import { createMetrics } from './lib/metrics';
import { hashPassword } from './lib/passwords';
import { logRedisOutages } from './lib/redis';
import { logAfterCommitErrorsTo, refuseQueriesBesideOpenUnits } from './lib/transaction';
import { createMailer } from './modules/mail/mail.service';
import { createPaymentProvider } from './modules/payments/provider';
import { SiteDirectory } from './modules/sites/sites.service';
import { type ProgressOutput, progressLine } from './start-progress';

export interface Runtime {
  ctx: AppContext;
  seeded: boolean;
  close(): Promise<void>;
}

/** Set for the process that creates the demo data on a first start (see createDemoDataApart). */
const SEED_ONLY = 'AMORA_SEED_ONLY';

export function openDatabaseOf(config: Config): Promise<DbHandle> {
  return openDatabase({
    url: config.databaseUrl,
    dataDir: config.databaseUrl ? null : `${config.dataDir}/db`,
    // Made by `npm run build` beside the server build; without it (sources run by tsx) PGlite runs initdb itself.
    template: pgliteTemplateDir(fileURLToPath(new URL('../dist/', import.meta.url))),
  });
}

/**
 * The demo members' portraits go through the photo pipeline: a few thousand sharp (libvips) operations on
 * several threads. glibc keeps what those threads freed in per-thread arenas and hardly ever gives it back, so a
 * server that seeded itself stayed about 150 MB larger than the same server started again (PGlite: ~390 MB
 * against ~220-250 MB idle). The demo data is therefore created by a process of its own, which exits when done;
 * the server opens the database after it. That process runs this same entry point with AMORA_SEED_ONLY set.
 */
async function createDemoDataApart(): Promise<void> {
  const [entry] = process.argv.slice(1);
  if (!entry) throw new Error('cannot tell which script to run for the demo data');
  // `node --watch` (npm run dev) must not watch the seeding process: it would never exit.
  const nodeArgs = process.execArgv.filter((arg) => !arg.startsWith('--watch'));
  const child = spawn(process.execPath, [...nodeArgs, entry], { env: { ...process.env, [SEED_ONLY]: '1' }, stdio: 'inherit' });
  const code = await new Promise<number | null>((resolve, reject) => {
    child.once('error', reject);
    child.once('exit', (exitCode, signal) => resolve(signal ? null : exitCode));
  });
  if (code !== 0) throw new Error(`creating the demo data failed (exit code ${code})`);
}

/** Whether this process is the one that only creates the demo data (see createDemoDataApart). */
export function isSeedOnlyProcess(): boolean {
  return process.env[SEED_ONLY] === '1';
}

/**
 * The seed-only process's work: the database, its migrations and the demo data, then it closes the database. What
 * it prints is one progress line (start-progress.ts) that counts the portraits drawn, then what was made: no log
 * lines, so `npm start` shows only that before its address block. `members`: fewer demo members (tests).
 */
export async function createDemoData(config: Config, options: { output?: ProgressOutput; members?: number } = {}): Promise<void> {
  const progress = progressLine(options.output ?? process.stdout);
  const started = Date.now();
  const handle = await openDatabaseOf(config);
  try {
    await migrateDatabase(handle);
    if (!(await seedDemo(handle.db, hashPassword))) return;
    // Imported here, in the process that makes the demo data: the server never holds the seed texts or sharp.
    const [{ seedDemoProfiles }, { seedDemoChats }] = await Promise.all([import('./seed/demo-profiles'), import('./seed/demo-chats')]);
    const ctx = { db: handle.db, now: () => new Date(), config };
    const members = await seedDemoProfiles(ctx, options.members, (drawn, total) =>
      progress.show(`Creating the demo data (first start only): portrait ${drawn} of ${total}`, total ? (drawn / total) * 0.95 : 0),
    );
    progress.show('Creating the demo data (first start only): chats', 1);
    const chats = await seedDemoChats(ctx, new Date());
    progress.done(`Demo data created: ${members} members and ${chats} chats, in ${Math.round((Date.now() - started) / 1000)} s.`);
  } catch (error) {
    progress.stop();
    throw error;
  } finally {
    await handle.close();
  }
}

/**
 * Opens the database (PGlite in DATA_DIR, or PostgreSQL), applies migrations, seeds demo data, connects Redis.
 * `log`: the server's logger (default: pino on stdout at LOG_LEVEL); a start that goes well logs nothing here, so
 * the start lines come first.
 */
export async function bootstrap(config: Config, options: { log?: Logger } = {}): Promise<Runtime> {
  // A PGlite data directory without a database: nothing to open before the demo data is made.
  let seeded = config.seedDemo && !config.databaseUrl && !dataDirExists(`${config.dataDir}/db`);
  if (seeded) await createDemoDataApart();
  let handle = await openDatabaseOf(config);
  try {
    await migrateDatabase(handle);
    if (config.seedDemo && !seeded && !(await hasSites(handle.db))) {
      await handle.close();
      await createDemoDataApart();
      handle = await openDatabaseOf(config);
      seeded = true;
    }
    // A database made before payments existed gets the demo catalogue of packages and methods (once).
    if (config.seedDemo) await seedPaymentCatalogue(handle.db);
    // The demo console's staff, one per role (development; the start lines print their sign-in).
    if (config.seedDemo) await seedDemoStaff(handle.db, hashPassword);
    // Loaded only when used: ioredis and what it pulls in hold about 5 MB in a process that has no Redis.
    const redis = config.redisUrl
      ? new (await import('ioredis')).Redis(config.redisUrl, { maxRetriesPerRequest: 3, lazyConnect: false })
      : null;
    const log = options.log ?? pino({ level: config.logLevel });
    if (redis) logRedisOutages(redis, log, 'main');
    logAfterCommitErrorsTo(log);
    logBatchFailuresTo(log);
    const metrics = createMetrics();
    const jobs = createJobs({ db: handle.db, specs: JOBS, log, metrics });
    // Outside production the start lines say where mail goes (start-banner.ts): no log line before them.
    const mailer = createMailer({
      smtpUrl: config.smtpUrl,
      db: handle.db,
      jobs,
      log,
      warnWithoutSmtp: config.isProduction,
      mail: config.mail,
      metrics,
    });
    const events = createEventBus({ redis, channel: `${config.redisPrefix}events`, log, metrics });
    await readyWithin(events, 5_000, log);
    const ctx: AppContext = {
      config,
      db: handle.db,
      dbKind: handle.kind,
      redis,
      limiter: redis ? createRedisLimiter(redis, `${config.redisPrefix}limit:`) : createDbLimiter(handle.db),
      mailer,
      jobs,
      events,
      sites: new SiteDirectory(handle.db),
      metrics,
      payments: createPaymentProvider(config),
      now: () => new Date(),
    };
    // In development a query on the database beside an open unit of work throws instead of waiting forever (PGlite).
    if (!config.isProduction && handle.kind === 'pglite') refuseQueriesBesideOpenUnits(handle.db);
    // The worker starts once the app has registered every job's handler (main.ts, after buildApp).
    return {
      ctx,
      seeded,
      async close() {
        await mailer.close();
        await jobs.stop();
        await events.close();
        redis?.disconnect();
        await handle.close();
      },
    };
  } catch (error) {
    await handle.close();
    throw error;
  }
}

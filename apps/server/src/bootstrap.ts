import { migrateDatabase, openDatabase, seedDemo } from '@amora/db';
import { Redis } from 'ioredis';
import { pino } from 'pino';
import type { Config } from './config';
import type { AppContext } from './context';
import { createDbLimiter, createRedisLimiter } from './lib/limiter';
import { hashPassword } from './lib/passwords';
import { purgeDeletedAccounts } from './modules/accounts/accounts.service';
import { createMailer } from './modules/mail/mail.service';
import { SiteDirectory } from './modules/sites/sites.service';
import { seedDemoProfiles } from './seed/demo-profiles';

export interface Runtime {
  ctx: AppContext;
  seeded: boolean;
  close(): Promise<void>;
}

/** Opens the database (PGlite in DATA_DIR, or PostgreSQL), applies migrations, seeds demo data, connects Redis. */
export async function bootstrap(config: Config): Promise<Runtime> {
  const handle = await openDatabase({
    url: config.databaseUrl,
    dataDir: config.databaseUrl ? null : `${config.dataDir}/db`,
  });
  try {
    await migrateDatabase(handle);
    const seeded = config.seedDemo ? await seedDemo(handle.db, hashPassword) : false;
    const redis = config.redisUrl ? new Redis(config.redisUrl, { maxRetriesPerRequest: 3, lazyConnect: false }) : null;
    const log = pino({ level: config.logLevel });
    const mailer = createMailer({ smtpUrl: config.smtpUrl, db: handle.db, log });
    const mailRetry = setInterval(() => {
      mailer.retryPending().catch((err) => log.warn({ err }, 'email retry failed'));
    }, 60_000);
    mailRetry.unref();
    const ctx: AppContext = {
      config,
      db: handle.db,
      dbKind: handle.kind,
      redis,
      limiter: redis ? createRedisLimiter(redis) : createDbLimiter(handle.db),
      mailer,
      sites: new SiteDirectory(handle.db),
      now: () => new Date(),
    };
    if (seeded) {
      const started = Date.now();
      const count = await seedDemoProfiles(ctx);
      log.info({ count, ms: Date.now() - started }, 'demo members created');
    }
    // Accounts deleted more than 14 days ago are purged at start and every hour (idempotent on many nodes).
    const purge = () =>
      purgeDeletedAccounts(ctx).then(
        (count) => count > 0 && log.info({ count }, 'purged deleted accounts'),
        (err) => log.warn({ err }, 'account purge failed'),
      );
    void purge();
    const purgeTimer = setInterval(purge, 3_600_000);
    purgeTimer.unref();
    return {
      ctx,
      seeded,
      async close() {
        clearInterval(purgeTimer);
        clearInterval(mailRetry);
        await mailer.close();
        redis?.disconnect();
        await handle.close();
      },
    };
  } catch (error) {
    await handle.close();
    throw error;
  }
}

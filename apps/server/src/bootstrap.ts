import { migrateDatabase, openDatabase, seedDemo } from '@amora/db';
import { hash } from '@node-rs/argon2';
import { Redis } from 'ioredis';
import { pino } from 'pino';
import type { Config } from './config';
import type { AppContext } from './context';
import { createDbLimiter, createRedisLimiter } from './lib/limiter';
import { createMailer } from './modules/mail/mail.service';
import { SiteDirectory } from './modules/sites/sites.service';

/** argon2id at OWASP's minimum or above: 19 MiB, 2 iterations. */
export const hashPassword = (password: string) => hash(password, { algorithm: 2, memoryCost: 19_456, timeCost: 2, parallelism: 1 });

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
    return {
      ctx,
      seeded,
      async close() {
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

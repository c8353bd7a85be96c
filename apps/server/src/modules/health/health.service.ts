import type { PoolUse } from '@amora/db';
import type { AppContext } from '../../context';
import { dbOf } from '../../lib/transaction';
import { checkMediaStorage } from '../photos/photos.service';
import { countPendingMigrations, databasePoolUse, pingDatabase } from './health.repository';

/** How long one readiness check may take before it counts as failed: a load balancer must not wait on a hung one. */
const CHECK_TIMEOUT_MS = 2_000;

/** ok; failed (threw, or took over 2 s); pending (migrations not applied); off (Redis not configured). */
type CheckState = 'ok' | 'failed' | 'pending' | 'off';

export interface Readiness {
  ready: boolean;
  checks: { database: CheckState; migrations: CheckState; redis: CheckState; storage: CheckState };
  /** What went wrong, per failed check (for the log, never for the answer: it is public). */
  errors: Partial<Record<'database' | 'migrations' | 'redis' | 'storage', string>>;
}

function within<T>(work: Promise<T>, ms: number): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<never>((_resolve, reject) => {
    timer = setTimeout(() => reject(new Error(`no answer within ${ms} ms`)), ms);
  });
  return Promise.race([work, late]).finally(() => clearTimeout(timer));
}

function describe(error: unknown): string {
  return error instanceof Error ? error.message.slice(0, 300) : String(error).slice(0, 300);
}

/** Throws unless Redis answers a PING; a connection that is not up fails at once instead of queueing the command. */
async function pingRedis(ctx: Pick<AppContext, 'redis'>): Promise<void> {
  const { redis } = ctx;
  if (!redis) return;
  if (redis.status !== 'ready') throw new Error(`Redis connection is ${redis.status}`);
  await redis.ping();
}

/**
 * Whether this process can serve (GET /health/ready): the database answers, it has every migration of this build,
 * Redis answers when REDIS_URL is set, and the media storage takes a write. The checks run side by side, each
 * failing after 2 s.
 */
export async function readiness(ctx: AppContext): Promise<Readiness> {
  const errors: Readiness['errors'] = {};
  const run = async (name: keyof Readiness['errors'], work: () => Promise<CheckState>): Promise<CheckState> => {
    try {
      return await within(work(), CHECK_TIMEOUT_MS);
    } catch (error) {
      errors[name] = describe(error);
      return 'failed';
    }
  };
  const db = dbOf(ctx);
  const [database, migrations, redis, storage] = await Promise.all([
    run('database', async () => {
      await pingDatabase(db);
      return 'ok';
    }),
    run('migrations', async () => ((await countPendingMigrations(db)) === 0 ? 'ok' : 'pending')),
    run('redis', async () => {
      if (!ctx.redis) return 'off';
      await pingRedis(ctx);
      return 'ok';
    }),
    run('storage', async () => {
      await checkMediaStorage(ctx);
      return 'ok';
    }),
  ]);
  const checks = { database, migrations, redis, storage };
  const ready = Object.values(checks).every((state) => state === 'ok' || state === 'off');
  return { ready, checks, errors };
}

/** The database pools' use now, for the metrics (none on PGlite). */
export function databasePools(ctx: AppContext): PoolUse[] {
  return databasePoolUse(dbOf(ctx));
}

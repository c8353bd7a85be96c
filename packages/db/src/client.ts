import { closeSync, copyFileSync, cpSync, existsSync, mkdirSync, openSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { sql } from 'drizzle-orm';
import { drizzle as drizzlePg } from 'drizzle-orm/node-postgres';
import { migrate as migratePg } from 'drizzle-orm/node-postgres/migrator';
import type { PgDatabase, PgQueryResultHKT } from 'drizzle-orm/pg-core';
import pg from 'pg';
import * as schema from './schema';

export type Schema = typeof schema;
export type Database = PgDatabase<PgQueryResultHKT, Schema>;
/** An open transaction of a Database (what `db.transaction(fn)` hands to `fn`). */
export type Transaction = Parameters<Parameters<Database['transaction']>[0]>[0];
/**
 * What every repository function takes first: the database or a transaction of it. Services get one from
 * `withTransaction` or, for a statement of its own, `dbOf(ctx)` (apps/server/src/lib/transaction.ts).
 */
export type Executor = Database | Transaction;

export const migrationsFolder = resolve(dirname(fileURLToPath(import.meta.url)), '../migrations');

export interface DbHandle {
  db: Database;
  kind: 'pglite' | 'postgres';
  pool?: pg.Pool;
  close(): Promise<void>;
}

export class DataDirLockedError extends Error {
  constructor(dir: string, pid: number) {
    super(
      `The database in ${dir} is in use by another Amora process (pid ${pid}). ` +
        'Stop that process, or give this one its own DATA_DIR, or use PostgreSQL with DATABASE_URL to run several processes.',
    );
    this.name = 'DataDirLockedError';
  }
}

function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/**
 * PGlite does not lock its data directory, and two processes on one directory lose writes silently.
 * A pid file created with O_EXCL guards it; a file left by a process that is gone is taken over.
 */
export function lockDataDir(dir: string): () => void {
  mkdirSync(dir, { recursive: true });
  const lockPath = join(dir, 'amora.lock');
  for (let attempt = 0; attempt < 2; attempt++) {
    try {
      const fd = openSync(lockPath, 'wx');
      writeFileSync(fd, String(process.pid));
      closeSync(fd);
      return () => rmSync(lockPath, { force: true });
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
      const pid = Number.parseInt(readFileSync(lockPath, 'utf8'), 10);
      if (Number.isFinite(pid) && pid !== process.pid && isAlive(pid)) throw new DataDirLockedError(dir, pid);
      rmSync(lockPath, { force: true });
    }
  }
  throw new Error(`Could not lock ${dir}`);
}

/**
 * PGlite keeps PostgreSQL's shared buffers inside its WebAssembly memory and touches all of them at start, so
 * their size is resident memory from the first second. PostgreSQL's default of 128 MB made PGlite hold about
 * 260 MB idle; 16 MB (2,048 pages) holds the demo database's hot pages, and what does not fit is read back
 * from the data files through the operating system's cache. docs/decisions.md, "Memory", has the figures.
 */
export const PGLITE_SHARED_BUFFERS = '16MB';

/**
 * PGlite and Drizzle's PGlite driver, imported when a PGlite database is opened: a server on PostgreSQL never
 * loads them (the server build puts what is imported this way in a chunk of its own).
 */
async function loadPglite() {
  const [{ PGlite }, { drizzle }, { migrate }] = await Promise.all([
    import('@electric-sql/pglite'),
    import('drizzle-orm/pglite'),
    import('drizzle-orm/pglite/migrator'),
  ]);
  const startParams = [...PGlite.defaultStartParams, '-c', `shared_buffers=${PGLITE_SHARED_BUFFERS}`];
  return { PGlite, drizzle, migrate, startParams };
}

/** The installed PGlite's version: a data directory made by one version is only handed to the same one. */
function pgliteVersion(): string {
  const entry = createRequire(import.meta.url).resolve('@electric-sql/pglite');
  const manifest = join(dirname(entry), '..', 'package.json');
  return (JSON.parse(readFileSync(manifest, 'utf8')) as { version: string }).version;
}

/**
 * Where in `dir` the template of a new PGlite database is kept (see makePgliteTemplate): a folder named after
 * the PGlite version that made it.
 */
export function pgliteTemplateDir(dir: string): string {
  return join(dir, `pglite-${pgliteVersion()}-template`);
}

/**
 * A new PGlite database starts with initdb, which PGlite runs inside the calling process: a second PostgreSQL
 * in a WebAssembly memory of its own, initdb's, and a 128 MB copy of the second's memory, all resident at
 * once (about 520 MB more), then the result is handed over as an in-memory tar archive and left as garbage
 * until V8 next collects it. The server's first start therefore does not run it: `npm run build` calls this in
 * a short process of its own, which leaves a freshly made, cleanly shut down data directory in `dir`, and
 * openDatabase copies its files into an empty data directory instead (no archive, nothing in the heap).
 */
export async function makePgliteTemplate(dir: string): Promise<void> {
  const building = `${dir}.tmp`;
  rmSync(building, { recursive: true, force: true });
  const { PGlite, startParams } = await loadPglite();
  const client = await PGlite.create({ dataDir: building, startParams });
  await client.close();
  rmSync(dir, { recursive: true, force: true });
  renameSync(building, dir);
}

/**
 * Copies a template's files into an empty data directory, PG_VERSION last: that file marks a data directory
 * as holding a database, so a copy cut short is not taken for one and is simply made again.
 */
function copyTemplate(template: string, dataDir: string): void {
  cpSync(template, dataDir, { recursive: true, filter: (source) => source !== join(template, 'PG_VERSION') });
  copyFileSync(join(template, 'PG_VERSION'), join(dataDir, 'PG_VERSION'));
}

export interface OpenOptions {
  /** PostgreSQL connection string; when absent, PGlite in `dataDir` (or in memory when dataDir is null). */
  url?: string | null;
  dataDir?: string | null;
  /** A PGlite data dump to start from (tests share one migrated template). */
  loadDataDir?: Blob | File;
  /**
   * A folder made by makePgliteTemplate: a `dataDir` that holds no database yet gets a copy of it instead of
   * PGlite running initdb in this process. Left unused when the folder does not exist.
   */
  template?: string;
  poolSize?: number;
  /** Connections of the pool behind plannedDatabase (PostgreSQL only); as many as poolSize unless given. */
  plannedPoolSize?: number;
}

/** The database whose statements are planned once, per database opened on PostgreSQL (see plannedDatabase). */
const plannedDatabases = new WeakMap<object, Database>();
/** The connection pools behind each database opened on PostgreSQL (see poolUse). */
const poolsOf = new WeakMap<object, { main: pg.Pool; planned: pg.Pool; max: number; plannedMax: number }>();

/** One connection pool's use at this moment: its connections open, idle, and the queries waiting for one. */
export interface PoolUse {
  pool: 'main' | 'planned';
  max: number;
  total: number;
  idle: number;
  waiting: number;
}

/**
 * The use of the pools behind a database opened on PostgreSQL: the main one and plannedDatabase's. None on PGlite,
 * which is one connection inside this process (a query waits for the one before it; there is no pool to watch).
 */
export function poolUse(db: Executor): PoolUse[] {
  const pools = poolsOf.get(db);
  if (!pools) return [];
  const use = (pool: 'main' | 'planned', of: pg.Pool, max: number): PoolUse => ({
    pool,
    max,
    total: of.totalCount,
    idle: of.idleCount,
    waiting: of.waitingCount,
  });
  return [use('main', pools.main, pools.max), use('planned', pools.planned, pools.plannedMax)];
}

/** The journal times of this build's migrations, read once. */
let migrationTimes: number[] | null = null;

/**
 * How many of this build's migrations the database has not applied (0: it is up to date, or newer). Drizzle's
 * migrator records each applied one in `drizzle.__drizzle_migrations` with its journal time, and applies those
 * newer than the last recorded; so does this count.
 */
export async function pendingMigrations(db: Executor): Promise<number> {
  migrationTimes ??= (
    JSON.parse(readFileSync(join(migrationsFolder, 'meta/_journal.json'), 'utf8')) as { entries: { when: number }[] }
  ).entries.map((entry) => entry.when);
  const result = await db.execute(sql`select max(created_at) as last from drizzle.__drizzle_migrations`);
  const last = Number((result as unknown as { rows: { last: string | number | null }[] }).rows[0]?.last ?? 0);
  return migrationTimes.filter((when) => when > last).length;
}

/**
 * The same database on connections of their own, on which PostgreSQL plans a named prepared statement once, for
 * all its values (`plan_cache_mode = force_generic_plan`), instead of planning it again at each execution. Only
 * for statements whose best plan does not depend on their values and that are named (Drizzle's `.prepare(name)`):
 * the search pages, where planning cost twice what running them did (docs/decisions.md, "Logged-in search:
 * pages planned once"). On PGlite, or for a transaction, the database or transaction itself.
 */
export function plannedDatabase<T extends Executor>(db: T): T | Database {
  return plannedDatabases.get(db) ?? db;
}

const PLAN_ONCE = '-c plan_cache_mode=force_generic_plan';

/**
 * The connection of the planned pool: PLAN_ONCE as a startup option. An `options` parameter in the connection
 * string would replace one given beside it (pg reads the string last), so there it is added to that parameter.
 */
export function planOnce(url: string): pg.PoolConfig {
  const given = /([?&])options=([^&#]*)/.exec(url);
  if (!given) return { connectionString: url, options: PLAN_ONCE };
  return { connectionString: url.replace(given[0], `${given[1]}options=${given[2]}%20${encodeURIComponent(PLAN_ONCE)}`) };
}

export async function openDatabase(options: OpenOptions): Promise<DbHandle> {
  if (options.url) {
    const poolSize = options.poolSize ?? 10;
    const pool = new pg.Pool({ connectionString: options.url, max: poolSize });
    // An idle connection the server closes (restart, failover) must not take the process down; the next
    // query opens a fresh one.
    pool.on('error', (error) => console.error(`PostgreSQL connection lost: ${error.message}`));
    const db = drizzlePg(pool, { schema }) as unknown as Database;
    // Every statement on these connections gets a generic plan, an unnamed one too: see plannedDatabase.
    const plannedPool = new pg.Pool({ ...planOnce(options.url), max: options.plannedPoolSize ?? poolSize });
    plannedPool.on('error', (error) => console.error(`PostgreSQL connection lost: ${error.message}`));
    plannedDatabases.set(db, drizzlePg(plannedPool, { schema }) as unknown as Database);
    poolsOf.set(db, { main: pool, planned: plannedPool, max: poolSize, plannedMax: options.plannedPoolSize ?? poolSize });
    return { db, kind: 'postgres', pool, close: async () => void (await Promise.all([pool.end(), plannedPool.end()])) };
  }
  let unlock = () => {};
  if (options.dataDir) {
    unlock = lockDataDir(options.dataDir);
    const template = options.template;
    if (template && !dataDirExists(options.dataDir) && existsSync(join(template, 'PG_VERSION'))) {
      try {
        copyTemplate(template, options.dataDir);
      } catch (error) {
        unlock();
        throw error;
      }
    }
  }
  try {
    const { PGlite, drizzle, startParams } = await loadPglite();
    const client = await PGlite.create({
      dataDir: options.dataDir ?? undefined,
      loadDataDir: options.loadDataDir,
      startParams,
    });
    const db = drizzle(client, { schema }) as unknown as Database;
    return {
      db,
      kind: 'pglite',
      close: async () => {
        await client.close();
        unlock();
      },
    };
  } catch (error) {
    unlock();
    throw error;
  }
}

/** Applies the generated migrations; on PostgreSQL under an advisory lock so that two starting nodes take turns. */
export async function migrateDatabase(handle: DbHandle): Promise<void> {
  if (handle.kind === 'pglite') {
    const { migrate } = await loadPglite();
    await migrate(handle.db as never, { migrationsFolder });
    return;
  }
  const client = await (handle.pool as pg.Pool).connect();
  try {
    await client.query('select pg_advisory_lock(727274)');
    await migratePg(drizzlePg(client), { migrationsFolder });
  } finally {
    await client.query('select pg_advisory_unlock(727274)').catch(() => {});
    client.release();
  }
}

export function dataDirExists(dir: string): boolean {
  return existsSync(join(dir, 'PG_VERSION'));
}

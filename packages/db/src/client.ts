import { closeSync, existsSync, mkdirSync, openSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { PGlite } from '@electric-sql/pglite';
import { drizzle as drizzlePg } from 'drizzle-orm/node-postgres';
import { migrate as migratePg } from 'drizzle-orm/node-postgres/migrator';
import type { PgDatabase, PgQueryResultHKT } from 'drizzle-orm/pg-core';
import { drizzle as drizzlePglite } from 'drizzle-orm/pglite';
import { migrate as migratePglite } from 'drizzle-orm/pglite/migrator';
import pg from 'pg';
import * as schema from './schema';

export type Schema = typeof schema;
export type Database = PgDatabase<PgQueryResultHKT, Schema>;

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

export interface OpenOptions {
  /** PostgreSQL connection string; when absent, PGlite in `dataDir` (or in memory when dataDir is null). */
  url?: string | null;
  dataDir?: string | null;
  /** A PGlite data dump to start from (tests share one migrated template). */
  loadDataDir?: Blob | File;
  poolSize?: number;
}

export async function openDatabase(options: OpenOptions): Promise<DbHandle> {
  if (options.url) {
    const pool = new pg.Pool({ connectionString: options.url, max: options.poolSize ?? 10 });
    // An idle connection the server closes (restart, failover) must not take the process down; the next
    // query opens a fresh one.
    pool.on('error', (error) => console.error(`PostgreSQL connection lost: ${error.message}`));
    const db = drizzlePg(pool, { schema }) as unknown as Database;
    return { db, kind: 'postgres', pool, close: () => pool.end() };
  }
  let unlock = () => {};
  if (options.dataDir) {
    unlock = lockDataDir(options.dataDir);
  }
  try {
    const client = await PGlite.create({
      dataDir: options.dataDir ?? undefined,
      loadDataDir: options.loadDataDir,
    });
    const db = drizzlePglite(client, { schema }) as unknown as Database;
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
    await migratePglite(handle.db as never, { migrationsFolder });
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

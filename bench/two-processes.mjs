// What the benchmarks on PostgreSQL start from: a fresh database with the sites seeded (freshDatabase:
// bench/notices.mjs), and for two Amora processes sharing PostgreSQL and Redis a Redis prefix of the run's own and
// a data directory for each process (twoProcessSetup: bench/chat.mjs, bench/member-loop.mjs,
// bench/rolling-restart.mjs).
import { spawnSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';

/**
 * The sites and the demo's fixed rows in the database at `databaseUrl`, without the demo members (their portraits
 * take minutes): a benchmark writes its members through SQL (makeMembers in bench/chat.mjs).
 */
function seedSites(databaseUrl) {
  const seed = `import { migrateDatabase, openDatabase, seedDemo } from '@amora/db';
    const handle = await openDatabase({ url: process.env.DATABASE_URL, poolSize: 1 });
    await migrateDatabase(handle); await seedDemo(handle.db, async () => 'bench'); await handle.close();`;
  const seeded = spawnSync('npx', ['tsx', '--input-type=module', '-e', seed], {
    env: { ...process.env, DATABASE_URL: databaseUrl },
    stdio: 'inherit',
  });
  if (seeded.status !== 0) throw new Error('seeding the sites failed');
}

/**
 * Makes database `amora_bench_<name>` anew on the benchmark's PostgreSQL (BENCH_DATABASE_URL, else
 * TEST_DATABASE_URL, else the local server), with the sites seeded. `drop()` removes it.
 */
export async function freshDatabase(name) {
  const baseUrl = process.env.BENCH_DATABASE_URL ?? process.env.TEST_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';
  const database = `amora_bench_${name.replaceAll('-', '_')}`;
  const admin = new pg.Client({ connectionString: baseUrl });
  await admin.connect();
  const url = new URL(baseUrl);
  url.pathname = `/${database}`;
  await admin.query(`drop database if exists ${database} with (force)`);
  await admin.query(`create database ${database}`);
  seedSites(url.toString());
  return {
    database,
    databaseUrl: url.toString(),
    async drop() {
      await admin.query(`drop database if exists ${database} with (force)`).catch(() => {});
      await admin.end();
    },
  };
}

/**
 * A fresh database (freshDatabase) and two data directories. `env` is what both processes run with (the database,
 * Redis at BENCH_REDIS_URL or TEST_REDIS_URL under a prefix of this run's, no demo members) plus `extraEnv`.
 * `close()` drops the database and, unless `keep` is set, the directories.
 */
export async function twoProcessSetup(name, extraEnv = {}, { keep = false } = {}) {
  const redisUrl = process.env.BENCH_REDIS_URL ?? process.env.TEST_REDIS_URL ?? 'redis://127.0.0.1:6379';
  const fresh = await freshDatabase(name);
  const dirs = [mkdtempSync(join(tmpdir(), `amora-bench-${name}-a-`)), mkdtempSync(join(tmpdir(), `amora-bench-${name}-b-`))];
  const env = {
    DATABASE_URL: fresh.databaseUrl,
    REDIS_URL: redisUrl,
    REDIS_PREFIX: `amora:bench-${name}:${randomBytes(3).toString('hex')}:`,
    SEED_DEMO: 'false',
    ...extraEnv,
  };
  return {
    database: fresh.database,
    databaseUrl: fresh.databaseUrl,
    env,
    dirs,
    async close() {
      await fresh.drop();
      if (keep) console.log(`logs kept in ${dirs.join(', ')}`);
      else for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
    },
  };
}

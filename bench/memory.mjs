// Resident memory of the built server, started as `npm run serve` starts it (same Node flags, demo data on),
// on PGlite and on PostgreSQL (Linux: read from /proc/<pid>/status).
//   first start: an empty database; the server creates it, migrates and has the demo data made (300 members with
//     drawn portraits, in a process of its own) before it listens. Its peak: the highest sum of the server's and
//     that process's resident memory (sampled every 100 ms), or the server's VmHWM; its idle is read after.
//   restarted:   the same server started again on that seeded database: idle resident memory (VmRSS).
// Idle means: a few ordinary requests (settings, the home page, search, on both demo sites), then
// BENCH_IDLE_SECONDS (15) without any, then the median of five readings a second apart.
// Targets (hardening issue, item B): restarted idle <= 350 MB on PGlite and <= 150 MB on PostgreSQL; the first
// start's peak under 600 MB.
// Run: npm run bench -- memory   (builds the server first; writes bench/results/memory.json)
// BENCH_DATABASE_URL (or TEST_DATABASE_URL) names the PostgreSQL server; its database amora_bench_memory is
// created for the run and dropped after. Without a reachable PostgreSQL that half is skipped.
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { request } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import { SERVER_NODE_FLAGS } from '../scripts/server-flags.mjs';
import { startServer } from './servers.mjs';

const IDLE_SECONDS = Number(process.env.BENCH_IDLE_SECONDS ?? 15);
const DB_NAME = 'amora_bench_memory';
const PORT = Number(process.env.BENCH_PORT ?? 3150);
export const TARGETS = { pgliteIdleMb: 350, postgresIdleMb: 150, firstStartPeakMb: 600 };

const sleep = (ms) => new Promise((r) => setTimeout(r, ms));

/** VmRSS and VmHWM of a process, in MB. */
function memoryOf(pid) {
  const status = readFileSync(`/proc/${pid}/status`, 'utf8');
  const mb = (key) => Math.round(Number(status.match(new RegExp(`${key}:\\s+(\\d+) kB`))[1]) / 1024);
  return { rss: mb('VmRSS'), hwm: mb('VmHWM') };
}

/** The processes started by `pid` and theirs, recursively. */
function descendantsOf(pid) {
  const children = [];
  for (const task of readdirSync(`/proc/${pid}/task`)) {
    let listed = '';
    try {
      listed = readFileSync(`/proc/${pid}/task/${task}/children`, 'utf8').trim();
    } catch {
      // the thread ended between the two reads
    }
    if (listed) children.push(...listed.split(' ').map(Number));
  }
  return children.flatMap((child) => [child, ...descendantsOf(child)]);
}

/**
 * Samples the resident memory of everything this process has started (the server and, on a first start, the
 * process it creates the demo data in) every 100 ms; `stop()` gives the highest sum seen, in MB.
 */
function sampleStartedProcesses() {
  let peak = 0;
  const timer = setInterval(() => {
    let sum = 0;
    for (const pid of descendantsOf(process.pid)) {
      try {
        sum += memoryOf(pid).rss;
      } catch {
        // exited meanwhile
      }
    }
    peak = Math.max(peak, sum);
  }, 100);
  return {
    stop() {
      clearInterval(timer);
      return peak;
    },
  };
}

/** One request with our own Host header (fetch replaces it with the address it connects to); the answer is read whole. */
function call(path, host) {
  return new Promise((resolve, reject) => {
    const req = request(`http://127.0.0.1:${PORT}${path}`, { headers: { host } }, (res) => {
      res.resume();
      res.on('end', () => resolve(res.statusCode));
    });
    req.on('error', reject);
    req.end();
  });
}

async function idleRss(pid) {
  for (const host of ['amora.localhost', 'herzklopfen.localhost']) {
    for (const path of ['/api/settings.php', '/', '/api/search.php', '/api/settings.php?lang=de']) await call(path, host);
  }
  await sleep(IDLE_SECONDS * 1000);
  const readings = [];
  for (let i = 0; i < 5; i++) {
    readings.push(memoryOf(pid).rss);
    await sleep(1000);
  }
  return readings.sort((a, b) => a - b)[2];
}

async function stop(child) {
  const exited = new Promise((resolve) => child.once('exit', resolve));
  child.kill('SIGTERM');
  await Promise.race([exited, sleep(10_000)]);
}

/** The server as `npm start` runs it (development mode: demo data, dev pages), with its log in dataDir. */
function start(dataDir, databaseUrl) {
  return startServer(
    [...SERVER_NODE_FLAGS, 'apps/server/dist/main.mjs'],
    { PORT: String(PORT), HOST: '127.0.0.1', DATA_DIR: dataDir, NODE_ENV: '', SEED_DEMO: '', DATABASE_URL: databaseUrl, REDIS_URL: '' },
    `http://127.0.0.1:${PORT}/api/health.php`,
    join(dataDir, `server-${Date.now()}.log`),
  );
}

/**
 * First start on an empty database, then a start on the database it left. The first start's peak is the highest
 * sum of the resident memory of the server and the process it creates the demo data in (sampled), or the
 * server's own high-water mark if that is higher.
 */
async function measure(label, dataDir, databaseUrl) {
  const started = Date.now();
  const sampler = sampleStartedProcesses();
  let server;
  let sampledPeak = 0;
  try {
    server = await start(dataDir, databaseUrl);
  } finally {
    sampledPeak = sampler.stop();
  }
  const firstStartSeconds = Math.round((Date.now() - started) / 1000);
  const firstStartPeakMb = Math.max(sampledPeak, memoryOf(server.pid).hwm);
  const firstStartIdleMb = await idleRss(server.pid);
  await stop(server);
  server = await start(dataDir, databaseUrl);
  try {
    const idleMb = await idleRss(server.pid);
    const target = label === 'PGlite' ? TARGETS.pgliteIdleMb : TARGETS.postgresIdleMb;
    return {
      label,
      firstStartSeconds,
      firstStartPeakMb,
      firstStartIdleMb,
      idleMb,
      idleTargetMb: target,
      pass: idleMb <= target && firstStartPeakMb < TARGETS.firstStartPeakMb,
    };
  } finally {
    await stop(server);
  }
}

async function onPglite() {
  const dataDir = mkdtempSync(join(tmpdir(), 'amora-bench-memory-'));
  try {
    return await measure('PGlite', dataDir, '');
  } finally {
    rmSync(dataDir, { recursive: true, force: true });
  }
}

async function onPostgres() {
  const baseUrl = process.env.BENCH_DATABASE_URL ?? process.env.TEST_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';
  const admin = new pg.Client({ connectionString: baseUrl });
  try {
    await admin.connect();
  } catch (error) {
    return { label: 'PostgreSQL', skipped: `no PostgreSQL at ${baseUrl}: ${error.message}` };
  }
  const url = new URL(baseUrl);
  url.pathname = `/${DB_NAME}`;
  const dataDir = mkdtempSync(join(tmpdir(), 'amora-bench-memory-pg-'));
  try {
    await admin.query(`drop database if exists ${DB_NAME} with (force)`);
    await admin.query(`create database ${DB_NAME}`);
    return await measure('PostgreSQL', dataDir, url.toString());
  } finally {
    rmSync(dataDir, { recursive: true, force: true });
    await admin.query(`drop database if exists ${DB_NAME} with (force)`).catch(() => {});
    await admin.end();
  }
}

export async function runMemoryBenchmark() {
  const results = [await onPglite(), await onPostgres()];
  return { flags: SERVER_NODE_FLAGS, idleSeconds: IDLE_SECONDS, targets: TARGETS, results };
}

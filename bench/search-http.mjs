// Logged-in member search over HTTP against GET /api/settings.php in the same run, on the embedded default
// (PGlite, the 300 demo members) and on PostgreSQL with 1,000,000 profiles.
// Targets (issue: hardening, item A): on PGlite at 50 connections no request over 1 s and no timeout; on
// PostgreSQL p99 <= 50 ms at 50 connections and throughput >= 0.1x settings.php.
// Each row also gives the CPU per request of the server process and, on PostgreSQL, of the database backends.
// Run: npm run bench -- search-http   (builds the server first; writes bench/results/search-http.json)
// BENCH_DATABASE_URL (or TEST_DATABASE_URL) names the PostgreSQL server; its database amora_bench_search is
// created, filled and dropped at the end (BENCH_KEEP_DB=1 keeps it, and a later run reuses it as it is).
import { mkdirSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { request } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import autocannon from 'autocannon';
import pg from 'pg';
import { fillProfiles } from './fill-profiles.mjs';
import { startAmora } from './servers.mjs';

const CONNECTIONS = Number(process.env.BENCH_CONNECTIONS ?? 50);
// A search run lasts longer than autocannon's 10-second timeout, so a request stuck that long is counted.
const SEARCH_SECONDS = Number(process.env.BENCH_SEARCH_SECONDS ?? 12);
const SETTINGS_SECONDS = Number(process.env.BENCH_SETTINGS_SECONDS ?? 4);
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 3);
const PROFILES = Number(process.env.BENCH_PROFILES ?? 1_000_000);
const SEARCH_PATH = '/api/search.php?gender=woman&min_age=25&max_age=45';
const HOST = 'amora.localhost';
const DB_NAME = 'amora_bench_search';
// The server on PGlite listens on BENCH_PORT (3140), the one on PostgreSQL on the next port.
const PORT = Number(process.env.BENCH_PORT ?? 3140);

/**
 * Waits until the server has answered what the last run left in flight (autocannon stops counting, not the
 * server working): a health check, which queries the database, comes back quickly.
 */
async function drain(base) {
  const until = Date.now() + 30_000;
  while (Date.now() < until) {
    const started = performance.now();
    await call(base, '/api/health.php').catch(() => {});
    if (performance.now() - started < 50) return;
    await new Promise((r) => setTimeout(r, 200));
  }
}

/** CPU time (ms, user and system) a process has used so far, from /proc (Linux, 100 clock ticks a second); null elsewhere. */
function cpuMs(pid) {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return (Number(fields[11]) + Number(fields[12])) * 10;
  } catch {
    return null;
  }
}

/**
 * What the server process and the database's backends (PostgreSQL only: `databasePids` lists them) have used of the
 * CPU so far, per process, to tell where a request's CPU goes. Ticks are 10 ms: over a round of thousands of
 * requests that is a few microseconds per request.
 */
async function sampleCpu(cpu) {
  if (!cpu) return null;
  const server = cpuMs(cpu.serverPid);
  if (server === null) return null;
  const database = new Map();
  for (const pid of cpu.databasePids ? await cpu.databasePids() : []) database.set(pid, cpuMs(pid) ?? 0);
  return { server, database };
}

/** CPU ms per request between two samples: the server's, and the backends' (those gone in between are not counted). */
function cpuPerRequest(before, after, requests) {
  if (!before || !after || requests === 0) return null;
  let database = 0;
  for (const [pid, ms] of after.database) database += ms - (before.database.get(pid) ?? 0);
  const round = (ms) => Math.round((ms / requests) * 1000) / 1000;
  return { server: round(after.server - before.server), database: after.database.size > 0 ? round(database) : null };
}

async function measure(url, headers, seconds, cpu) {
  const before = await sampleCpu(cpu);
  const r = await autocannon({ url, connections: CONNECTIONS, duration: seconds, headers, timeout: 10 });
  const after = await sampleCpu(cpu);
  await drain(new URL(url).origin);
  return {
    rps: Math.round(r.requests.average),
    p50: r.latency.p50,
    p99: r.latency.p99,
    max: r.latency.max,
    timeouts: r.timeouts,
    errors: r.errors + r.non2xx,
    cpuMsPerRequest: cpuPerRequest(before, after, r.requests.total),
  };
}

/** One request with our own Host header (fetch replaces it with the address it connects to). */
function call(base, path, { method = 'GET', headers = {}, body } = {}) {
  return new Promise((resolve, reject) => {
    const req = request(`${base}${path}`, { method, headers: { host: HOST, ...headers } }, (res) => {
      let text = '';
      res.setEncoding('utf8');
      res.on('data', (chunk) => {
        text += chunk;
      });
      res.on('end', () => resolve({ status: res.statusCode, headers: res.headers, text }));
    });
    req.on('error', reject);
    req.end(body);
  });
}

/** Logs the demo member in; the session cookie for the search calls. */
async function login(base) {
  const res = await call(base, '/api/user.php', {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'x-request-type': 'client' },
    body: JSON.stringify({ email: 'demo@amora.example', password: 'amora-demo-2026' }),
  });
  const cookie = (res.headers['set-cookie'] ?? []).find((c) => c.startsWith('auth.session='));
  if (res.status !== 200 || !cookie) throw new Error(`login failed: ${res.status} ${res.text}`);
  return cookie.split(';')[0];
}

/**
 * Rounds of settings.php (a returning visitor, as in the API benchmark) and then logged-in search. `cpu` (the
 * server's pid, and a function listing the database backends on PostgreSQL) adds the CPU per request.
 */
async function rounds(base, cpu) {
  const session = await login(base);
  const settings = { url: `${base}/api/settings.php`, headers: { host: HOST, cookie: 'i18n_redirected=en' } };
  const search = { url: `${base}${SEARCH_PATH}`, headers: { host: HOST, cookie: `i18n_redirected=en; ${session}` } };
  // settings.php with the same session: what every logged-in call pays before its own work (the session lookup).
  const settingsMember = { url: settings.url, headers: search.headers };
  const first = await call(base, SEARCH_PATH, { headers: search.headers });
  if (first.status !== 200) throw new Error(`search failed: ${first.status} ${first.text}`);
  const sample = JSON.parse(first.text);
  // Warm-up (JIT, caches, the database's buffers), not counted.
  await autocannon({ ...settings, connections: CONNECTIONS, duration: 2 });
  await autocannon({ ...search, connections: CONNECTIONS, duration: 3 });
  await drain(base);
  const all = [];
  for (let i = 0; i < ROUNDS; i++) {
    const s = await measure(settings.url, settings.headers, SETTINGS_SECONDS, cpu);
    const m = await measure(settingsMember.url, settingsMember.headers, SETTINGS_SECONDS, cpu);
    const q = await measure(search.url, search.headers, SEARCH_SECONDS, cpu);
    all.push({ settings: s, settingsMember: m, search: q, ratio: q.rps / s.rps });
  }
  const median = [...all].sort((a, b) => a.ratio - b.ratio)[Math.floor(all.length / 2)];
  return {
    settings: median.settings,
    settingsMember: median.settingsMember,
    search: median.search,
    ratio: Math.round(median.ratio * 1000) / 1000,
    ratios: all.map((r) => Math.round(r.ratio * 1000) / 1000),
    // Over every round, not only the median one.
    worst: {
      p99: Math.max(...all.map((r) => r.search.p99)),
      max: Math.max(...all.map((r) => r.search.max)),
      timeouts: all.reduce((n, r) => n + r.search.timeouts, 0),
      errors: all.reduce((n, r) => n + r.search.errors + r.settings.errors, 0),
    },
    numResults: sample.numResults,
  };
}

async function stop(child) {
  const exited = new Promise((resolve) => child.once('exit', resolve));
  child.kill('SIGTERM');
  await Promise.race([exited, new Promise((resolve) => setTimeout(resolve, 5000))]);
}

async function onPglite() {
  // BENCH_DATA_DIR keeps a seeded directory between runs (its first run seeds it), as in the API benchmark.
  const keep = process.env.BENCH_DATA_DIR;
  if (keep) mkdirSync(keep, { recursive: true });
  const dataDir = keep ?? mkdtempSync(join(tmpdir(), 'amora-bench-search-'));
  let server;
  try {
    server = await startAmora(PORT, dataDir);
    // PGlite runs inside the server process: its CPU is the server's.
    const result = await rounds(`http://127.0.0.1:${PORT}`, { serverPid: server.pid });
    const pass = result.worst.max <= 1000 && result.worst.timeouts === 0 && result.worst.errors === 0;
    return { label: 'PGlite', profiles: 'demo (300)', ...result, target: 'no request over 1 s, no timeout', pass };
  } finally {
    if (server) await stop(server);
    if (!keep) rmSync(dataDir, { recursive: true, force: true });
  }
}

async function onPostgres() {
  const baseUrl = process.env.BENCH_DATABASE_URL ?? process.env.TEST_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';
  const admin = new pg.Client({ connectionString: baseUrl });
  await admin.connect();
  const url = new URL(baseUrl);
  url.pathname = `/${DB_NAME}`;
  const keep = process.env.BENCH_KEEP_DB === '1';
  const dataDir = mkdtempSync(join(tmpdir(), 'amora-bench-search-pg-'));
  let server;
  try {
    const exists = (await admin.query('select 1 from pg_database where datname = $1', [DB_NAME])).rowCount > 0;
    if (exists && !keep) await admin.query(`drop database ${DB_NAME} with (force)`);
    if (!exists || !keep) await admin.query(`create database ${DB_NAME}`);
    // The server migrates and seeds the empty database; the million profiles come next, through SQL.
    server = await startAmora(PORT + 1, dataDir, { DATABASE_URL: url.toString() });
    const db = new pg.Client({ connectionString: url.toString() });
    await db.connect();
    let fillSeconds = 0;
    try {
      const { rows } = await db.query('select count(*)::int as n from profiles');
      if (rows[0].n < PROFILES) {
        const started = Date.now();
        await fillProfiles((text) => db.query(text), PROFILES - rows[0].n);
        fillSeconds = Math.round((Date.now() - started) / 100) / 10;
      }
    } finally {
      await db.end();
    }
    const databasePids = async () =>
      (await admin.query('select pid from pg_stat_activity where datname = $1', [DB_NAME])).rows.map((r) => r.pid);
    const result = await rounds(`http://127.0.0.1:${PORT + 1}`, { serverPid: server.pid, databasePids });
    const pass = result.search.p99 <= 50 && result.ratio >= 0.1 && result.worst.timeouts === 0 && result.worst.errors === 0;
    return { label: 'PostgreSQL', profiles: PROFILES, fillSeconds, ...result, target: 'p99 <= 50 ms, >= 0.1x settings.php', pass };
  } finally {
    if (server) await stop(server);
    rmSync(dataDir, { recursive: true, force: true });
    if (!keep) await admin.query(`drop database if exists ${DB_NAME} with (force)`).catch(() => {});
    await admin.end();
  }
}

export async function runSearchHttpBenchmark() {
  const results = [];
  if (process.env.BENCH_SKIP_PGLITE !== '1') results.push(await onPglite());
  if (process.env.BENCH_SKIP_POSTGRES !== '1') {
    try {
      results.push(await onPostgres());
    } catch (error) {
      console.error(`PostgreSQL part skipped: ${error.message}`);
      results.push({ label: 'PostgreSQL', skipped: error.message, pass: false });
    }
  }
  return { connections: CONNECTIONS, path: SEARCH_PATH, results };
}

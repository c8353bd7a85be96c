// GET /api/settings.php against a bare Fastify hello route, measured in the same run.
// Target (issue: platform foundation): throughput ratio >= 0.6.
import { spawn } from 'node:child_process';
import { mkdirSync, mkdtempSync, openSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import autocannon from 'autocannon';

const DURATION = Number(process.env.BENCH_SECONDS ?? 1);
// Both servers share the machine with the load generator, so one long run is at the mercy of whatever else
// runs meanwhile. Several short rounds, each measuring the baseline and then settings, give one ratio per
// round; the median round is reported.
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 25);
const CONNECTIONS = Number(process.env.BENCH_CONNECTIONS ?? 32);

/** Starts a server whose output goes to a log file (the load generator must not spend its core reading it). */
async function start(args, env, readyUrl, logFile) {
  const out = openSync(logFile, 'w');
  const child = spawn(process.execPath, args, { env: { ...process.env, ...env }, stdio: ['ignore', out, 'inherit'] });
  let exited = false;
  child.on('exit', () => {
    exited = true;
  });
  for (let i = 0; i < 600 && !exited; i++) {
    try {
      const res = await fetch(readyUrl, { headers: { host: 'amora.localhost' } });
      if (res.ok) return child;
    } catch {
      // not listening yet
    }
    await new Promise((r) => setTimeout(r, 100));
  }
  child.kill('SIGKILL');
  throw new Error(`server did not start: ${args.join(' ')} (log: ${logFile})`);
}

async function measure(url, headers = {}) {
  const r = await autocannon({ url, connections: CONNECTIONS, duration: DURATION, headers });
  return { rps: r.requests.average, p50: r.latency.p50, p99: r.latency.p99, errors: r.errors + r.non2xx };
}

export async function runApiBenchmark() {
  // BENCH_DATA_DIR keeps a seeded directory between runs (its first run seeds it).
  const keep = process.env.BENCH_DATA_DIR;
  if (keep) mkdirSync(keep, { recursive: true });
  const dataDir = keep ?? mkdtempSync(join(tmpdir(), 'amora-bench-'));
  const hello = await start(['bench/hello-server.mjs'], { PORT: '3901' }, 'http://127.0.0.1:3901/hello', join(dataDir, 'hello.log'));
  const app = await start(
    // The flags of `npm start`.
    ['--enable-source-maps', '--max-semi-space-size=64', 'apps/server/dist/main.mjs'],
    {
      PORT: '3902',
      HOST: '127.0.0.1',
      DATA_DIR: dataDir,
      NODE_ENV: 'production',
      SEED_DEMO: 'true',
      DATABASE_URL: '',
      REDIS_URL: '',
      API_RATE_LIMIT: '100000000',
    },
    'http://127.0.0.1:3902/api/health.php',
    join(dataDir, 'server.log'),
  );
  const baselineRun = () => measure('http://127.0.0.1:3901/hello');
  // A returning browser: it sends the language cookie the first call set.
  const headers = { host: 'amora.localhost', cookie: 'i18n_redirected=en' };
  const settingsUrl = 'http://127.0.0.1:3902/api/settings.php';
  try {
    // Warm-up of both servers (JIT, caches), not counted.
    await autocannon({ url: 'http://127.0.0.1:3901/hello', connections: CONNECTIONS, duration: 2 });
    await autocannon({ url: settingsUrl, connections: CONNECTIONS, duration: 2, headers });
    const rounds = [];
    for (let i = 0; i < ROUNDS; i++) {
      const baseline = await baselineRun();
      const settings = await measure(settingsUrl, headers);
      rounds.push({ baseline, settings, ratio: settings.rps / baseline.rps });
    }
    const median = [...rounds].sort((a, b) => a.ratio - b.ratio)[Math.floor(rounds.length / 2)];
    const errors = rounds.reduce((sum, r) => sum + r.baseline.errors + r.settings.errors, 0);
    return {
      baseline: median.baseline,
      settings: median.settings,
      ratio: median.ratio,
      ratios: rounds.map((r) => Math.round(r.ratio * 100) / 100),
      errors,
      target: 0.6,
      pass: median.ratio >= 0.6 && errors === 0,
    };
  } finally {
    hello.kill('SIGTERM');
    app.kill('SIGTERM');
    await new Promise((r) => setTimeout(r, 500));
    if (!keep) rmSync(dataDir, { recursive: true, force: true });
  }
}

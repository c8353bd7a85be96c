// GET /api/settings.php against a bare Fastify hello route, measured in the same run.
// Target (issue: platform foundation): throughput ratio >= 0.6.
import { spawn } from 'node:child_process';
import { mkdtempSync, openSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import autocannon from 'autocannon';

const DURATION = Number(process.env.BENCH_SECONDS ?? 8);
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
  await autocannon({ url, connections: CONNECTIONS, duration: 2, headers }); // warm-up
  const r = await autocannon({ url, connections: CONNECTIONS, duration: DURATION, headers });
  return { rps: r.requests.average, p50: r.latency.p50, p99: r.latency.p99, errors: r.errors + r.non2xx };
}

export async function runApiBenchmark() {
  const dataDir = mkdtempSync(join(tmpdir(), 'amora-bench-'));
  const hello = await start(['bench/hello-server.mjs'], { PORT: '3901' }, 'http://127.0.0.1:3901/hello', join(dataDir, 'hello.log'));
  const app = await start(
    ['--import', 'tsx', 'apps/server/src/main.ts'],
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
  try {
    const baseline = await measure('http://127.0.0.1:3901/hello');
    // A returning browser: it sends the language cookie the first call set.
    const settings = await measure('http://127.0.0.1:3902/api/settings.php', { host: 'amora.localhost', cookie: 'i18n_redirected=en' });
    const ratio = settings.rps / baseline.rps;
    return { baseline, settings, ratio, target: 0.6, pass: ratio >= 0.6 && settings.errors === 0 };
  } finally {
    hello.kill('SIGTERM');
    app.kill('SIGTERM');
    await new Promise((r) => setTimeout(r, 500));
    rmSync(dataDir, { recursive: true, force: true });
  }
}

// GET /api/settings.php against a bare Fastify hello route, measured in the same run.
// Target (issue: platform foundation): throughput ratio >= 0.6.
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import autocannon from 'autocannon';

const DURATION = Number(process.env.BENCH_SECONDS ?? 8);
const CONNECTIONS = Number(process.env.BENCH_CONNECTIONS ?? 32);

function start(args, env, readyText) {
  const child = spawn(process.execPath, args, { env: { ...process.env, ...env }, stdio: ['ignore', 'pipe', 'inherit'] });
  return new Promise((resolve, reject) => {
    let out = '';
    child.stdout.on('data', (d) => {
      out += d;
      if (out.includes(readyText)) resolve(child);
    });
    child.on('exit', (code) => reject(new Error(`server exited with ${code}: ${out}`)));
  });
}

async function measure(url, headers = {}) {
  await autocannon({ url, connections: CONNECTIONS, duration: 2, headers }); // warm-up
  const r = await autocannon({ url, connections: CONNECTIONS, duration: DURATION, headers });
  return { rps: r.requests.average, p50: r.latency.p50, p99: r.latency.p99, errors: r.errors + r.non2xx };
}

export async function runApiBenchmark() {
  const dataDir = mkdtempSync(join(tmpdir(), 'amora-bench-'));
  const hello = await start(['bench/hello-server.mjs'], { PORT: '3901' }, 'ready');
  const app = await start(
    ['--import', 'tsx', 'apps/server/src/main.ts'],
    { PORT: '3902', HOST: '127.0.0.1', DATA_DIR: dataDir, NODE_ENV: 'production', SEED_DEMO: 'true', DATABASE_URL: '', REDIS_URL: '', API_RATE_LIMIT: '100000000' },
    'Amora is running',
  );
  try {
    const baseline = await measure('http://127.0.0.1:3901/hello');
    const settings = await measure('http://127.0.0.1:3902/api/settings.php', { host: 'amora.localhost' });
    const ratio = settings.rps / baseline.rps;
    return { baseline, settings, ratio, target: 0.6, pass: ratio >= 0.6 && settings.errors === 0 };
  } finally {
    hello.kill('SIGTERM');
    app.kill('SIGTERM');
    await new Promise((r) => setTimeout(r, 500));
    rmSync(dataDir, { recursive: true, force: true });
  }
}

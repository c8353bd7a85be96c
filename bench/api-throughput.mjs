// GET /api/settings.php against a bare Fastify hello route, measured in the same run.
// Target (issue: platform foundation): throughput ratio >= 0.6.
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import autocannon from 'autocannon';
import { SERVER_NODE_FLAGS } from '../scripts/server-flags.mjs';
import { startAmora, startServer } from './servers.mjs';

const DURATION = Number(process.env.BENCH_SECONDS ?? 1);
// Both servers share the machine with the load generator, so one long run is at the mercy of whatever else
// runs meanwhile. Several short rounds, each measuring the baseline and then settings, give one ratio per
// round; the median round is reported.
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 25);
const CONNECTIONS = Number(process.env.BENCH_CONNECTIONS ?? 32);
// The hello server listens on BENCH_PORT (3901), the Amora server on the next port.
const HELLO_PORT = Number(process.env.BENCH_PORT ?? 3901);
const APP_PORT = HELLO_PORT + 1;

async function measure(url, headers = {}) {
  const r = await autocannon({ url, connections: CONNECTIONS, duration: DURATION, headers });
  return { rps: r.requests.average, p50: r.latency.p50, p99: r.latency.p99, errors: r.errors + r.non2xx };
}

export async function runApiBenchmark() {
  // BENCH_DATA_DIR keeps a seeded directory between runs (its first run seeds it).
  const keep = process.env.BENCH_DATA_DIR;
  if (keep) mkdirSync(keep, { recursive: true });
  const dataDir = keep ?? mkdtempSync(join(tmpdir(), 'amora-bench-'));
  // The baseline runs with the same Node flags as the server (measured neutral for it), so only the code differs.
  const helloUrl = `http://127.0.0.1:${HELLO_PORT}/hello`;
  const hello = await startServer(
    [...SERVER_NODE_FLAGS, 'bench/hello-server.mjs'],
    { PORT: String(HELLO_PORT) },
    helloUrl,
    join(dataDir, 'hello.log'),
  );
  const app = await startAmora(APP_PORT, dataDir);
  const baselineRun = () => measure(helloUrl);
  // A returning browser: it sends the language cookie the first call set.
  const headers = { host: 'amora.localhost', cookie: 'i18n_redirected=en' };
  const settingsUrl = `http://127.0.0.1:${APP_PORT}/api/settings.php`;
  try {
    // Warm-up of both servers (JIT, caches), not counted.
    await autocannon({ url: helloUrl, connections: CONNECTIONS, duration: 2 });
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

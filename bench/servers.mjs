// Starting servers for the benchmarks: their output goes to a log file (the load generator must not spend its
// core reading it), and they count as started when their ready address answers.
import { spawn } from 'node:child_process';
import { openSync } from 'node:fs';
import { join } from 'node:path';
import { SERVER_NODE_FLAGS } from '../scripts/server-flags.mjs';

export async function startServer(args, env, readyUrl, logFile) {
  const out = openSync(logFile, 'w');
  const child = spawn(process.execPath, args, { env: { ...process.env, ...env }, stdio: ['ignore', out, 'inherit'] });
  let exited = false;
  child.on('exit', () => {
    exited = true;
  });
  // A first start seeds the demo members (their portraits go through the photo pipeline): minutes on a busy machine.
  const deadline = Date.now() + 300_000;
  while (Date.now() < deadline && !exited) {
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

/**
 * The built server as `npm start` runs it, in production mode with demo data, without the flood guard's limit;
 * `env` adds to or overrides its environment (DATABASE_URL for PostgreSQL).
 */
export function startAmora(port, dataDir, env = {}) {
  return startServer(
    // BENCH_SERVER_ENTRY runs another build of the server (to compare two builds under the same conditions);
    // BENCH_SERVER_FLAGS adds Node flags (`--cpu-prof --cpu-prof-dir=/tmp/prof` profiles each process).
    [
      ...SERVER_NODE_FLAGS,
      ...(process.env.BENCH_SERVER_FLAGS?.split(' ').filter(Boolean) ?? []),
      process.env.BENCH_SERVER_ENTRY ?? 'apps/server/dist/main.mjs',
    ],
    {
      PORT: String(port),
      HOST: '127.0.0.1',
      DATA_DIR: dataDir,
      NODE_ENV: 'production',
      SEED_DEMO: 'true',
      DATABASE_URL: '',
      REDIS_URL: '',
      API_RATE_LIMIT: '100000000',
      ...env,
    },
    `http://127.0.0.1:${port}/api/health.php`,
    join(dataDir, 'server.log'),
  );
}

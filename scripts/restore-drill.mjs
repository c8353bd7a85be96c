#!/usr/bin/env node
// npm run restore-drill: proves that a backup can be restored and served. It dumps the source database (pg_dump -Fc,
// counting the source in the same snapshot), or takes a dump file; restores it into a fresh database of its own
// (pg_restore), starts the built server on it with the installation's media store, waits for /health/ready, and
// checks that members, profiles, photos, messages and credit ledger rows (and the ledger's sum) are the source's
// and that one photo is served through the server's photo route. Exits 1 on any difference; drops the scratch
// database at the end unless --keep. docs/operations.md, "Backups and restore", says when and how to run it.
//
//   npm run restore-drill -- [--source URL] [--dump FILE] [--target URL] [--data-dir DIR] [--port N] [--keep]
//   npm run restore-drill -- --demo     (a source database of its own with the demo data first, then the drill)
//
// The server the drill starts must not act on the restored data: it gets no Redis (its events would reach the live
// processes), no SMTP, no Mollie key, no SMS provider, no bounce Maildir and no demo seeding, and every job of the
// restored database (and any it enqueues) is held far in the future, so no mail, push, purge or payment check runs.
import { spawn, spawnSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { existsSync, mkdirSync, mkdtempSync, rmSync, statSync } from 'node:fs';
import { request } from 'node:http';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { SERVER_NODE_FLAGS } from './server-flags.mjs';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const SERVER_ENTRY = join(root, 'apps/server/dist/main.mjs');

const USAGE = `npm run restore-drill -- [options]
  --source URL     the database to back up and compare with (default: DATABASE_URL, or the first argument)
  --dump FILE      restore this pg_dump -Fc file instead of making one; without --source the expected counts
                   are read from the dump itself
  --target URL     the PostgreSQL server the scratch database is made on (default: the source's server)
  --data-dir DIR   the media store the server reads (default: DATA_DIR, else ./data); an S3 store is
                   configured by the environment, which the server inherits
  --port N         the drill server's port (default: a free one; --demo's seeding server takes N+1)
  --keep           keep the scratch database (and the demo's source) for a look afterwards
  --demo           first make a source database with the demo data (a built server seeds it, about 2 minutes)
  --json           print the report as one JSON object`;

/** What is compared between the source (or the dump) and the restored database. */
const COUNTS = {
  members: 'select count(*) from users',
  profiles: 'select count(*) from profiles',
  photos: 'select count(*) from photos',
  messages: 'select count(*) from messages',
  ledgerRows: 'select count(*) from credit_ledger',
  ledgerSum: 'select coalesce(sum(delta), 0) from credit_ledger',
};
const COUNT_LABELS = {
  members: 'members',
  profiles: 'profiles',
  photos: 'photos',
  messages: 'messages',
  ledgerRows: 'ledger rows',
  ledgerSum: 'ledger sum',
};
const COUNT_QUERY = `select json_build_object(${Object.entries(COUNTS)
  .map(([name, query]) => `'${name}', (${query})`)
  .join(', ')})::text`;

/**
 * Holds every job of the scratch database: queued and running ones are moved to year 9999, and a trigger does the
 * same to any job or schedule the drill server adds (a recurring job's first run, a request's mail), so the
 * worker of the drill server never claims one.
 */
const HOLD_JOBS = `
update jobs set run_at = '9999-01-01', locked_until = case when status = 'running' then '9999-01-01'::timestamptz end;
update job_schedules set next_run_at = '9999-01-01';
create function restore_drill_hold() returns trigger language plpgsql as $$
begin
  if tg_table_name = 'jobs' then new.run_at := '9999-01-01'; else new.next_run_at := '9999-01-01'; end if;
  return new;
end $$;
create trigger restore_drill_hold before insert on jobs for each row execute function restore_drill_hold();
create trigger restore_drill_hold before insert on job_schedules for each row execute function restore_drill_hold();`;

/** One main photo any visitor may see (photos.policy.ts): active, of an active visible profile of no deleted account. */
const PHOTO_QUERY = `select json_build_object('id', ph.id, 'host', s.domain)::text
  from photos ph
  join profiles p on p.id = ph.profile_id and p.main_photo_id = ph.id
  join sites s on s.id = p.site_id
  left join users u on u.id = p.user_id
  where ph.status = 'active' and p.status = 'active' and not p.is_invisible and (u.id is null or u.status <> 'deleted')
  order by random() limit 1`;

/** Environment variables the drill server must not inherit: each reaches something outside the scratch database. */
const OUTSIDE_WORLD = [
  'REDIS_URL',
  'SMTP_URL',
  'MOLLIE_API_KEY',
  'MOLLIE_API_URL',
  'PAYMENTS_PUBLIC_URL',
  'PAYMENTS_SANDBOX',
  'SMS_API_KEY',
  'SMS_API_URL',
  'MAIL_REPORTS_DIR',
  'METRICS_TOKEN',
];

/** The child processes running now (psql session, pg_restore reads, the server): ended on Ctrl-C or SIGTERM. */
const children = new Set();
let interrupted = null;

function track(child) {
  children.add(child);
  child.once('exit', () => children.delete(child));
  return child;
}

/** Between steps: an interrupted drill goes no further (its cleanup still runs). */
function checkInterrupted() {
  if (interrupted) throw new Error(`interrupted by ${interrupted}`);
}

function fail(message) {
  console.error(`restore-drill: ${message}`);
  process.exit(2);
}

/** The URL with its password hidden, for the report. */
function shown(url) {
  const parsed = new URL(url);
  if (parsed.password) parsed.password = '***';
  return parsed.toString();
}

function databaseUrl(url, database) {
  const parsed = new URL(url);
  parsed.pathname = `/${database}`;
  return parsed.toString();
}

function run(command, args, options = {}) {
  const result = spawnSync(command, args, { encoding: 'utf8', maxBuffer: 64 * 1024 * 1024, ...options });
  if (result.error) throw new Error(`${command}: ${result.error.message}`);
  if (result.status !== 0) throw new Error(`${command} ${args[0]} … failed (exit ${result.status}): ${(result.stderr ?? '').trim()}`);
  return result.stdout;
}

function psql(url, sql) {
  return run('psql', ['-X', '-q', '-A', '-t', '-v', 'ON_ERROR_STOP=1', '-d', url, '-c', sql]).trim();
}

const quote = (name) => `"${name.replaceAll('"', '""')}"`;

/**
 * A psql session that holds one REPEATABLE READ transaction open and exports its snapshot: pg_dump --snapshot dumps
 * exactly what the counts in that session saw, however busy the source is.
 */
async function snapshotSession(url) {
  const child = track(spawn('psql', ['-X', '-q', '-A', '-t', '-v', 'ON_ERROR_STOP=1', '-d', url], { stdio: ['pipe', 'pipe', 'pipe'] }));
  let stderr = '';
  child.stderr.on('data', (chunk) => {
    stderr += chunk;
  });
  const lines = createInterface({ input: child.stdout })[Symbol.asyncIterator]();
  const exited = new Promise((resolveExit) => child.once('exit', resolveExit));
  const ask = async (sql) => {
    child.stdin.write(`${sql};\n`);
    const next = await Promise.race([lines.next(), exited.then(() => ({ done: true }))]);
    if (next.done) throw new Error(`psql on the source failed: ${stderr.trim()}`);
    return next.value;
  };
  await ask('begin isolation level repeatable read read only; select 1');
  const snapshot = await ask('select pg_export_snapshot()');
  return {
    snapshot,
    count: async () => JSON.parse(await ask(COUNT_QUERY)),
    end: async () => {
      child.stdin.end('commit;\n');
      await exited;
    },
  };
}

/**
 * The expected counts read from a dump file itself (pg_restore --data-only of each table to stdout): the rows of its
 * COPY blocks, and the sum of credit_ledger's delta column.
 */
async function countsInDump(file) {
  const rowsOf = async (table, sumColumn) => {
    const child = track(spawn('pg_restore', ['--data-only', `--table=${table}`, '-f', '-', file], { stdio: ['ignore', 'pipe', 'pipe'] }));
    let stderr = '';
    child.stderr.on('data', (chunk) => {
      stderr += chunk;
    });
    let rows = 0;
    let sum = 0n;
    let column = -1;
    let inCopy = false;
    for await (const line of createInterface({ input: child.stdout })) {
      if (!inCopy) {
        const copy = /^COPY [^(]+\(([^)]*)\) FROM stdin;$/.exec(line);
        if (copy) {
          inCopy = true;
          column = sumColumn
            ? copy[1]
                .split(', ')
                .map((c) => c.replaceAll('"', ''))
                .indexOf(sumColumn)
            : -1;
        }
      } else if (line === '\\.') {
        inCopy = false;
      } else {
        rows++;
        if (column >= 0) sum += BigInt(line.split('\t')[column]);
      }
    }
    const code = await new Promise((resolveExit) => child.once('exit', resolveExit));
    if (code !== 0) throw new Error(`pg_restore could not read ${table} from ${file}: ${stderr.trim()}`);
    return { rows, sum };
  };
  const ledger = await rowsOf('credit_ledger', 'delta');
  return {
    members: (await rowsOf('users')).rows,
    profiles: (await rowsOf('profiles')).rows,
    photos: (await rowsOf('photos')).rows,
    messages: (await rowsOf('messages')).rows,
    ledgerRows: ledger.rows,
    ledgerSum: Number(ledger.sum),
  };
}

function freePort() {
  return new Promise((resolvePort, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address();
      server.close(() => resolvePort(port));
    });
  });
}

function get(port, path, host) {
  return new Promise((resolveGet, reject) => {
    const req = request({ host: '127.0.0.1', port, path, headers: { host }, timeout: 10_000 }, (res) => {
      const chunks = [];
      res.on('data', (chunk) => chunks.push(chunk));
      res.on('end', () => resolveGet({ status: res.statusCode, type: res.headers['content-type'] ?? '', body: Buffer.concat(chunks) }));
    });
    req.on('timeout', () => req.destroy(new Error(`no answer from ${path} within 10 s`)));
    req.on('error', reject);
    req.end();
  });
}

/** Starts the built server; resolves once /health/ready answers 200, rejects when it exits or is not ready in time. */
async function startServer({ env, port, readyTimeoutMs }) {
  const child = track(spawn(process.execPath, [...SERVER_NODE_FLAGS, SERVER_ENTRY], { cwd: root, env, stdio: ['ignore', 'pipe', 'pipe'] }));
  let output = '';
  const keep = (chunk) => {
    output = (output + chunk).slice(-20_000);
  };
  child.stdout.on('data', keep);
  child.stderr.on('data', keep);
  let exitCode = null;
  const exited = new Promise((resolveExit) =>
    child.once('exit', (code, signal) => {
      exitCode = code ?? signal;
      resolveExit();
    }),
  );
  const server = {
    output: () => output,
    stop: async () => {
      if (exitCode === null) child.kill('SIGTERM');
      await exited;
    },
  };
  const deadline = Date.now() + readyTimeoutMs;
  let last = 'no answer';
  while (Date.now() < deadline) {
    if (interrupted) {
      await server.stop();
      checkInterrupted();
    }
    if (exitCode !== null) throw Object.assign(new Error(`the server exited (${exitCode}) before it was ready`), { server });
    const ready = await get(port, '/health/ready', '127.0.0.1').catch((error) => ({ status: 0, body: Buffer.from(error.message) }));
    if (ready.status === 200) return server;
    last = `${ready.status} ${ready.body.toString().slice(0, 300)}`;
    await new Promise((r) => setTimeout(r, 250));
  }
  await server.stop();
  throw Object.assign(new Error(`the server was not ready within ${readyTimeoutMs / 1000} s (last answer: ${last})`), { server });
}

function serverEnv(base, overrides) {
  const env = { ...base };
  for (const name of OUTSIDE_WORLD) delete env[name];
  return { ...env, SMS_PROVIDER: 'dev', SEED_DEMO: '0', SHUTDOWN_DRAIN_MS: '0', HOST: '127.0.0.1', LOG_LEVEL: 'warn', ...overrides };
}

/** --demo: a database of its own with the demo data, made by the built server's first start (SEED_DEMO=1). */
async function makeDemoSource(adminUrl, name, dataDir, port, readyTimeoutMs) {
  psql(adminUrl, `create database ${quote(name)}`);
  const url = databaseUrl(adminUrl, name);
  const server = await startServer({
    env: serverEnv(process.env, { DATABASE_URL: url, DATA_DIR: dataDir, PORT: String(port), SEED_DEMO: '1', NODE_ENV: 'development' }),
    port,
    readyTimeoutMs,
  });
  await server.stop();
  return url;
}

async function main() {
  const { values, positionals } = parseArgs({
    allowPositionals: true,
    options: {
      source: { type: 'string' },
      dump: { type: 'string' },
      target: { type: 'string' },
      'data-dir': { type: 'string' },
      port: { type: 'string' },
      keep: { type: 'boolean', default: false },
      demo: { type: 'boolean', default: false },
      json: { type: 'boolean', default: false },
      'ready-timeout': { type: 'string', default: '180' },
      help: { type: 'boolean', default: false },
    },
  });
  if (values.help) {
    console.log(USAGE);
    return 0;
  }
  const started = Date.now();
  const readyTimeoutMs = Number(values['ready-timeout']) * 1000;
  const id = `${new Date().toISOString().slice(0, 16).replace(/\D/g, '')}_${randomBytes(3).toString('hex')}`;
  const say = values.json ? () => {} : (line) => console.log(line);
  const cleanups = [];
  const report = { ok: false, scratchDatabase: null, kept: values.keep, steps: {}, counts: {}, photo: null, problems: [] };

  let source = values.source ?? positionals[0] ?? (values.demo || values.dump ? null : process.env.DATABASE_URL) ?? null;
  if (!source && !values.dump && !values.demo) fail(`no source database: give --source URL or set DATABASE_URL\n\n${USAGE}`);
  if (values.dump && !existsSync(values.dump)) fail(`no dump file ${values.dump}`);
  const target = values.target ?? source ?? process.env.DATABASE_URL;
  if (!target) fail('no PostgreSQL server for the scratch database: give --target URL');
  const adminUrl = databaseUrl(target, 'postgres');
  let dataDir = resolve(values['data-dir'] ?? process.env.DATA_DIR ?? './data');

  if (!existsSync(SERVER_ENTRY)) {
    say('No server build (apps/server/dist/main.mjs): building it first…');
    run(process.execPath, [join(root, 'scripts/build.mjs'), '--quiet'], { stdio: 'inherit', encoding: undefined });
  }

  let server = null;
  // Ctrl-C or SIGTERM: the running children are ended, the drill stops at the next step and cleans up as always.
  for (const signal of ['SIGINT', 'SIGTERM']) {
    process.on(signal, () => {
      interrupted ??= signal;
      for (const child of children) child.kill('SIGTERM');
    });
  }
  try {
    say('Restore drill');
    if (values.demo) {
      const t0 = Date.now();
      dataDir = resolve(values['data-dir'] ?? mkdtempSync(join(tmpdir(), 'amora-restore-drill-')));
      mkdirSync(dataDir, { recursive: true });
      const name = `amora_drill_demo_${id}`;
      if (!values.keep) {
        cleanups.push(() => psql(adminUrl, `drop database if exists ${quote(name)} with (force)`));
        if (!values['data-dir']) cleanups.push(() => rmSync(dataDir, { recursive: true, force: true }));
      }
      source = await makeDemoSource(adminUrl, name, dataDir, values.port ? Number(values.port) + 1 : await freePort(), readyTimeoutMs);
      report.steps.demo = { database: name, dataDir, ms: Date.now() - t0 };
      say(`  demo source  ${name}, demo data made by the built server in ${((Date.now() - t0) / 1000).toFixed(1)} s`);
    }

    // 1. The dump, and what it must hold.
    let dumpFile = values.dump ? resolve(values.dump) : null;
    let expected;
    const t1 = Date.now();
    if (!dumpFile) {
      const dumpDir = mkdtempSync(join(tmpdir(), 'amora-restore-drill-dump-'));
      cleanups.push(() => rmSync(dumpDir, { recursive: true, force: true }));
      dumpFile = join(dumpDir, 'amora.dump');
      const session = await snapshotSession(source);
      try {
        expected = await session.count();
        run('pg_dump', ['-Fc', `--snapshot=${session.snapshot}`, '-f', dumpFile, '-d', source]);
      } finally {
        await session.end();
      }
      report.steps.dump = { file: dumpFile, bytes: statSync(dumpFile).size, ms: Date.now() - t1, snapshot: session.snapshot };
      say(`  source       ${shown(source)}`);
      say(
        `  dump         pg_dump -Fc in ${((Date.now() - t1) / 1000).toFixed(1)} s, ${(statSync(dumpFile).size / 1e6).toFixed(1)} MB (snapshot ${session.snapshot})`,
      );
    } else if (source) {
      expected = JSON.parse(psql(source, COUNT_QUERY));
      report.steps.dump = { file: dumpFile, bytes: statSync(dumpFile).size };
      say(`  source       ${shown(source)} (counted now: it must not have changed since the dump)`);
      say(`  dump         ${dumpFile}, ${(statSync(dumpFile).size / 1e6).toFixed(1)} MB`);
    } else {
      expected = await countsInDump(dumpFile);
      report.steps.dump = { file: dumpFile, bytes: statSync(dumpFile).size, ms: Date.now() - t1 };
      say(`  dump         ${dumpFile}, ${(statSync(dumpFile).size / 1e6).toFixed(1)} MB (expected counts read from the dump's rows)`);
    }

    checkInterrupted();
    // 2. A fresh database, and the dump restored into it.
    const scratch = `amora_restore_drill_${id}`;
    const scratchUrl = databaseUrl(target, scratch);
    const t2 = Date.now();
    psql(adminUrl, `create database ${quote(scratch)}`);
    report.scratchDatabase = scratch;
    if (!values.keep) cleanups.push(() => psql(adminUrl, `drop database if exists ${quote(scratch)} with (force)`));
    run('pg_restore', ['--no-owner', '--no-privileges', '--exit-on-error', '-d', scratchUrl, dumpFile]);
    psql(scratchUrl, HOLD_JOBS);
    report.steps.restore = { ms: Date.now() - t2 };
    say(
      `  restored     into ${scratch} on ${shown(adminUrl).replace(/\/postgres$/, '')} in ${((Date.now() - t2) / 1000).toFixed(1)} s (jobs held)`,
    );

    checkInterrupted();
    // 3. The built server on it, with the installation's media store.
    const port = values.port ? Number(values.port) : await freePort();
    const t3 = Date.now();
    server = await startServer({
      env: serverEnv(process.env, { DATABASE_URL: scratchUrl, DATA_DIR: dataDir, PORT: String(port) }),
      port,
      readyTimeoutMs,
    });
    report.steps.server = { port, dataDir, ms: Date.now() - t3 };
    say(`  server       ready on 127.0.0.1:${port} in ${((Date.now() - t3) / 1000).toFixed(1)} s (DATA_DIR ${dataDir})`);

    checkInterrupted();
    // 4. The counts, and one photo through the server.
    const restored = JSON.parse(psql(scratchUrl, COUNT_QUERY));
    say('');
    say(`  ${'check'.padEnd(12)} ${'expected'.padStart(10)} ${'restored'.padStart(10)}`);
    for (const name of Object.keys(COUNTS)) {
      const ok = Number(expected[name]) === Number(restored[name]);
      report.counts[name] = { expected: Number(expected[name]), restored: Number(restored[name]), ok };
      if (!ok) report.problems.push(`${COUNT_LABELS[name]}: expected ${expected[name]}, restored ${restored[name]}`);
      say(
        `  ${COUNT_LABELS[name].padEnd(12)} ${String(expected[name]).padStart(10)} ${String(restored[name]).padStart(10)}  ${ok ? 'ok' : 'DIFFERENT'}`,
      );
    }
    const photoRow = psql(scratchUrl, PHOTO_QUERY);
    if (!photoRow) {
      if (Number(restored.photos) > 0) report.problems.push('photo: no main photo any visitor may see in the restored database');
      say(`  photo        ${Number(restored.photos) > 0 ? 'none a visitor may see  DIFFERENT' : 'none in the database: nothing to check'}`);
    } else {
      const photo = JSON.parse(photoRow);
      const answer = await get(port, `/api/photo.php?id=${photo.id}&v=large`, photo.host);
      const ok = answer.status === 200 && answer.type.startsWith('image/') && answer.body.length > 0;
      report.photo = { id: photo.id, host: photo.host, status: answer.status, contentType: answer.type, bytes: answer.body.length, ok };
      if (!ok) report.problems.push(`photo ${photo.id}: ${answer.status} ${answer.type}, ${answer.body.length} bytes`);
      say(
        `  photo        #${photo.id} on ${photo.host}: ${answer.status} ${answer.type}, ${(answer.body.length / 1024).toFixed(0)} KB  ${ok ? 'ok' : 'DIFFERENT'}`,
      );
    }
  } catch (error) {
    report.problems.push(error.message);
    server ??= error.server ?? null;
    if (error.server && !interrupted) say(`\nThe server's last output:\n${error.server.output().trim().split('\n').slice(-30).join('\n')}`);
  } finally {
    await server?.stop();
    for (const cleanup of cleanups.reverse()) {
      try {
        cleanup();
      } catch (error) {
        report.problems.push(`cleanup: ${error.message}`);
      }
    }
  }
  report.ok = report.problems.length === 0;
  report.ms = Date.now() - started;
  if (values.json) console.log(JSON.stringify(report));
  say('');
  for (const problem of report.problems) say(`  PROBLEM: ${problem}`);
  const where = report.scratchDatabase ? (values.keep ? `; database ${report.scratchDatabase} kept` : '; scratch database dropped') : '';
  say(`Restore drill ${report.ok ? 'passed' : 'FAILED'} in ${(report.ms / 1000).toFixed(1)} s${where}.`);
  return report.ok ? 0 : 1;
}

process.exitCode = await main();

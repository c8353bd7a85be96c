import { spawn } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { fileURLToPath } from 'node:url';
import { type Database, type DbHandle, jobSchedules, jobs as jobsTable, openDatabase } from '@amora/db';
import { eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { createTestApp, type TestApp } from '../test/harness';
import { adminUrl } from '../test/paths';
import { createJobs, DEFAULT_LEASE_MS, defineJobs, type Jobs } from './jobs';
import { claimJobs, completeJob, failJob, findJobs } from './jobs.repository';

let t: TestApp;
/** A second connection to the same database, as another server process has: its own pool on PostgreSQL. */
let other: { db: Database; close(): Promise<void> };
/** The test database's URL on PostgreSQL. */
let databaseUrl = '';
let now = new Date('2030-01-01T00:00:00Z');
const clock = () => now;
const advance = (ms: number) => {
  now = new Date(now.getTime() + ms);
};
const empty = z.object({});
/** The jobs of these tests, as the app's are listed in job-specs.ts. */
const TEST_JOBS = defineJobs({
  'test.record': { payload: z.object({ n: z.string() }) },
  'test.later': { payload: empty },
  'test.someone-else': { payload: empty },
  'test.effect': { payload: z.object({ order: z.number() }) },
  'test.killed': { payload: z.object({ order: z.number() }) },
  'test.many': { payload: z.object({ n: z.number() }) },
  'test.long': { payload: empty, leaseMs: 30 * 60_000 },
  'test.short': { payload: empty },
  'test.last': { payload: empty },
  'test.failing': { payload: empty, maxAttempts: 3 },
  'test.hourly': { payload: empty, everyMs: 3_600_000 },
  'test.loop': { payload: z.object({ wait: z.boolean() }) },
  'test.keyed': { payload: z.object({ n: z.number() }) },
});
type TestJobs = typeof TEST_JOBS;
const workers: Jobs<TestJobs>[] = [];

function worker(db: Database = t.ctx.db): Jobs<TestJobs> {
  const created = createJobs({ db, specs: TEST_JOBS, now: clock });
  workers.push(created);
  return created;
}

/**
 * Another server process on the test's PostgreSQL database: `body` runs with `jobs` (a worker on its own
 * connection, on the real clock) and `handle` in scope; what it writes to stdout comes back line by line.
 */
function workerProcess(body: string, onLine: (line: string) => void) {
  const code = `const { openDatabase } = await import('@amora/db');
const { createJobs } = await import(${JSON.stringify(fileURLToPath(new URL('./jobs.ts', import.meta.url)))});
const { z } = await import('zod');
const handle = await openDatabase({ url: ${JSON.stringify(databaseUrl)}, poolSize: 1 });
const specs = { 'test.killed': { payload: z.object({ order: z.number() }) }, 'test.tick': { payload: z.object({}), everyMs: 1000 } };
const jobs = createJobs({ db: handle.db, specs });
${body}`;
  const child = spawn(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', code], { stdio: ['pipe', 'pipe', 'pipe'] });
  let errors = '';
  let pending = '';
  child.stderr.on('data', (chunk) => {
    errors += chunk;
  });
  child.stdout.on('data', (chunk: Buffer) => {
    const lines = (pending + chunk.toString()).split('\n');
    pending = lines.pop() ?? '';
    for (const line of lines) onLine(line);
  });
  const exited = new Promise<number | null>((resolve) => child.once('exit', (exitCode) => resolve(exitCode)));
  return { child, exited, errors: () => errors };
}

beforeAll(async () => {
  t = await createTestApp();
  if (t.ctx.dbKind === 'postgres') {
    const result = (await t.ctx.db.execute(sql`select current_database() as name`)) as unknown as { rows: { name: string }[] };
    databaseUrl = adminUrl(process.env.TEST_DATABASE_URL as string, result.rows[0].name);
    const handle: DbHandle = await openDatabase({ url: databaseUrl, poolSize: 2 });
    other = { db: handle.db, close: () => handle.close() };
  } else {
    // PGlite is one process's database: a second worker there shares its connection.
    other = { db: t.ctx.db, close: async () => {} };
  }
});
afterAll(async () => {
  for (const w of workers) await w.stop();
  await other?.close();
  await t?.close();
});
beforeEach(async () => {
  await t.ctx.db.delete(jobsTable);
  await t.ctx.db.delete(jobSchedules);
});

describe('enqueue', () => {
  it('writes the job with the transaction: a rollback leaves none, a commit one that runs', async () => {
    const a = worker();
    const done: string[] = [];
    a.handle('test.record', async ({ n }) => {
      done.push(n);
    });
    await expect(
      t.ctx.db.transaction(async (tx) => {
        await a.enqueue(tx, 'test.record', { n: 'rolled back' });
        throw new Error('the change failed');
      }),
    ).rejects.toThrow('the change failed');
    expect(await findJobs(t.ctx.db)).toEqual([]);

    await t.ctx.db.transaction(async (tx) => {
      await a.enqueue(tx, 'test.record', { n: 'committed' });
    });
    expect(await findJobs(t.ctx.db)).toHaveLength(1);
    expect(await a.runDue()).toBe(1);
    expect(done).toEqual(['committed']);
    expect(await findJobs(t.ctx.db)).toEqual([]);
  });

  it('runs a job no earlier than its time, and leaves jobs of names it does not handle', async () => {
    const a = worker();
    let runs = 0;
    a.handle('test.later', async () => {
      runs++;
    });
    await a.enqueue(t.ctx.db, 'test.later', {}, { runAt: new Date(now.getTime() + 60_000) });
    await a.enqueue(t.ctx.db, 'test.someone-else', {});
    expect(await a.runDue()).toBe(0);
    advance(60_000);
    expect(await a.runDue()).toBe(1);
    expect(runs).toBe(1);
    expect((await findJobs(t.ctx.db)).map((j) => [j.name, j.status])).toEqual([['test.someone-else', 'queued']]);
  });
});

describe('payloads, dedupe keys and the clock', () => {
  it('checks a payload against its schema when enqueued and when run', async () => {
    const a = worker();
    const done: string[] = [];
    a.handle('test.record', async ({ n }) => {
      done.push(n);
    });
    // A wrong payload is a type error, and refused at runtime too (a cast, JSON from elsewhere).
    await expect(a.enqueue(t.ctx.db, 'test.record', { n: 7 } as unknown as { n: string })).rejects.toThrow(/payload does not match/);
    await expect(a.enqueue(t.ctx.db, 'test.nobody' as 'test.record', { n: 'x' })).rejects.toThrow(/unknown job/);
    expect(await findJobs(t.ctx.db)).toEqual([]);
    // A stored payload its schema refuses (written by hand, or by an older version) is dead at once, not retried.
    const [row] = await t.ctx.db
      .insert(jobsTable)
      .values({ name: 'test.record', payload: { n: 1 }, runAt: now })
      .returning();
    expect(await a.runDue()).toBe(1);
    expect(done).toEqual([]);
    const [job] = await findJobs(t.ctx.db);
    expect(job).toMatchObject({ id: row.id, status: 'dead', attempts: 1 });
    expect(job.lastError).toMatch(/payload refused by its schema: n:/);
  });

  it('a dedupe key keeps one pending job: enqueueing it again answers that job, once it is done a new one is made', async () => {
    const a = worker();
    let release = () => {};
    const gate = new Promise<void>((resolve) => {
      release = resolve;
    });
    const ran: number[] = [];
    a.handle('test.keyed', async ({ n }) => {
      ran.push(n);
      if (n === 1) await gate;
    });
    const first = await a.enqueue(t.ctx.db, 'test.keyed', { n: 1 }, { dedupeKey: 'k' });
    expect(await a.enqueue(t.ctx.db, 'test.keyed', { n: 2 }, { dedupeKey: 'k' })).toBe(first);
    const other = await a.enqueue(t.ctx.db, 'test.keyed', { n: 3 }, { dedupeKey: 'other' });
    expect(other).not.toBe(first);
    // Running still holds the key.
    const running = a.runNow(first as number);
    await expect.poll(() => ran).toEqual([1]);
    expect(await a.enqueue(t.ctx.db, 'test.keyed', { n: 4 }, { dedupeKey: 'k' })).toBe(first);
    release();
    expect(await running).toBe(true);
    // Done: the key is free again.
    const again = await a.enqueue(t.ctx.db, 'test.keyed', { n: 5 }, { dedupeKey: 'k' });
    expect(again).not.toBe(first);
    expect(await a.runDue()).toBe(2);
    expect(ran.sort()).toEqual([1, 3, 5]);
  });

  it('of 20 enqueues with one dedupe key at once, one makes the job and all answer its id', async () => {
    const a = worker();
    a.handle('test.keyed', async () => {});
    const ids = await Promise.all(Array.from({ length: 20 }, (_, n) => a.enqueue(t.ctx.db, 'test.keyed', { n }, { dedupeKey: 'at-once' })));
    const jobs = (await findJobs(t.ctx.db)).filter((job) => job.dedupeKey === 'at-once');
    expect(jobs).toHaveLength(1);
    expect(new Set(ids)).toEqual(new Set([jobs[0].id]));
  });

  it('enqueueMany writes several jobs in one statement, leaving out a key a pending job (or an earlier one) holds', async () => {
    const a = worker();
    const ran: number[] = [];
    a.handle('test.keyed', async ({ n }) => {
      ran.push(n);
    });
    await a.enqueue(t.ctx.db, 'test.keyed', { n: 1 }, { dedupeKey: 'many-held' });
    const written = await a.enqueueMany(t.ctx.db, 'test.keyed', [
      { payload: { n: 2 }, dedupeKey: 'many-held' },
      { payload: { n: 3 }, dedupeKey: 'many-new' },
      { payload: { n: 4 }, dedupeKey: 'many-new' },
      { payload: { n: 5 } },
      { payload: { n: 6 }, runAt: new Date(now.getTime() + 60_000) },
    ]);
    expect(written).toBe(3);
    expect(await a.runDue()).toBe(3);
    expect(ran.sort()).toEqual([1, 3, 5]);
    advance(60_000);
    expect(await a.runDue()).toBe(1);
    expect(ran.sort()).toEqual([1, 3, 5, 6]);
    await expect(a.enqueueMany(t.ctx.db, 'test.keyed', [{ payload: { n: 'x' } as unknown as { n: number } }])).rejects.toThrow(
      /payload does not match/,
    );
  });

  it('without a clock of its own, a worker judges due times and leases by the database clock', async () => {
    const dbNow = async () => {
      const result = (await t.ctx.db.execute(sql`select now() as now`)) as unknown as { rows: { now: Date | string }[] };
      return new Date(result.rows[0].now);
    };
    const real = createJobs({ db: t.ctx.db, specs: TEST_JOBS });
    workers.push(real);
    const ran: number[] = [];
    real.handle('test.effect', async ({ order }) => {
      ran.push(order);
    });
    // Enqueued with no time: due at the database's now, so it runs at once (this test's own clock is in 2030).
    await real.enqueue(t.ctx.db, 'test.effect', { order: 1 });
    // Due a minute from the database's now: not yet.
    await real.enqueue(t.ctx.db, 'test.effect', { order: 2 }, { runAt: new Date((await dbNow()).getTime() + 60_000) });
    expect(await real.runDue()).toBe(1);
    expect(ran).toEqual([1]);
    // A claim whose lease the database says is over is taken again; one it says still holds is not.
    const [late] = await findJobs(t.ctx.db, { name: 'test.effect' });
    const token = randomUUID();
    await t.ctx.db
      .update(jobsTable)
      .set({ status: 'running', lockedBy: token, lockedUntil: new Date((await dbNow()).getTime() + 60_000), runAt: new Date(0) })
      .where(eq(jobsTable.id, late.id));
    expect(await real.runDue()).toBe(0);
    await t.ctx.db
      .update(jobsTable)
      .set({ lockedUntil: new Date((await dbNow()).getTime() - 1_000) })
      .where(eq(jobsTable.id, late.id));
    expect(await real.runDue()).toBe(1);
    expect(ran).toEqual([1, 2]);
  });

  it('refuses a handler once its worker has started', () => {
    const a = createJobs({ db: t.ctx.db, specs: TEST_JOBS, now: clock, pollMs: 60_000 });
    workers.push(a);
    a.start();
    expect(() => a.handle('test.later', async () => {})).toThrow(/before the worker starts/);
  });
});

describe('a worker that dies mid-run', () => {
  it('keeps its lease until it runs out; then another worker runs the job, once, and the dead one cannot finish it', async () => {
    const effects: number[] = [];
    const handler = async ({ order }: { order: number }) => {
      effects.push(order);
    };
    const b = worker(other.db);
    b.handle('test.effect', handler);
    const id = await b.enqueue(t.ctx.db, 'test.effect', { order: 7 });

    // Worker A claims the job and dies before finishing: its claim is all that is left of it.
    const deadToken = randomUUID();
    const [claimed] = await claimJobs(t.ctx.db, { names: ['test.effect'], now, leaseMs: DEFAULT_LEASE_MS, token: deadToken, limit: 1 });
    expect(claimed).toMatchObject({ id, attempts: 1 });

    // While the lease holds, no one else takes it (nor runs it now).
    expect(await b.runDue()).toBe(0);
    expect(await b.runNow(id)).toBe(false);
    advance(DEFAULT_LEASE_MS - 1);
    expect(await b.runDue()).toBe(0);
    expect(effects).toEqual([]);

    // The lease is over: B runs it, as the job's second attempt.
    advance(1);
    const seen: number[] = [];
    b.handle('test.effect', async (payload, job) => {
      seen.push(job.attempt);
      await handler(payload);
    });
    expect(await b.runDue()).toBe(1);
    expect(seen).toEqual([2]);
    expect(effects).toEqual([7]);
    expect(await findJobs(t.ctx.db)).toEqual([]);

    // A comes back (it was only paused): finishing or failing under its old claim changes nothing.
    expect(await completeJob(t.ctx.db, id, deadToken)).toBe(false);
    expect(await failJob(t.ctx.db, id, deadToken, 'late', null)).toBe(false);
    advance(DEFAULT_LEASE_MS * 10);
    expect(await b.runDue()).toBe(0);
    expect(effects).toEqual([7]);
  });

  // A real second process on PostgreSQL (PGlite's database lives in one process): killed with SIGKILL mid-run.
  it.runIf(process.env.AMORA_TEST_DB === 'postgres')(
    'a server process killed mid-run: another process runs the job once its lease is over',
    async () => {
      const b = worker(other.db);
      const effects: number[] = [];
      b.handle('test.killed', async ({ order }, job) => {
        effects.push(order * 10 + job.attempt);
      });
      const startedAt = new Date();
      const id = await b.enqueue(t.ctx.db, 'test.killed', { order: 4 }, { runAt: startedAt });

      let started = () => {};
      const running = new Promise<void>((resolve) => {
        started = resolve;
      });
      const killed = workerProcess(
        `jobs.handle('test.killed', async (_payload, job) => { process.stdout.write('running ' + job.id + '\\n'); await new Promise(() => {}); });
await jobs.runDue();`,
        (line) => {
          if (line === `running ${id}`) started();
        },
      );
      await Promise.race([
        running,
        killed.exited.then((exitCode) => {
          throw new Error(`the worker process ended first (${exitCode}): ${killed.errors()}`);
        }),
      ]);
      killed.child.kill('SIGKILL');
      await killed.exited;

      const [held] = await findJobs(t.ctx.db, { name: 'test.killed' });
      expect(held).toMatchObject({ id, status: 'running', attempts: 1 });
      now = new Date(startedAt.getTime() + 1_000);
      expect(await b.runDue()).toBe(0);
      now = new Date((held.lockedUntil as Date).getTime());
      expect(await b.runDue()).toBe(1);
      expect(effects).toEqual([42]);
      expect(await findJobs(t.ctx.db)).toEqual([]);
    },
    30_000,
  );

  it('two workers claiming at once take different jobs, each job once', async () => {
    const a = worker();
    const b = worker(other.db);
    const runs = new Map<number, number>();
    const handler = async ({ n }: { n: number }) => {
      runs.set(n, (runs.get(n) ?? 0) + 1);
      await new Promise((resolve) => setTimeout(resolve, 2));
    };
    a.handle('test.many', handler);
    b.handle('test.many', handler);
    for (let n = 0; n < 20; n++) await a.enqueue(t.ctx.db, 'test.many', { n });
    const [ranA, ranB] = await Promise.all([a.runDue(), b.runDue()]);
    expect(ranA + ranB).toBe(20);
    expect([...runs.values()].every((count) => count === 1)).toBe(true);
    expect(runs.size).toBe(20);
  });

  it('a job of a handler with a longer lease is left to its worker for that long', async () => {
    const b = worker();
    const leases: Record<string, number> = {};
    const record = async (_payload: unknown, job: { id: number; name: string }) => {
      const [row] = (await findJobs(t.ctx.db)).filter((j) => j.id === job.id);
      leases[job.name] = (row.lockedUntil as Date).getTime() - now.getTime();
    };
    b.handle('test.long', record);
    b.handle('test.short', record);
    await b.enqueue(t.ctx.db, 'test.long', {});
    await b.enqueue(t.ctx.db, 'test.short', {});
    expect(await b.runDue()).toBe(2);
    expect(leases).toEqual({ 'test.long': 30 * 60_000, 'test.short': DEFAULT_LEASE_MS });

    // A worker that claimed both and died: the short one is taken again after 5 minutes, the long one after 30.
    await b.enqueue(t.ctx.db, 'test.long', {});
    await b.enqueue(t.ctx.db, 'test.short', {});
    const names = ['test.long', 'test.short'];
    const leaseByName = { 'test.long': 30 * 60_000 };
    await claimJobs(t.ctx.db, { names, now, leaseMs: DEFAULT_LEASE_MS, leaseByName, token: randomUUID(), limit: 2 });
    advance(DEFAULT_LEASE_MS);
    expect(await b.runDue()).toBe(1);
    advance(30 * 60_000 - DEFAULT_LEASE_MS - 1);
    expect(await b.runDue()).toBe(0);
    advance(1);
    expect(await b.runDue()).toBe(1);
  });

  it('a job whose last attempt died is dead, not run again', async () => {
    const b = worker(other.db);
    let runs = 0;
    b.handle('test.last', async () => {
      runs++;
    });
    const id = await b.enqueue(t.ctx.db, 'test.last', {}, { maxAttempts: 1 });
    await claimJobs(t.ctx.db, { names: ['test.last'], now, leaseMs: DEFAULT_LEASE_MS, token: randomUUID(), limit: 1 });
    advance(DEFAULT_LEASE_MS);
    expect(await b.runDue()).toBe(1);
    expect(runs).toBe(0);
    const [job] = await findJobs(t.ctx.db, { name: 'test.last' });
    expect(job).toMatchObject({ id, status: 'dead', attempts: 2 });
    expect(job.lastError).toMatch(/out of attempts/);
  });
});

describe('retries', () => {
  it('retries a failing job with growing waits, then keeps it as dead with its last error', async () => {
    const a = worker();
    const attempts: number[] = [];
    a.handle('test.failing', async (_payload, job) => {
      attempts.push(job.attempt);
      throw new Error(`SMTP said no (${job.attempt})`);
    });
    const id = await a.enqueue(t.ctx.db, 'test.failing', {});
    expect(await a.runDue()).toBe(1);
    let [job] = await findJobs(t.ctx.db);
    expect(job).toMatchObject({ id, status: 'queued', attempts: 1, lockedBy: null, lastError: 'Error: SMTP said no (1)' });
    expect(job.runAt.getTime() - now.getTime()).toBe(30_000);

    advance(29_999);
    expect(await a.runDue()).toBe(0);
    advance(1);
    expect(await a.runDue()).toBe(1);
    [job] = await findJobs(t.ctx.db);
    expect(job).toMatchObject({ status: 'queued', attempts: 2 });
    expect(job.runAt.getTime() - now.getTime()).toBe(60_000);

    advance(60_000);
    expect(await a.runDue()).toBe(1);
    [job] = await findJobs(t.ctx.db);
    expect(job).toMatchObject({ status: 'dead', attempts: 3, lockedBy: null, lastError: 'Error: SMTP said no (3)' });
    advance(86_400_000);
    expect(await a.runDue()).toBe(0);
    expect(attempts).toEqual([1, 2, 3]);

    // An operator sends it back to the queue (docs/operations.md): it runs again.
    await t.ctx.db.update(jobsTable).set({ status: 'queued', attempts: 0, runAt: now }).where(eq(jobsTable.id, id));
    expect(await a.runDue()).toBe(1);
    expect(attempts).toEqual([1, 2, 3, 1]);
  });
});

describe('recurring jobs', () => {
  it('run once per period across two workers on the same database', async () => {
    const runs: string[] = [];
    const a = worker();
    const b = worker(other.db);
    for (const [label, w] of [
      ['a', a],
      ['b', b],
    ] as const) {
      w.handle('test.hourly', async () => {
        runs.push(label);
      });
    }
    // The first period starts when a worker first looks.
    await Promise.all([a.runDue(), b.runDue()]);
    expect(runs).toHaveLength(1);
    for (let quarter = 1; quarter <= 12; quarter++) {
      advance(15 * 60_000);
      await Promise.all([a.runDue(), b.runDue(), a.runDue()]);
    }
    expect(runs).toHaveLength(4);
    const [schedule] = await t.ctx.db.select().from(jobSchedules).where(eq(jobSchedules.name, 'test.hourly'));
    expect(schedule.nextRunAt.getTime()).toBe(now.getTime() + 3_600_000);
  });

  it.runIf(process.env.AMORA_TEST_DB === 'postgres')(
    'run once per period across two server processes',
    async () => {
      // Each process looks every 50 ms for 3.5 s after "go"; the period is 1 s.
      const body = `jobs.handle('test.tick', async (_payload, job) => { process.stdout.write('ran ' + job.dueAt.getTime() + '\\n'); });
process.stdout.write('ready\\n');
await new Promise((resolve) => process.stdin.once('data', resolve));
const end = Date.now() + 3500;
let looks = 0;
while (Date.now() < end) { await jobs.runDue(); looks++; await new Promise((resolve) => setTimeout(resolve, 50)); }
process.stdout.write('looks ' + looks + '\\n');
await handle.close();
process.exit(0);`;
      const runs: { process: number; at: number }[] = [];
      const looks: number[] = [];
      let readyCount = 0;
      let allReady = () => {};
      const ready = new Promise<void>((resolve) => {
        allReady = resolve;
      });
      const processes = [0, 1].map((index) =>
        workerProcess(body, (line) => {
          if (line === 'ready' && ++readyCount === 2) allReady();
          if (line.startsWith('ran ')) runs.push({ process: index, at: Number(line.slice(4)) });
          if (line.startsWith('looks ')) looks.push(Number(line.slice(6)));
        }),
      );
      await ready;
      for (const { child } of processes) child.stdin?.write('go\n');
      const codes = await Promise.all(processes.map((p) => p.exited));
      expect(codes, processes.map((p) => p.errors()).join('\n')).toEqual([0, 0]);
      expect(looks.every((count) => count >= 10)).toBe(true);
      // Periods start at 0, 1, 2 and 3 s (a little later each, as a period starts when a look finds it due): 3 or 4
      // runs in 3.5 s, whichever process took each, and never two periods less than the period apart.
      runs.sort((x, y) => x.at - y.at);
      expect(runs.length).toBeGreaterThanOrEqual(3);
      expect(runs.length).toBeLessThanOrEqual(4);
      for (let i = 1; i < runs.length; i++) expect(runs[i].at - runs[i - 1].at).toBeGreaterThanOrEqual(1000);
      expect(await findJobs(t.ctx.db)).toEqual([]);
    },
    60_000,
  );

  it('a started worker runs due jobs by itself, and stop() waits for the one under way', async () => {
    const a = createJobs({ db: t.ctx.db, specs: TEST_JOBS, now: clock, pollMs: 20 });
    let finished = 0;
    let started = false;
    let release = () => {};
    const gate = new Promise<void>((resolve) => {
      release = resolve;
    });
    a.handle('test.loop', async ({ wait }) => {
      if (wait) {
        started = true;
        await gate;
      }
      finished++;
    });
    a.start();
    await a.enqueue(t.ctx.db, 'test.loop', { wait: false });
    a.wake();
    await expect.poll(() => finished, { timeout: 5_000 }).toBe(1);
    await a.enqueue(t.ctx.db, 'test.loop', { wait: true });
    await expect.poll(() => started, { timeout: 5_000 }).toBe(true);
    let stopped = false;
    const stopping = a.stop().then(() => {
      stopped = true;
    });
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(stopped).toBe(false);
    release();
    await stopping;
    expect(finished).toBe(2);
    expect(await findJobs(t.ctx.db)).toEqual([]);
  });

  it('stop() with releaseAfterMs releases the lease of a job still running, and another worker takes it at once', async () => {
    const a = createJobs({ db: t.ctx.db, specs: TEST_JOBS, now: clock, pollMs: 20 });
    let started = false;
    a.handle('test.long', async () => {
      started = true;
      await new Promise(() => {});
    });
    a.start();
    await a.enqueue(t.ctx.db, 'test.long', {});
    a.wake();
    await expect.poll(() => started, { timeout: 5_000 }).toBe(true);
    // Its lease holds for 30 minutes: without the release, another worker would wait that long.
    const b = worker(other.db);
    let ranOnB = 0;
    b.handle('test.long', async () => {
      ranOnB++;
    });
    expect(await b.runDue()).toBe(0);
    await a.stop({ releaseAfterMs: 50 });
    // A second stop() is the same stop.
    await a.stop();
    expect(await b.runDue()).toBe(1);
    expect(ranOnB).toBe(1);
    expect(await findJobs(t.ctx.db)).toEqual([]);
  });

  it('a job run at once (runNow) holds a slot while it runs, and the worker looks again as soon as it is done', async () => {
    // Polling once a minute: without a look after runNow, the queued jobs would wait for the next poll.
    const a = createJobs({ db: t.ctx.db, specs: TEST_JOBS, now: clock, pollMs: 60_000, concurrency: 1 });
    const done: number[] = [];
    let release = () => {};
    const gate = new Promise<void>((resolve) => {
      release = resolve;
    });
    a.handle('test.many', async ({ n }) => {
      if (n === 0) await gate;
      done.push(n);
    });
    a.start();
    const first = await a.enqueue(t.ctx.db, 'test.many', { n: 0 });
    const running = a.runNow(first);
    await a.enqueue(t.ctx.db, 'test.many', { n: 1 });
    await a.enqueue(t.ctx.db, 'test.many', { n: 2 });
    a.wake();
    await new Promise((resolve) => setTimeout(resolve, 100));
    // Its one slot is taken by the job run at once.
    expect(done).toEqual([]);
    release();
    await running;
    await expect.poll(() => done, { timeout: 5_000 }).toEqual([0, 1, 2]);
    await a.stop();
  });
});

import { execFile } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createMember, uploadPhoto } from './test/factories';
import { createTestApp, type TestApp } from './test/harness';
import { adminUrl } from './test/paths';

/**
 * `npm run restore-drill` (scripts/restore-drill.mjs) as an operator runs it, against real PostgreSQL and the built
 * server (apps/server/dist/main.mjs, built by the script when missing): a source database with a member, their photo
 * in the media store and their queued mail; the drill dumps, restores, serves and compares. Ports 4742–4744.
 */
const SCRIPT = new URL('../../../scripts/restore-drill.mjs', import.meta.url).pathname;

interface DrillReport {
  ok: boolean;
  scratchDatabase: string | null;
  counts: Record<string, { expected: number; restored: number; ok: boolean }>;
  photo: { id: number; status: number; contentType: string; bytes: number; ok: boolean } | null;
  problems: string[];
}

function drill(args: string[]): Promise<{ code: number; report: DrillReport; stderr: string }> {
  // The drill server inherits the environment: none of the test run's own database or Redis settings.
  const { DATABASE_URL: _db, REDIS_URL: _redis, DATA_DIR: _data, ...env } = process.env;
  return new Promise((resolve) => {
    execFile(
      process.execPath,
      [SCRIPT, '--json', ...args],
      { env, timeout: 280_000, maxBuffer: 16 * 1024 * 1024 },
      (error, stdout, stderr) => {
        const code = error ? (typeof error.code === 'number' ? error.code : 1) : 0;
        const line = stdout.trim().split('\n').at(-1) ?? '';
        resolve({
          code,
          report: line.startsWith('{') ? (JSON.parse(line) as DrillReport) : ({ problems: [stdout] } as DrillReport),
          stderr,
        });
      },
    );
  });
}

/** Rows of one query on the database at `url` (source, scratch or server), on a connection of its own. */
async function query<T extends Record<string, unknown>>(url: string, text: string, values: unknown[] = []): Promise<T[]> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    return (await client.query<T>(text, values)).rows;
  } finally {
    await client.end();
  }
}

async function databasesLike(url: string, pattern: string): Promise<string[]> {
  const rows = await query<{ datname: string }>(url, 'select datname from pg_database where datname like $1 order by 1', [pattern]);
  return rows.map((row) => row.datname);
}

describe.skipIf(process.env.AMORA_TEST_DB !== 'postgres')('npm run restore-drill', () => {
  let t: TestApp;
  let dataDir: string;
  let source: string;
  let photoId: number;

  beforeAll(async () => {
    dataDir = mkdtempSync(join(tmpdir(), 'amora-restore-drill-test-'));
    t = await createTestApp({ dataDir });
    source = t.shared.databaseUrl as string;
    const member = await createMember(t, { name: 'Restored Robin' });
    photoId = (await uploadPhoto(t, member, { seed: 7 })).id;
  }, 60_000);

  afterAll(async () => {
    await t?.close();
    rmSync(dataDir, { recursive: true, force: true });
  });

  it('restores a dump into a fresh database, serves it, finds the source counts and one photo, and drops it', async () => {
    const before = await databasesLike(source, 'amora_restore_drill_%');
    const { code, report, stderr } = await drill(['--source', source, '--data-dir', dataDir, '--port', '4742']);
    expect(report.problems, stderr).toEqual([]);
    expect(code).toBe(0);
    expect(Object.keys(report.counts)).toEqual(['members', 'profiles', 'photos', 'messages', 'ledgerRows', 'ledgerSum']);
    const [members] = await query<{ n: number }>(source, 'select count(*)::int as n from users');
    expect(report.counts.members).toEqual({ expected: members?.n, restored: members?.n, ok: true });
    expect(report.counts.photos?.restored).toBeGreaterThan(0);
    // The only photo a visitor may see is the member's main photo: served through the server's route.
    expect(report.photo).toMatchObject({ id: photoId, status: 200, contentType: 'image/webp', ok: true });
    expect(report.photo?.bytes).toBeGreaterThan(1000);
    expect(await databasesLike(source, 'amora_restore_drill_%')).toEqual(before);
  }, 300_000);

  it('holds every job of the restored database, so the drill server sends no mail again and runs no purge (--keep)', async () => {
    const [mail] = await query<{ id: string }>(source, 'select id from outbox_emails order by id desc limit 1');
    await t.ctx.jobs.enqueue(t.ctx.db, 'mail.send', { outboxId: Number(mail?.id) });
    await t.ctx.jobs.enqueue(t.ctx.db, 'accounts.purge', {});
    const queued = await query<{ id: string }>(source, `select id from jobs where status = 'queued' order by id`);
    const { code, report } = await drill(['--source', source, '--data-dir', dataDir, '--port', '4743', '--keep']);
    expect(report.problems).toEqual([]);
    expect(code).toBe(0);
    const scratch = report.scratchDatabase as string;
    const restored = adminUrl(source, scratch);
    try {
      const jobs = await query<{ id: string; status: string; attempts: number; year: number }>(
        restored,
        'select id, status, attempts, extract(year from run_at)::int as year from jobs order by id',
      );
      expect(jobs.map((row) => row.id)).toEqual(queued.map((row) => row.id));
      expect(jobs.every((row) => row.status === 'queued' && row.attempts === 0 && row.year === 9999)).toBe(true);
      // The drill server's worker made its recurring jobs' schedules at start: each held, none taken.
      const schedules = await query<{ name: string; year: number; last_run_at: Date | null }>(
        restored,
        'select name, extract(year from next_run_at)::int as year, last_run_at from job_schedules',
      );
      expect(schedules.map((row) => row.name)).toContain('accounts.purge');
      expect(schedules.every((row) => row.year === 9999 && row.last_run_at === null)).toBe(true);
      const mails = 'select id, status from outbox_emails order by id';
      const restoredMails = await query(restored, mails);
      expect(restoredMails.length).toBeGreaterThan(0);
      expect(restoredMails).toEqual(await query(source, mails));
    } finally {
      await query(adminUrl(source, 'postgres'), `drop database if exists "${scratch}" with (force)`);
    }
  }, 300_000);

  it('fails, naming what differs, when the dump no longer matches the source or the media store lacks the photo; a dump alone is checked against its own rows', async () => {
    const dumpDir = mkdtempSync(join(tmpdir(), 'amora-restore-drill-dump-'));
    const dump = join(dumpDir, 'amora.dump');
    try {
      await new Promise<void>((resolve, reject) =>
        execFile('pg_dump', ['-Fc', '-f', dump, '-d', source], (error) => (error ? reject(error) : resolve())),
      );
      await createMember(t, { name: 'After The Dump' });
      const emptyStore = join(dumpDir, 'empty-store');
      const { code, report } = await drill(['--source', source, '--dump', dump, '--data-dir', emptyStore, '--port', '4744']);
      expect(code).toBe(1);
      expect(report.counts.members?.ok).toBe(false);
      expect(report.counts.members?.restored).toBe((report.counts.members?.expected ?? 0) - 1);
      expect(report.photo).toMatchObject({ status: 404, ok: false });
      expect(report.problems).toEqual([
        expect.stringMatching(/^members: expected \d+, restored \d+$/),
        expect.stringMatching(/^profiles: /),
        // The new member's welcome credits.
        expect.stringMatching(/^ledger rows: /),
        expect.stringMatching(/^ledger sum: /),
        expect.stringMatching(/^photo \d+: 404/),
      ]);

      // Without --source the dump's own rows are what the restore must hold (a nightly dump of a busy database).
      const fromDump = await drill(['--dump', dump, '--target', source, '--data-dir', dataDir, '--port', '4744']);
      expect(fromDump.report.problems).toEqual([]);
      expect(fromDump.code).toBe(0);
      const restored = report.counts.members?.restored;
      expect(fromDump.report.counts.members).toEqual({ expected: restored, restored, ok: true });
      const sum = report.counts.ledgerSum?.restored;
      expect(fromDump.report.counts.ledgerSum).toEqual({ expected: sum, restored: sum, ok: true });
    } finally {
      rmSync(dumpDir, { recursive: true, force: true });
    }
  }, 300_000);
});

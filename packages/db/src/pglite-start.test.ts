import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, join } from 'node:path';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { type DbHandle, makePgliteTemplate, openDatabase, pgliteTemplateDir } from './client';

async function rows(handle: DbHandle, query: ReturnType<typeof sql>): Promise<Record<string, unknown>[]> {
  return ((await handle.db.execute(query)) as unknown as { rows: Record<string, unknown>[] }).rows;
}

describe('PGlite settings', () => {
  it('runs with 16 MB of shared buffers, not PostgreSQL’s default 128 MB (resident from the start)', async () => {
    const handle = await openDatabase({ dataDir: null, loadDataDir: new Blob([readFileSync(inject('pgliteTemplate'))]) });
    try {
      expect(await rows(handle, sql`show shared_buffers`)).toEqual([{ shared_buffers: '16MB' }]);
    } finally {
      await handle.close();
    }
  });
});

describe('the template of a new PGlite database', () => {
  let dir: string;
  let template: string;
  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'amora-pglite-template-'));
    template = pgliteTemplateDir(dir);
    await makePgliteTemplate(template);
  }, 300_000);
  afterAll(() => {
    rmSync(dir, { recursive: true, force: true });
  });

  it('is a cleanly shut down data directory in a folder named after the PGlite version', () => {
    expect(basename(template)).toMatch(/^pglite-\d+\.\d+\.\d+-template$/);
    expect(existsSync(join(template, 'PG_VERSION'))).toBe(true);
    expect(existsSync(join(template, 'postmaster.pid'))).toBe(false);
    expect(existsSync(`${template}.tmp`)).toBe(false);
  });

  it('is copied into an empty data directory, which then works as a database, and never over an existing one', async () => {
    // A file only the template has shows where a data directory came from.
    writeFileSync(join(template, 'made-from-template'), '');
    const dataDir = join(dir, 'data', 'db');
    const first = await openDatabase({ dataDir, template });
    try {
      expect(existsSync(join(dataDir, 'made-from-template'))).toBe(true);
      await first.db.execute(sql`create table notes (body text)`);
      await first.db.execute(sql`insert into notes values ('kept')`);
    } finally {
      await first.close();
    }

    rmSync(join(dataDir, 'made-from-template'));
    const again = await openDatabase({ dataDir, template });
    try {
      expect(existsSync(join(dataDir, 'made-from-template'))).toBe(false);
      expect(await rows(again, sql`select body from notes`)).toEqual([{ body: 'kept' }]);
    } finally {
      await again.close();
    }
  });
});

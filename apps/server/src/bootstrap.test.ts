import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { profiles } from '@amora/db';
import { count } from 'drizzle-orm';
import { pino } from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bootstrap, createDemoData } from './bootstrap';
import { loadConfig } from './config';

/** A first start on an empty data directory, with fewer demo members than `npm start` makes (the same code). */
let dataDir: string;
const config = () => loadConfig({ DATA_DIR: dataDir, PORT: '0' });
beforeAll(() => {
  dataDir = mkdtempSync(join(tmpdir(), 'amora-first-start-'));
});
afterAll(() => {
  rmSync(dataDir, { recursive: true, force: true });
});

describe('a first start', () => {
  it('shows the demo data being made as a few progress lines in a log, counting the portraits, and no log line', async () => {
    const written: string[] = [];
    await createDemoData(config(), { output: { isTTY: false, write: (text: string) => written.push(text) }, members: 24 });
    const lines = written.join('').split('\n').slice(0, -1);
    expect(lines.length).toBeGreaterThanOrEqual(3);
    expect(lines.length).toBeLessThanOrEqual(4);
    expect(lines[0]).toMatch(/^Creating the demo data \(first start only\): portrait 0 of \d+$/);
    expect(lines.at(-1)).toMatch(/^Demo data created: 24 members and \d+ chats, in \d+ s\.$/);
    // No JSON log line (pino's `{"level":30,…}`) among them.
    expect(lines.some((line) => line.startsWith('{'))).toBe(false);
  }, 180_000);

  it('then opens the database and logs nothing before the start lines', async () => {
    const logged: string[] = [];
    const log = pino({ level: 'info' }, { write: (line: string) => logged.push(line) });
    const runtime = await bootstrap(config(), { log });
    try {
      const [{ value }] = await runtime.ctx.db.select({ value: count() }).from(profiles);
      expect(value).toBeGreaterThanOrEqual(24);
      expect(runtime.seeded).toBe(false);
    } finally {
      await runtime.close();
    }
    expect(logged).toEqual([]);
  }, 120_000);
});

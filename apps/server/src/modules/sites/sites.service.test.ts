import { sites } from '@amora/db';
import { eq } from 'drizzle-orm';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { createTestApp, type TestApp } from '../../test/harness';
import { SiteDirectory } from './sites.service';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(() => t.close());
afterEach(async () => {
  vi.restoreAllMocks();
  await t.ctx.db.update(sites).set({ name: 'Amora' }).where(eq(sites.domain, 'amora.localhost'));
});

describe('SiteDirectory', () => {
  it('waits for the first load, then answers from memory', async () => {
    const directory = new SiteDirectory(t.ctx.db);
    expect(directory.forHostNow('amora.localhost')).toBeUndefined();
    expect((await directory.forHost('amora.localhost'))?.name).toBe('Amora');
    expect(directory.forHostNow('amora.localhost')?.name).toBe('Amora');
    expect(directory.forHostNow('AMORA.localhost:3000')?.name).toBe('Amora');
    expect(directory.forHostNow('www.herzklopfen.localhost')?.name).toBe('Herzklopfen');
  });

  it('keeps answering with sites older than 30 seconds while it reads them again in the background', async () => {
    const directory = new SiteDirectory(t.ctx.db);
    await directory.forHost('amora.localhost');
    const generation = directory.generation;
    await t.ctx.db.update(sites).set({ name: 'Amora Renamed' }).where(eq(sites.domain, 'amora.localhost'));
    const start = Date.now();
    vi.spyOn(Date, 'now').mockReturnValue(start + 31_000);
    // Stale, but answered at once; the reload has started.
    expect(directory.forHostNow('amora.localhost')?.name).toBe('Amora');
    await vi.waitFor(() => expect(directory.generation).toBe(generation + 1));
    expect(directory.forHostNow('amora.localhost')?.name).toBe('Amora Renamed');
  });

  it('after an invalidation, waits for fresh sites instead of answering with old ones', async () => {
    const directory = new SiteDirectory(t.ctx.db);
    await directory.forHost('amora.localhost');
    await t.ctx.db.update(sites).set({ name: 'Amora Changed' }).where(eq(sites.domain, 'amora.localhost'));
    directory.invalidate();
    expect(directory.forHostNow('amora.localhost')).toBeUndefined();
    expect((await directory.forHost('amora.localhost'))?.name).toBe('Amora Changed');
  });

  it('reads again when a change was announced while a read was running', async () => {
    const directory = new SiteDirectory(t.ctx.db);
    const first = directory.forHost('amora.localhost');
    // The change lands and is announced while the first read is under way.
    await t.ctx.db.update(sites).set({ name: 'Amora Later' }).where(eq(sites.domain, 'amora.localhost'));
    directory.invalidate();
    await first;
    expect((await directory.forHost('amora.localhost'))?.name).toBe('Amora Later');
  });
});

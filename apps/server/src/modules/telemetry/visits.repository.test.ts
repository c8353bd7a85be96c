import { siteVisits } from '@amora/db';
import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../test/harness';
import { addVisit, MAX_SOURCES_PER_DAY, OTHER_NETWORK } from './visits.repository';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(async () => {
  await t?.close();
});

describe('addVisit', () => {
  it('keeps a day of a site to a bounded number of sources: past it a new network counts as (other)', async () => {
    const [site] = await t.ctx.db.query.sites.findMany({ limit: 1 });
    const day = '2020-02-02';
    const key = { siteId: site.id, day, lander: 'video', slug: '' };
    await t.ctx.db
      .insert(siteVisits)
      .values(Array.from({ length: MAX_SOURCES_PER_DAY }, (_, i) => ({ ...key, network: `n${i}`, visits: 1 })));
    await addVisit(t.ctx.db, { ...key, network: 'n7' });
    await addVisit(t.ctx.db, { ...key, network: 'brand-new' });
    await addVisit(t.ctx.db, { ...key, network: 'another-new' });
    await addVisit(t.ctx.db, { ...key, network: '' });
    const rows = await t.ctx.db
      .select()
      .from(siteVisits)
      .where(and(eq(siteVisits.day, day), eq(siteVisits.siteId, site.id)));
    expect(rows).toHaveLength(MAX_SOURCES_PER_DAY + 2);
    expect(rows.find((r) => r.network === 'n7')?.visits).toBe(2);
    expect(rows.find((r) => r.network === 'brand-new')).toBeUndefined();
    expect(rows.find((r) => r.network === OTHER_NETWORK)?.visits).toBe(2);
    expect(rows.find((r) => r.network === '')?.visits).toBe(1);
  });

  it('counts a hundred visits at once, each once', async () => {
    const [site] = await t.ctx.db.query.sites.findMany({ limit: 1 });
    const key = { siteId: site.id, day: '2020-03-03', lander: '', slug: '', network: 'x' };
    await Promise.all(Array.from({ length: 100 }, () => addVisit(t.ctx.db, key)));
    const [row] = await t.ctx.db
      .select()
      .from(siteVisits)
      .where(and(eq(siteVisits.day, key.day), eq(siteVisits.siteId, site.id)));
    expect(row.visits).toBe(100);
  });
});

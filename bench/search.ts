// Member search on many profiles: 1,000,000 in PostgreSQL (TEST_DATABASE_URL or BENCH_DATABASE_URL) and
// 100,000 in PGlite. Latency p50/p95/p99 of the real search service for common filter sets, and page 1
// against page 100 (keyset). Targets: p95 <= 30 ms on PostgreSQL; page 100 within 1.5x of page 1.
// Run: npm run bench -- search   (writes bench/results/search.json)
import { writeFileSync } from 'node:fs';
import { migrateDatabase, openDatabase, seedDemo } from '@amora/db';
import { sql } from 'drizzle-orm';
import pg from 'pg';
import { hashPassword } from '../apps/server/src/lib/passwords';
import { search } from '../apps/server/src/modules/search/search.service';
import { SiteDirectory } from '../apps/server/src/modules/sites/sites.service';
import { fillProfiles } from './fill-profiles.mjs';

const FILTER_SETS: Record<string, Record<string, string>> = {
  'no filter': {},
  gender: { gender: 'woman' },
  'gender + country': { gender: 'woman', country: 'DE' },
  'gender + country + ages 30-45': { gender: 'man', country: 'NL', min_age: '30', max_age: '45' },
  'country + region': { country: 'FR', countryregion: 'FR-R3' },
  'ages 60-70': { min_age: '60', max_age: '70' },
};

const quantile = (sorted: number[], q: number) => sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))];
const stats = (ms: number[]) => {
  const s = [...ms].sort((a, b) => a - b);
  const r = (v: number) => Math.round(v * 100) / 100;
  return { p50: r(quantile(s, 0.5)), p95: r(quantile(s, 0.95)), p99: r(quantile(s, 0.99)), runs: s.length };
};

async function measure(label: string, url: string | null, count: number) {
  const handle = await openDatabase({ url, dataDir: null, poolSize: 4 });
  await migrateDatabase(handle);
  await seedDemo(handle.db, hashPassword);
  const started = Date.now();
  await fillProfiles((text: string) => handle.db.execute(sql.raw(text)), count);
  const fillMs = Date.now() - started;
  const sites = new SiteDirectory(handle.db);
  const site = await sites.get(1);
  if (!site) throw new Error('no site');
  const ctx = { db: handle.db, now: () => new Date() } as never;
  const viewer = null;
  const RUNS = Number(process.env.BENCH_RUNS ?? 60);

  const filters: Record<string, ReturnType<typeof stats>> = {};
  for (const [name, query] of Object.entries(FILTER_SETS)) {
    for (let i = 0; i < 5; i++) await search(ctx, site, viewer, query as never); // warm-up
    const times: number[] = [];
    for (let i = 0; i < RUNS; i++) {
      const t0 = performance.now();
      await search(ctx, site, viewer, query as never);
      times.push(performance.now() - t0);
    }
    filters[name] = stats(times);
  }

  // Page 100 by keyset: walk once to get its cursor, then time page 1 and page 100 the same way.
  const query = { gender: 'woman' };
  let cursor: string | null = null;
  for (let page = 1; page < 100; page++) {
    const res = await search(ctx, site, viewer, { ...query, cursor: cursor ?? undefined } as never);
    cursor = res.next_cursor;
  }
  const timePage = async (c: string | null) => {
    const times: number[] = [];
    for (let i = 0; i < RUNS; i++) {
      const t0 = performance.now();
      await search(ctx, site, viewer, { ...query, cursor: c ?? undefined } as never);
      times.push(performance.now() - t0);
    }
    return stats(times);
  };
  await timePage(null);
  const page1 = await timePage(null);
  const page100 = await timePage(cursor);

  const plan = (await handle.db.execute(
    sql.raw(
      `explain select id from profiles where site_id = 1 and status = 'active' and is_invisible = false and gender = 'woman' and country = 'DE' order by id desc limit 25`,
    ),
  )) as { rows: Record<string, string>[] };
  await handle.close();
  return {
    label,
    profiles: count,
    fillSeconds: Math.round(fillMs / 100) / 10,
    filters,
    page1,
    page100,
    page100Ratio: Math.round((page100.p50 / page1.p50) * 100) / 100,
    plan: plan.rows.map((r) => Object.values(r)[0]),
  };
}

async function main() {
  const results = [];
  const baseUrl = process.env.BENCH_DATABASE_URL ?? process.env.TEST_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/test';
  const admin = new pg.Client({ connectionString: baseUrl });
  try {
    await admin.connect();
    await admin.query('drop database if exists amora_bench with (force)');
    await admin.query('create database amora_bench');
    const url = new URL(baseUrl);
    url.pathname = '/amora_bench';
    results.push(await measure('PostgreSQL', url.toString(), Number(process.env.BENCH_PROFILES ?? 1_000_000)));
    await admin.query('drop database if exists amora_bench with (force)');
  } catch (error) {
    console.error(`PostgreSQL part skipped: ${(error as Error).message}`);
  } finally {
    await admin.end().catch(() => {});
  }
  results.push(await measure('PGlite', null, Number(process.env.BENCH_PGLITE_PROFILES ?? 100_000)));

  for (const r of results) {
    console.log(`\nMember search on ${r.label}, ${r.profiles.toLocaleString('en')} profiles (filled in ${r.fillSeconds} s):`);
    for (const [name, s] of Object.entries(r.filters))
      console.log(`  ${name.padEnd(32)} p50 ${s.p50} ms  p95 ${s.p95} ms  p99 ${s.p99} ms`);
    console.log(`  page 1   p50 ${r.page1.p50} ms  p95 ${r.page1.p95} ms`);
    console.log(`  page 100 p50 ${r.page100.p50} ms  p95 ${r.page100.p95} ms  (ratio ${r.page100Ratio}, target <= 1.5)`);
    console.log(`  plan (gender + country): ${r.plan.join(' | ')}`);
  }
  writeFileSync('bench/results/search.json', `${JSON.stringify({ at: new Date().toISOString(), results }, null, 2)}\n`);
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});

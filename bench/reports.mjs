// Business reports over a year with 1,000,000 members in PostgreSQL (BENCH_DATABASE_URL or TEST_DATABASE_URL; its
// database amora_bench_reports is made and dropped). Generated in SQL with generate_series: 1,000,000 members who
// signed up over two years (70 % activated), 2,000 fictional profiles, 250,000 paid orders in 2025 (1 % charged
// back, 0.4 % refunded), 500,000 conversations with 5,000,000 messages and 2,000,000 likes in 2025, and visits per
// day, lander and network. Then the rollup of closed days is built as the nightly job builds it (timed, twice), and
// the real report service (modules/reports) runs for the whole of 2025 and every site, 20 runs (one site and one
// month: 5 runs); one year is also read once without the rollup, as before it exists.
// Target: p95 <= 1,000 ms. Run: npm run bench -- reports   (writes bench/results/reports.json). About 5 minutes.
import { migrateDatabase, openDatabase, seedDemo } from '@amora/db';
import { sql } from 'drizzle-orm';
import pg from 'pg';
import { hashPassword } from '../apps/server/src/lib/passwords';
import { businessReport } from '../apps/server/src/modules/reports/reports.service';
import { rebuildReportRollup } from '../apps/server/src/modules/reports/rollup.service';
import { SiteDirectory } from '../apps/server/src/modules/sites/sites.service';

const DB_NAME = 'amora_bench_reports';
const MEMBERS = 1_000_000;
const FICTIONAL = 2_000;
const ORDERS = 250_000;
const CONVERSATIONS = 500_000;
const MESSAGES = 5_000_000;
const LIKES = 2_000_000;
const RUNS = 20;
/** Fewer runs for the one-site year and the month: the whole year of every site is the figure that counts. */
const SIDE_RUNS = 5;
const TARGET_MS = 1_000;

const percentile = (sorted, p) => sorted[Math.min(sorted.length - 1, Math.floor(p * sorted.length))];
const round = (ms) => Math.round(ms * 10) / 10;

/** The rows of a year, in SQL: one statement per table. */
async function fill(run, siteIds) {
  const [a, b] = siteIds;
  const site = (i) => `(case when ${i} % 3 = 0 then ${b} else ${a} end)`;
  // Three in five members came through a lander from one of 40 networks (as the visits below), the others directly.
  await run(`insert into users (site_id, email, password_hash, status, date_of_birth, signup_date, confirmed_at, tracking, trafficsource)
    select ${site('i')}, 'bench' || i || '@bench.example', 'x', case when i % 10 < 7 then 'confirmed' else 'not_confirmed' end,
      '1990-01-01', timestamptz '2024-01-01' + (i * interval '63072 seconds' / 1000),
      case when i % 10 < 7 then timestamptz '2024-01-01' + (i * interval '63072 seconds' / 1000) + interval '2 hours' end,
      case when i % 5 < 3 then jsonb_build_object('lander', 'video', 'slug', 'eng', 'network', 'network' || (1 + i % 40)) else '{}' end,
      case when i % 5 < 3 then 'network' || (1 + i % 40) end
    from generate_series(1, ${MEMBERS}) i`);
  await run(`insert into profiles (user_id, site_id, name, country, status, birth_date)
    select id, site_id, 'Member', 'DE', 'active', '1990-01-01' from users where email like 'bench%'`);
  await run(`insert into profiles (site_id, name, country, status, birth_date, is_fictional)
    select ${site('i')}, 'Fictional', 'DE', 'active', '1990-01-01', true from generate_series(1, ${FICTIONAL}) i`);
  await run(`create temp table bench_members as
    select row_number() over (order by p.id) as n, p.id as profile_id, p.user_id, p.site_id from profiles p where not p.is_fictional and p.name = 'Member'`);
  await run(`create temp table bench_fictional as
    select row_number() over (order by p.id) as n, p.id as profile_id, p.site_id from profiles p where p.is_fictional and p.name = 'Fictional'`);
  await run('create index on bench_members (n)');
  await run('create index on bench_fictional (n)');
  // Orders: a tenth of the members buy, some of them again; every order paid in 2025.
  await run(`insert into payment_orders (site_id, user_id, package_id, country, credits, currency, list_price_minor, amount_minor,
      method, provider, provider_payment_id, status, paid_at, charged_back_at)
    select m.site_id, m.user_id, (select min(id) from credit_packages c where c.site_id = m.site_id), 'DE', 10,
      case when i % 5 = 0 then 'CHF' else 'EUR' end, 999, 999, 'ideal', 'bench', 'b' || i,
      case when i % 100 = 0 then 'charged_back' else 'paid' end,
      timestamptz '2025-01-01' + (i * interval '31536 seconds' / ${ORDERS / 1000}),
      case when i % 100 = 0 then timestamptz '2025-01-01' + (i * interval '31536 seconds' / ${ORDERS / 1000}) + interval '20 days' end
    from generate_series(1, ${ORDERS}) i join bench_members m on m.n = 1 + (i * 7919) % ${MEMBERS / 10}`);
  await run(`insert into payment_events (order_id, status, created_at)
    select id, 'refunded:500', paid_at + interval '3 days' from payment_orders where provider = 'bench' and id % 250 = 7`);
  // Conversations between a member and a fictional profile; messages spread over 2025, taking turns.
  await run(`insert into conversations (site_id, profile_low_id, profile_high_id, started_by_profile_id)
    select m.site_id, least(m.profile_id, f.profile_id), greatest(m.profile_id, f.profile_id), m.profile_id
    from generate_series(1, ${CONVERSATIONS}) i
    join bench_members m on m.n = 1 + (i * 13) % ${MEMBERS}
    join bench_fictional f on f.n = 1 + i % ${FICTIONAL}
    on conflict do nothing`);
  await run(`create temp table bench_conversations as
    select row_number() over (order by c.id) - 1 as n, c.id, c.started_by_profile_id as member,
      case when c.profile_low_id = c.started_by_profile_id then c.profile_high_id else c.profile_low_id end as fictional
    from conversations c`);
  await run('create index on bench_conversations (n)');
  const conversations = Number((await run('select count(*) as n from bench_conversations')).rows[0].n);
  await run(`insert into messages (conversation_id, seq, sender_profile_id, body, client_id, created_at)
    select c.id, i / ${conversations} + 1, case when (i / ${conversations}) % 2 = 0 then c.member else c.fictional end, 'Hello', 'b' || i,
      timestamptz '2025-01-01' + (i * interval '31536 seconds' / ${MESSAGES / 1000})
    from generate_series(0, ${MESSAGES - 1}) i join bench_conversations c on c.n = i % ${conversations}`);
  await run(`insert into likes (liker_profile_id, liked_profile_id, source, created_at)
    select a.profile_id, b.profile_id, 'search', timestamptz '2025-01-01' + (i * interval '31536 seconds' / ${LIKES / 1000})
    from generate_series(0, ${LIKES - 1}) i
    join bench_members a on a.n = 1 + i % ${MEMBERS}
    join bench_members b on b.n = 1 + (i % ${MEMBERS} + 1 + i / ${MEMBERS}) % ${MEMBERS}`);
  // Visits: every day of 2025, 40 landers, slugs and networks per site.
  await run(`insert into site_visits (day, site_id, lander, slug, network, visits)
    select d::date, s, 'video', 'eng', 'network' || n, 20 + (n * 37 + extract(doy from d)::int) % 200
    from generate_series(date '2025-01-01', date '2025-12-31', interval '1 day') d, unnest(array[${a}, ${b}]) s, generate_series(1, 40) n`);
  await run('vacuum analyze');
}

async function timeReports(ctx, query, runs = RUNS) {
  const ms = [];
  await businessReport(ctx, query); // warm
  for (let i = 0; i < runs; i++) {
    const started = performance.now();
    await businessReport(ctx, query);
    ms.push(performance.now() - started);
  }
  ms.sort((x, y) => x - y);
  return { p50: round(percentile(ms, 0.5)), p95: round(percentile(ms, 0.95)), max: round(ms.at(-1)), runs };
}

export async function runReportsBenchmark() {
  const baseUrl = process.env.BENCH_DATABASE_URL ?? process.env.TEST_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';
  const admin = new pg.Client({ connectionString: baseUrl });
  await admin.connect();
  await admin.query(`drop database if exists ${DB_NAME}`);
  await admin.query(`create database ${DB_NAME}`);
  const url = new URL(baseUrl);
  url.pathname = `/${DB_NAME}`;
  const handle = await openDatabase({ url: url.toString(), dataDir: null, poolSize: 8 });
  try {
    await migrateDatabase(handle);
    const fillStarted = Date.now();
    await seedDemo(handle.db, hashPassword);
    const run = async (text) => handle.db.execute(sql.raw(text));
    const siteIds = (await run('select id from sites order by id limit 2')).rows.map((r) => Number(r.id));
    await fill(run, siteIds);
    const fillSeconds = Math.round((Date.now() - fillStarted) / 1000);
    const ctx = { db: handle.db, now: () => new Date('2026-01-01T00:00:00Z'), sites: new SiteDirectory(handle.db) };
    const year = { from: '2025-01-01', to: '2025-12-31' };
    // As before the first rebuild: every day counted live, once.
    const liveStarted = performance.now();
    await businessReport(ctx, year);
    const yearLiveMs = round(performance.now() - liveStarted);
    // The nightly job's rebuild of the last 400 closed days, twice (the second as it runs every night after).
    const rollupRebuildMs = [];
    for (let i = 0; i < 2; i++) {
      const started = performance.now();
      const rebuilt = await rebuildReportRollup(ctx, { force: true });
      if (!rebuilt.rebuilt) throw new Error('the rollup was not rebuilt');
      rollupRebuildMs.push(round(performance.now() - started));
    }
    const all = await timeReports(ctx, year);
    const one = await timeReports(ctx, { ...year, site: siteIds[0] }, SIDE_RUNS);
    const month = await timeReports(ctx, { from: '2025-06-01', to: '2025-06-30' }, SIDE_RUNS);
    const volumes = {
      members: MEMBERS,
      fictional: FICTIONAL,
      orders: ORDERS,
      conversations: CONVERSATIONS,
      messages: MESSAGES,
      likes: LIKES,
    };
    return {
      volumes,
      fillSeconds,
      rollupRebuildMs,
      yearAllSitesWithoutRollup: { ms: yearLiveMs, runs: 1 },
      yearAllSites: all,
      yearOneSite: one,
      monthAllSites: month,
      targetMs: TARGET_MS,
      pass: all.p95 <= TARGET_MS,
    };
  } finally {
    await handle.close();
    await admin.query(`drop database if exists ${DB_NAME}`);
    await admin.end();
  }
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const { writeFileSync, mkdirSync } = await import('node:fs');
  const result = await runReportsBenchmark();
  mkdirSync('bench/results', { recursive: true });
  writeFileSync('bench/results/reports.json', `${JSON.stringify({ at: new Date().toISOString(), ...result }, null, 2)}\n`);
  const line = (name, r) => `  ${name.padEnd(26)} p50 ${r.p50} ms   p95 ${r.p95} ms   max ${r.max} ms   (${r.runs} runs)`;
  console.log(
    `\nBusiness reports, PostgreSQL (${result.volumes.members.toLocaleString('en')} members, ${result.volumes.orders.toLocaleString('en')} orders, ${result.volumes.messages.toLocaleString('en')} messages, ${result.volumes.likes.toLocaleString('en')} likes; filled in ${result.fillSeconds} s):`,
  );
  console.log(`  rollup rebuild (400 days)    ${result.rollupRebuildMs.join(' ms, ')} ms`);
  console.log(`  2025, every site, no rollup  ${result.yearAllSitesWithoutRollup.ms} ms   (1 run)`);
  console.log(line('2025, every site', result.yearAllSites));
  console.log(line('2025, one site', result.yearOneSite));
  console.log(line('June 2025, every site', result.monthAllSites));
  console.log(`  target p95 <= ${result.targetMs} ms for a year: ${result.pass ? 'PASS' : 'FAIL'}`);
}

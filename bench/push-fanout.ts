// Web Push fan-out: 10,000 members with a push subscription each (PGlite, in memory), one push to each through
// the real push.notify handler (modules/push notifyByPush: preferences, presence, counts, the encryption and
// VAPID signature of web-push, the POST) against a local receiver on 127.0.0.1 that answers 201 and decrypts a
// sample. Reports the time for all of them, pushes per second, the per-push latency p50/p99 and the process's
// memory (RSS and heap before and after, and the peak RSS seen), at the worker's concurrency (2 jobs at a time,
// lib/jobs.ts) and at 16, so the ratio says what the worker's limit costs. Then the time from a message's notice
// to its push at the receiver through the job worker, p50/p99 over 100.
// Run: npm run bench -- push   (or node --expose-gc --import tsx bench/push-fanout.ts; writes bench/results/push-fanout.json)
// BENCH_PUSH_MEMBERS changes the number of members (default 10,000).
import { mkdirSync, writeFileSync } from 'node:fs';
import { migrateDatabase, openDatabase, seedDemo } from '@amora/db';
import { sql } from 'drizzle-orm';
import { loadConfig } from '../apps/server/src/config';
import type { AppContext } from '../apps/server/src/context';
import { JOBS } from '../apps/server/src/job-specs';
import { createJobs } from '../apps/server/src/lib/jobs';
import { createMetrics } from '../apps/server/src/lib/metrics';
import { hashPassword } from '../apps/server/src/lib/passwords';
import { noticeMessage } from '../apps/server/src/modules/notifications/notifications.service';
import { notifyByPush, vapidKeys } from '../apps/server/src/modules/push/push.service';
import { browserSubscription, startPushReceiver } from '../apps/server/src/modules/push/push-receiver';
import { SiteDirectory } from '../apps/server/src/modules/sites/sites.service';

const MEMBERS = Number(process.env.BENCH_PUSH_MEMBERS ?? 10_000);
const LEVELS = [2, 16];
const LATENCY_RUNS = 100;

const quantile = (sorted: number[], q: number) => sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))];
const mb = (bytes: number) => Math.round(bytes / 1024 / 102.4) / 10;

async function main() {
  const handle = await openDatabase({ dataDir: null });
  await migrateDatabase(handle);
  await seedDemo(handle.db, hashPassword);
  const receiver = await startPushReceiver();
  receiver.keep = false;
  // Every subscription shares one browser key pair (their endpoints differ): the receiver can decrypt any push.
  const browser = browserSubscription(`${receiver.origin}/push/0`);
  const { p256dh, auth } = browser.json.keys;

  const fillStart = performance.now();
  const users = (await handle.db.execute(
    sql.raw(`insert into users (site_id, email, password_hash, date_of_birth, language)
      select 1, 'push-bench-' || n || '@amora.example', 'x', '1990-01-01', 'en' from generate_series(1, ${MEMBERS}) n returning id`),
  )) as { rows: { id: number }[] };
  await handle.db.execute(
    sql.raw(`insert into profiles (site_id, user_id, name, country, birth_date, status)
      select 1, u.id, 'Bench ' || u.id, 'NL', '1990-01-01', 'active' from users u where u.email like 'push-bench-%'`),
  );
  await handle.db.execute(
    sql.raw(`insert into push_subscriptions (user_id, site_id, endpoint, p256dh, auth)
      select u.id, 1, '${receiver.origin}/push/' || u.id, '${p256dh}', '${auth}' from users u where u.email like 'push-bench-%'`),
  );
  const fillSeconds = Math.round((performance.now() - fillStart) / 100) / 10;
  const userIds = users.rows.map((row) => Number(row.id));
  const [sender] = ((await handle.db.execute(sql.raw(`select id from profiles order by id limit 1`))) as { rows: { id: number }[] }).rows;

  const ctx = {
    config: loadConfig({ NODE_ENV: 'test' }),
    db: handle.db,
    sites: new SiteDirectory(handle.db),
    metrics: createMetrics(),
    now: () => new Date(),
  } as unknown as AppContext;
  await vapidKeys(ctx);

  let checked = false;
  receiver.onPush = (push) => {
    if (checked) return;
    checked = true;
    const payload = JSON.parse(browser.decrypt(push.body));
    if (!String(payload.body).endsWith('sent you a message')) throw new Error(`unexpected push: ${payload.body}`);
  };

  const results = [];
  for (const concurrency of LEVELS) {
    global.gc?.();
    const before = process.memoryUsage();
    let peakRss = before.rss;
    const sampler = setInterval(() => {
      peakRss = Math.max(peakRss, process.memoryUsage().rss);
    }, 50);
    const latencies: number[] = [];
    let next = 0;
    const started = performance.now();
    await Promise.all(
      Array.from({ length: concurrency }, async () => {
        while (next < userIds.length) {
          const userId = userIds[next++];
          const t0 = performance.now();
          await notifyByPush(ctx, {
            userId,
            type: 'new_messages',
            event: 'message',
            fromProfileId: Number(sender.id),
            conversationId: userId,
          });
          latencies.push(performance.now() - t0);
        }
      }),
    );
    const seconds = (performance.now() - started) / 1000;
    clearInterval(sampler);
    const after = process.memoryUsage();
    latencies.sort((a, b) => a - b);
    results.push({
      concurrency,
      pushes: latencies.length,
      seconds: Math.round(seconds * 10) / 10,
      perSecond: Math.round(latencies.length / seconds),
      p50Ms: Math.round(quantile(latencies, 0.5) * 10) / 10,
      p99Ms: Math.round(quantile(latencies, 0.99) * 10) / 10,
      rssMbBefore: mb(before.rss),
      rssMbAfter: mb(after.rss),
      rssMbPeak: mb(peakRss),
      heapMbAfter: mb(after.heapUsed),
    });
  }
  // From a message to its push: the notice enqueued in its unit of work as a chat message enqueues it
  // (notifications noticeMessage), the worker woken by the commit, the push at the receiver. One at a time.
  const jobs = createJobs({ db: handle.db, specs: JOBS });
  jobs.handle('push.notify', (payload) => notifyByPush(ctx, payload));
  jobs.start();
  Object.assign(ctx, { jobs });
  const [recipient] = (
    (await handle.db.execute(sql.raw(`select id from profiles where user_id = ${userIds[1]}`))) as { rows: { id: number }[] }
  ).rows;
  const delays: number[] = [];
  for (let i = 0; i < LATENCY_RUNS; i++) {
    const arrived = new Promise<number>((resolve) => {
      receiver.onPush = (push) => resolve(push.at);
    });
    const t0 = performance.now();
    await noticeMessage(ctx, {
      recipientProfileId: Number(recipient.id),
      senderProfileId: Number(sender.id),
      conversationId: 1,
      isNewConversation: false,
    });
    delays.push((await arrived) - t0);
  }
  await jobs.stop();
  delays.sort((a, b) => a - b);
  const latency = {
    runs: delays.length,
    p50Ms: Math.round(quantile(delays, 0.5) * 10) / 10,
    p99Ms: Math.round(quantile(delays, 0.99) * 10) / 10,
  };

  await receiver.close();
  await handle.close();

  const ratio = Math.round((results[0].seconds / results[results.length - 1].seconds) * 10) / 10;
  const out = { members: MEMBERS, fillSeconds, levels: results, ratioWorkerToWide: ratio, messageToPush: latency };
  mkdirSync('bench/results', { recursive: true });
  writeFileSync('bench/results/push-fanout.json', `${JSON.stringify(out, null, 2)}\n`);
  console.log(`\nPush fan-out to ${MEMBERS.toLocaleString('en')} subscribed members (PGlite, local receiver; filled in ${fillSeconds} s):`);
  for (const r of results) {
    console.log(
      `  ${String(r.concurrency).padStart(2)} at a time: ${r.seconds} s (${r.perSecond}/s), per push p50 ${r.p50Ms} ms p99 ${r.p99Ms} ms; RSS ${r.rssMbBefore} → ${r.rssMbAfter} MB (peak ${r.rssMbPeak}), heap ${r.heapMbAfter} MB`,
    );
  }
  console.log(`  the worker's 2 at a time takes ${ratio}x the time of 16 at a time`);
  console.log(
    `  from a message's notice to its push at the receiver (the worker woken by the commit): p50 ${latency.p50Ms} ms, p99 ${latency.p99Ms} ms over ${latency.runs}`,
  );
}

await main();

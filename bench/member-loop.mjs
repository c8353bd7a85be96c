// The member loop under load: two server processes on one PostgreSQL database and Redis, a fixed number of
// virtual members (a closed loop, no pause between steps), each with its live socket open on its process (half
// the members on A, half on B) and, one loop after another: a search (the opposite gender, in their country, 25 to
// 45) → one profile of the results opened (member.php) → liked → a message to it (or, for a free member who has
// started their two conversations, to one of those) → every BENCH_LOOP_BUY_EVERY-th loop a credit package
// bought on the payment sandbox: the order, the checkout paid (its webhook comes from a job 1.5 s later, as
// Mollie's does after the redirect), then the return page's question every 2 s until the order is paid.
// The profiles to find: the members themselves (NL and BE, women and men, all ages 36) and fictional profiles
// (aged 25 to 45, in the same countries; a message to one goes to the operators' queue).
// Figures: loops per second; members served per core (loops per second ÷ the CPU cores the two processes used,
// from /proc/<pid>/stat, with PostgreSQL's backends of the database beside); p50/p99 per step; errors (any
// answer but 2xx, the checkout's 303 and an order not paid within 60 s: no business refusal is expected, as the
// members have the credits and a free member writes only where they may); each process's resident memory every
// 10 s (with V8's heap, the event loop's delay and the queries waiting for a connection, from its /metrics) and
// the slope of its floor (each minute's lowest sample) over the last half (linear regression, MB per minute):
// "flat" below 1 MB/min or 2 % growth.
// The first 10 % of the run (at most 30 s) warms up: not in the figures but for the memory series.
// Run: npm run bench -- member-loop   (builds the server first; writes bench/results/member-loop.json)
// BENCH_LOOP_SECONDS (600) long, BENCH_LOOP_MEMBERS (50) virtual members, BENCH_LOOP_FICTIONAL (100) fictional
// profiles, BENCH_LOOP_BUY_EVERY (10). BENCH_DATABASE_URL (or TEST_DATABASE_URL) names the PostgreSQL server (its
// database amora_bench_loop is made and dropped), BENCH_REDIS_URL (or TEST_REDIS_URL, default
// redis://127.0.0.1:6379) Redis. Ports 4800 and 4801, or from BENCH_LOOP_PORT.

import { randomBytes, randomUUID } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { Agent, request } from 'node:http';
import { availableParallelism } from 'node:os';
import pg from 'pg';
import WebSocket from 'ws';
import { makeMembers, stop } from './chat.mjs';
import { cpuSeconds, postgresCpu, rssMb } from './proc.mjs';
import { startAmora } from './servers.mjs';
import { twoProcessSetup } from './two-processes.mjs';

const HOST = 'amora.localhost';
const PORT = Number(process.env.BENCH_LOOP_PORT ?? 4800);
const SECONDS = Number(process.env.BENCH_LOOP_SECONDS ?? 600);
const MEMBERS = Number(process.env.BENCH_LOOP_MEMBERS ?? 50);
const FICTIONAL = Number(process.env.BENCH_LOOP_FICTIONAL ?? 100);
const BUY_EVERY = Number(process.env.BENCH_LOOP_BUY_EVERY ?? 10);
const WARM_UP_S = Math.min(30, Math.round(SECONDS / 10));
const SAMPLE_MS = 10_000;
/** The return page asks for its order this often (apps/web, useTransaction). */
const ORDER_POLL_MS = 2_000;
const ORDER_PAID_WITHIN_MS = 60_000;
const FLAT = { mbPerMinute: 1, growthPercent: 2 };
const COUNTRIES = ['NL', 'BE'];
const STEPS = ['search', 'profile', 'like', 'message', 'order', 'checkout', 'order status'];

const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));
const percentile = (sorted, p) => (sorted.length ? sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] : null);
const round1 = (n) => (n === null ? null : Math.round(n * 10) / 10);
const round2 = (n) => Math.round(n * 100) / 100;

const METRICS_TOKEN = randomBytes(16).toString('hex');

/**
 * A few of the process's own figures from its /metrics: V8's heap in use (MB), the event loop's delay p99 (ms,
 * prom-client's, over its last interval) and the queries waiting for a database connection.
 */
async function scrape(port) {
  try {
    const res = await fetch(`http://127.0.0.1:${port}/metrics`, {
      headers: { authorization: `Bearer ${METRICS_TOKEN}` },
      signal: AbortSignal.timeout(5_000),
    });
    const text = await res.text();
    const value = (pattern) => {
      const line = text.split('\n').find((l) => pattern.test(l));
      return line ? Number(line.split(' ').at(-1)) : null;
    };
    const heap = value(/^nodejs_heap_size_used_bytes /);
    const lag = value(/^nodejs_eventloop_lag_p99_seconds /);
    return {
      heapMb: heap === null ? null : Math.round(heap / 1048576),
      lagP99Ms: lag === null ? null : Math.round(lag * 1000),
      poolWaiting: value(/^amora_db_pool_waiting\{pool="main"/),
    };
  } catch {
    return { heapMb: null, lagP99Ms: null, poolWaiting: null };
  }
}

const loadAverage = () => readFileSync('/proc/loadavg', 'utf8').split(' ').slice(0, 3).map(Number);

/** Least squares over [t minutes, y]: the slope (per minute) and the fitted values at the first and last t. */
function regression(points) {
  const n = points.length;
  const mx = points.reduce((a, [x]) => a + x, 0) / n;
  const my = points.reduce((a, [, y]) => a + y, 0) / n;
  const sxx = points.reduce((a, [x]) => a + (x - mx) ** 2, 0);
  const slope = sxx === 0 ? 0 : points.reduce((a, [x, y]) => a + (x - mx) * (y - my), 0) / sxx;
  const at = (x) => my + slope * (x - mx);
  return { slope, first: at(points[0][0]), last: at(points.at(-1)[0]) };
}

/**
 * One process's memory over the run: the series, and its slope and growth over the last half. The samples swing
 * with garbage collection (50 MB and more between two samples), so the verdict is on the floor: the lowest sample
 * of each minute, fitted by least squares (MB per minute; growth from the fitted first to the fitted last value).
 * The fit of every sample is reported beside it.
 */
function memoryVerdict(series) {
  const end = series.at(-1).s;
  const half = series.filter((p) => p.s >= end / 2);
  const floor = (key) => {
    const minutes = new Map(); // minute → its samples as [minute, value]
    for (const p of half) {
      if (p[key] === null) continue;
      const m = Math.floor(p.s / 60);
      minutes.set(m, [...(minutes.get(m) ?? []), [p.s / 60, p[key]]]);
    }
    // A minute with fewer than 4 samples (the run's last, cut short) has no floor to speak of.
    return [...minutes.values()].filter((m) => m.length >= 4).map((m) => m.reduce((low, p) => (p[1] < low[1] ? p : low)));
  };
  const fit = (points) => {
    if (points.length < 2) return null;
    const { slope, first, last } = regression(points);
    return { mbPerMinute: round2(slope), growthPercent: round2(first > 0 ? ((last - first) / first) * 100 : 0) };
  };
  const rssFloor = fit(floor('mb'));
  const heapFloor = fit(floor('heapMb'));
  return {
    series,
    lastHalf: {
      samples: half.length,
      floor: rssFloor,
      everySample: fit(half.map((p) => [p.s / 60, p.mb])),
      heapFloor,
    },
    flat: rssFloor !== null && (rssFloor.mbPerMinute < FLAT.mbPerMinute || rssFloor.growthPercent < FLAT.growthPercent),
  };
}

/** `count` fictional profiles (no account), women and men in COUNTRIES, aged about 25 to 45. */
async function makeFictional(db, siteId, count) {
  await db.query(
    `insert into profiles (site_id, name, country, status, birth_date, gender, is_fictional)
     select $1, 'Fictional ' || i, (array['NL','BE'])[1 + (i / 2) % 2], 'active',
            current_date - ((25 + i % 21) * 365 + i % 300), (array['woman','man'])[1 + i % 2], true
     from generate_series(1, $2::int) as i`,
    [siteId, count],
  );
}

export async function runMemberLoopBenchmark() {
  const setup = await twoProcessSetup(
    'loop',
    {
      PAYMENTS_SANDBOX: 'true',
      METRICS_TOKEN,
    },
    { keep: Boolean(process.env.BENCH_LOOP_KEEP) },
  );
  const { env, dirs } = setup;
  const processes = [
    { name: 'A', port: PORT, child: null },
    { name: 'B', port: PORT + 1, child: null },
  ];
  const db = new pg.Client({ connectionString: setup.databaseUrl });
  const sockets = [];
  let running = true;
  try {
    for (const [i, p] of processes.entries()) p.child = await startAmora(p.port, dirs[i], env);
    await db.connect();

    // The members: half women, half men, in NL and BE; each on process A or B.
    const members = await makeMembers(db, MEMBERS, 0, 'bench-loop');
    await db.query(
      `update profiles p set gender = case when m.i % 2 = 0 then 'woman' else 'man' end, country = (array['NL','BE'])[1 + (m.i / 2) % 2]
       from unnest($1::bigint[]) with ordinality as m(id, i) where p.id = m.id`,
      [members.map((m) => m.profileId)],
    );
    const { rows: site } = await db.query('select id from sites order by id limit 1');
    await makeFictional(db, site[0].id, FICTIONAL);
    await db.query('analyze profiles');
    const agents = processes.map(() => new Agent({ keepAlive: true, maxSockets: MEMBERS }));
    const states = members.map((m, i) => ({
      ...m,
      index: i,
      process: i % 2,
      gender: (i + 1) % 2 === 0 ? 'woman' : 'man', // ordinality counts from 1
      country: COUNTRIES[Math.floor((i + 1) / 2) % 2],
      paid: false,
      partners: new Set(),
      packages: null,
    }));

    // What the client saw.
    const latencies = Object.fromEntries(STEPS.map((s) => [s, []]));
    const counts = Object.fromEntries(STEPS.map((s) => [s, 0]));
    const errors = [];
    const errorCounts = {};
    let measuring = false;
    let loops = 0;
    const creditedMs = [];
    const paidOrders = new Map(); // order id → credits

    /** One call as the member's page makes it, timed under `step` once the warm-up is over. */
    const call = (member, step, method, path, { json, form, host = HOST, expect = (s) => s >= 200 && s < 300 } = {}) =>
      new Promise((resolve) => {
        const data = json ? JSON.stringify(json) : form ? new URLSearchParams(form).toString() : null;
        const headers = { host, 'x-request-type': 'client', origin: `http://${host}`, cookie: member.cookie };
        if (data !== null) {
          headers['content-type'] = json ? 'application/json' : 'application/x-www-form-urlencoded';
          headers['content-length'] = Buffer.byteLength(data);
        }
        const started = performance.now();
        const done = (status, body) => {
          const ok = expect(status);
          if (measuring && step) {
            latencies[step].push(performance.now() - started);
            counts[step]++;
          }
          if (!ok && running) {
            const key = `${step} ${status}`;
            errorCounts[key] = (errorCounts[key] ?? 0) + 1;
            if (errors.length < 50) errors.push({ step, status, body: body.slice(0, 300), at: new Date().toISOString() });
          }
          resolve({ ok, status, body });
        };
        const p = processes[member.process];
        const req = request({ host: '127.0.0.1', port: p.port, method, path, headers, agent: agents[member.process] }, (res) => {
          let text = '';
          res.setEncoding('utf8');
          res.on('data', (c) => {
            text += c;
          });
          res.on('end', () => done(res.statusCode, text));
          res.on('error', (error) => done(0, String(error)));
        });
        req.on('error', (error) => done(0, error.code ?? String(error)));
        req.end(data ?? undefined);
      });

    // Each member's live socket on its process: the frames they get (messages from members on either process).
    const frames = { message: 0, other: 0, closes: {} };
    for (const m of states) {
      const ws = new WebSocket(`ws://127.0.0.1:${processes[m.process].port}/api/live`, {
        headers: { host: HOST, cookie: m.cookie, origin: `http://${HOST}` },
      });
      await new Promise((resolve, reject) => {
        ws.once('message', resolve);
        ws.once('error', reject);
      });
      ws.on('message', (data) => {
        const type = JSON.parse(data.toString()).type;
        if (type === 'message') frames.message++;
        else frames.other++;
      });
      ws.on('close', (code) => {
        if (running) frames.closes[code] = (frames.closes[code] ?? 0) + 1;
      });
      sockets.push(ws);
    }
    for (const m of states) {
      const res = await call(m, null, 'GET', '/api/packages.php');
      m.packages = JSON.parse(res.body).packages;
      if (!m.packages?.length) throw new Error(`no credit packages for a member in ${m.country}: ${res.body.slice(0, 200)}`);
    }

    /** A package bought as the credits pages do: the order, the sandbox's checkout paid, the return page's wait. */
    const buy = async (m, n) => {
      const pack = m.packages[n % m.packages.length];
      const started = await call(m, 'order', 'POST', '/api/payments.php', {
        json: { package: pack.id, method: 'visa', request_id: randomUUID() },
      });
      if (!started.ok) return;
      const { order, checkout_url: checkoutUrl } = JSON.parse(started.body);
      const checkout = new URL(checkoutUrl);
      const paid = await call(m, 'checkout', 'POST', checkout.pathname, {
        host: checkout.host,
        form: { status: 'paid' },
        expect: (s) => s === 303,
      });
      if (!paid.ok) return;
      const paidAt = performance.now();
      while (running) {
        await sleep(ORDER_POLL_MS);
        const res = await call(m, 'order status', 'GET', `/api/transactions.php?id=${order.id}`);
        if (res.ok && JSON.parse(res.body).order.status === 'paid') {
          if (measuring) creditedMs.push(performance.now() - paidAt);
          paidOrders.set(order.id, pack.credits);
          m.paid = true;
          return;
        }
        if (performance.now() - paidAt > ORDER_PAID_WITHIN_MS) {
          const key = 'order not paid within 60 s';
          errorCounts[key] = (errorCounts[key] ?? 0) + 1;
          if (errors.length < 50) errors.push({ step: 'order status', status: 0, body: key, at: new Date().toISOString() });
          return;
        }
      }
    };

    const loop = async (m) => {
      for (let n = 0; running; n++) {
        const found = await call(
          m,
          'search',
          'GET',
          `/api/search.php?gender=${m.gender === 'woman' ? 'man' : 'woman'}&country=${m.country}&min_age=25&max_age=45`,
        );
        const results = found.ok ? JSON.parse(found.body).results : [];
        if (results.length === 0) {
          if (found.ok && running) errorCounts['search found nobody'] = (errorCounts['search found nobody'] ?? 0) + 1;
          await sleep(100);
          continue;
        }
        const target = results[Math.floor(Math.random() * results.length)].id;
        if (!running) break;
        await call(m, 'profile', 'GET', `/api/member.php?id=${target}`);
        if (!running) break;
        await call(m, 'like', 'POST', '/api/like.php', { json: { profile_id: target, source: 'profile' } });
        if (!running) break;
        // A free member starts at most two conversations (FREE_CONVERSATION_LIMIT): past those they write in one.
        const partners = [...m.partners];
        const to = m.paid || m.partners.has(target) || partners.length < 2 ? target : partners[n % partners.length];
        const sent = await call(m, 'message', 'POST', '/api/messages.php', {
          json: { profile: to, body: `Hello, loop ${n}`, client_id: randomUUID() },
        });
        if (sent.ok) m.partners.add(to);
        if (!running) break;
        if (n % BUY_EVERY === BUY_EVERY - 1) await buy(m, n);
        if (measuring && running) loops++;
      }
    };

    // The memory series (and CPU, load) every 10 s, from the start of the load.
    const t0 = performance.now();
    const seconds = () => Math.round((performance.now() - t0) / 1000);
    const rss = processes.map(() => []);
    const loadSeries = [];
    const pgCpu = new Map(); // backend pid → { first, last }
    const samplePostgres = async () => {
      for (const [pid, cpu] of await postgresCpu(db, setup.database)) {
        const seen = pgCpu.get(pid);
        if (seen) seen.last = cpu;
        else pgCpu.set(pid, { first: measuring ? 0 : cpu, last: cpu });
      }
    };
    const sample = async () => {
      const s = seconds();
      await Promise.all(
        processes.map(async (p, i) => {
          const mb = rssMb(p.child.pid);
          rss[i].push({ s, mb, ...(await scrape(p.port)) });
        }),
      );
      loadSeries.push({ s, load: loadAverage()[0] });
      await samplePostgres();
    };
    await sample();
    const sampling = setInterval(() => void sample(), SAMPLE_MS);
    const looping = states.map((m) => loop(m));

    await sleep(WARM_UP_S * 1000);
    measuring = true;
    const measuredFrom = performance.now();
    const cpuFrom = processes.map((p) => cpuSeconds(p.child.pid));
    const ownCpuFrom = process.cpuUsage();
    await samplePostgres();
    for (const v of pgCpu.values()) v.first = v.last;
    const loadAtStart = loadAverage();

    await sleep((SECONDS - WARM_UP_S) * 1000);
    measuring = false;
    await samplePostgres();
    const measuredS = (performance.now() - measuredFrom) / 1000;
    const cpuUsed = processes.map((p, i) => cpuSeconds(p.child.pid) - cpuFrom[i]);
    const ownCpu = process.cpuUsage(ownCpuFrom);
    const loadAtEnd = loadAverage();
    await sample();
    clearInterval(sampling);
    running = false;
    await Promise.all(looping);

    // Every order the return page saw paid is credited once.
    const { rows: ledger } = await db.query(
      `select count(*)::int as rows, coalesce(sum(delta), 0)::int as credits from credit_ledger
       where reason = 'purchase' and idempotency_key is not null and user_id = any($1::bigint[])`,
      [states.map((m) => m.userId)],
    );
    const { rows: orderRows } = await db.query(`select status, count(*)::int as n from payment_orders group by 1 order by 1`);

    const serverCores = cpuUsed.reduce((a, b) => a + b, 0) / measuredS;
    const postgresCores = [...pgCpu.values()].reduce((a, v) => a + (v.last - v.first), 0) / measuredS;
    const loopsPerSecond = loops / measuredS;
    const steps = Object.fromEntries(
      STEPS.map((s) => {
        const sorted = latencies[s].sort((a, b) => a - b);
        return [
          s,
          {
            requests: counts[s],
            perSecond: round1(counts[s] / measuredS),
            p50: round1(percentile(sorted, 50)),
            p99: round1(percentile(sorted, 99)),
            max: round1(sorted.at(-1) ?? null),
          },
        ];
      }),
    );
    const credited = creditedMs.sort((a, b) => a - b);
    const memory = processes.map((p, i) => ({ name: p.name, ...memoryVerdict(rss[i]) }));
    const errorTotal = Object.values(errorCounts).reduce((a, b) => a + b, 0);
    const result = {
      machine: { cores: availableParallelism(), loadAtStart, loadAtEnd, loadSeries },
      seconds: SECONDS,
      warmUpSeconds: WARM_UP_S,
      measuredSeconds: round1(measuredS),
      members: MEMBERS,
      fictionalProfiles: FICTIONAL,
      buyEvery: BUY_EVERY,
      loops,
      loopsPerSecond: round1(loopsPerSecond),
      cpu: {
        serverCores: round2(serverCores),
        perProcessSeconds: Object.fromEntries(processes.map((p, i) => [p.name, round1(cpuUsed[i])])),
        postgresCores: round2(postgresCores),
        loadGeneratorCores: round2((ownCpu.user + ownCpu.system) / 1e6 / measuredS),
      },
      cpuMsPerLoop: {
        server: round1((serverCores * 1000) / loopsPerSecond),
        postgres: round1((postgresCores * 1000) / loopsPerSecond),
      },
      membersServedPerCore: round1(loopsPerSecond / serverCores),
      membersServedPerCoreWithPostgres: round1(loopsPerSecond / (serverCores + postgresCores)),
      steps,
      creditedAfterCheckout: { orders: credited.length, p50: round1(percentile(credited, 50)), p99: round1(percentile(credited, 99)) },
      errors: errorTotal,
      errorCounts,
      errorSamples: errors.slice(0, 20),
      live: frames,
      credits: {
        ordersPaid: paidOrders.size,
        ledgerRows: ledger[0].rows,
        ordersByStatus: Object.fromEntries(orderRows.map((r) => [r.status, r.n])),
      },
      memory,
      flatWhen: `the floor (each minute's lowest sample) over the last half grows < ${FLAT.mbPerMinute} MB/min or < ${FLAT.growthPercent} %`,
    };
    result.pass = errorTotal === 0 && memory.every((m) => m.flat) && ledger[0].rows >= paidOrders.size;
    return result;
  } finally {
    running = false;
    for (const ws of sockets) ws.terminate();
    await db.end().catch(() => {});
    for (const p of processes) if (p.child) await stop(p.child);
    await setup.close();
  }
}

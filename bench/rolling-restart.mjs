// Rolling restart without loss: two server processes on one PostgreSQL database and Redis behind a small load
// balancer (below: it sends requests only to processes whose /health/ready answers 200, and sends a request that
// could not reach a process to another one, as a load balancer does), under a steady load of searches, likes
// and unlikes, chat sends with client ids and credit purchases through the payment sandbox (its webhook comes
// from a job, twice). Process A is restarted (SIGTERM, wait for its exit, start again, wait until ready), then B.
// Figures: requests that failed at the client (target 0); chat sends: client ids sent once and in the database
// once (0 lost, 0 duplicated); credits: the purchases' ledger rows against the packages bought (0 double
// credits), every member's balance against their ledger; live sockets: how each closed and reconnected.
// Run: npm run bench -- rolling-restart   (builds the server first; writes bench/results/rolling-restart.json)
// BENCH_DATABASE_URL (or TEST_DATABASE_URL) names the PostgreSQL server (its database amora_bench_rolling is made
// and dropped), BENCH_REDIS_URL (or TEST_REDIS_URL, default redis://127.0.0.1:6379) Redis. Ports 4720, 4721
// (the processes) and 4722 (the balancer), or from BENCH_ROLLING_PORT.

import { randomUUID } from 'node:crypto';
import { Agent, createServer, request } from 'node:http';
import { connect } from 'node:net';
import pg from 'pg';
import WebSocket from 'ws';
import { makeMembers } from './chat.mjs';
import { startAmora } from './servers.mjs';
import { twoProcessSetup } from './two-processes.mjs';

const HOST = 'amora.localhost';
const PORT = Number(process.env.BENCH_ROLLING_PORT ?? 4720);
/** Members sending messages (in pairs), liking, searching and buying. */
const PAIRS = Number(process.env.BENCH_ROLLING_PAIRS ?? 10);
/** Requests under way at once (each a loop of load). */
const LOOPS = Number(process.env.BENCH_ROLLING_LOOPS ?? 8);
/** The drain each process gets (SHUTDOWN_DRAIN_MS): longer than two of the balancer's probes. */
const DRAIN_MS = Number(process.env.BENCH_ROLLING_DRAIN_MS ?? 1000);
const PROBE_MS = 100;
const INITIAL_CREDITS = 1_000_000;

const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * The load balancer: round robin over the processes that are in: a probe of /health/ready every 100 ms (1 s
 * timeout) takes a process in at its first 200 and out after two failures in a row, or at once when its
 * connection is refused. A request that did not reach a process (connection refused, or a kept-alive connection the process
 * closed before it took the request) goes to another one; any answer, whatever its status, goes back as it is.
 */
function startBalancer(port, backends) {
  const state = backends.map((b) => ({
    ...b,
    ready: false,
    failing: 0,
    probing: false,
    active: 0,
    answered: 0,
    agent: new Agent({ keepAlive: true, maxSockets: 64 }),
  }));
  const stats = { retried: 0, noBackendWaits: 0, upgrades: 0, probes: 0, probeFailures: {}, slowestProbeMs: 0 };
  let turn = 0;
  const probe = async (b) => {
    if (b.probing) return;
    b.probing = true;
    const started = performance.now();
    let outcome;
    try {
      const res = await fetch(`http://127.0.0.1:${b.port}/health/ready`, { signal: AbortSignal.timeout(1_000) });
      outcome = String(res.status);
      await res.arrayBuffer();
    } catch (error) {
      outcome = error.cause?.code ?? error.name;
    }
    b.probing = false;
    // In after one 200, out after two failures in a row (or at once when the connection is refused).
    if (outcome === '200') {
      b.failing = 0;
      b.ready = true;
    } else if (++b.failing >= 2 || outcome === 'ECONNREFUSED') b.ready = false;
    stats.probes++;
    if (outcome !== '200') stats.probeFailures[`${b.name} ${outcome}`] = (stats.probeFailures[`${b.name} ${outcome}`] ?? 0) + 1;
    stats.slowestProbeMs = Math.max(stats.slowestProbeMs, Math.round(performance.now() - started));
  };
  const probing = setInterval(() => {
    for (const b of state) void probe(b);
  }, PROBE_MS);
  const pick = async () => {
    for (let i = 0; i < 200; i++) {
      const ready = state.filter((b) => b.ready);
      if (ready.length) return ready[turn++ % ready.length];
      stats.noBackendWaits++;
      await sleep(25);
    }
    return null;
  };
  const send = (b, req, body) =>
    new Promise((resolve) => {
      const out = request(
        { host: '127.0.0.1', port: b.port, method: req.method, path: req.url, headers: req.headers, agent: b.agent },
        (res) => {
          const chunks = [];
          res.on('data', (c) => chunks.push(c));
          res.on('end', () => resolve({ res, body: Buffer.concat(chunks) }));
          res.on('error', (error) => resolve({ error, sent: true }));
        },
      );
      out.on('error', (error) =>
        resolve({ error, sent: !(error.code === 'ECONNREFUSED' || (out.reusedSocket && error.code === 'ECONNRESET')) }),
      );
      out.end(body);
    });
  /** `send`, counting the requests under way at each process. */
  const forward = async (b, req, body) => {
    b.active++;
    try {
      const answer = await send(b, req, body);
      if (answer.res) b.answered++;
      return answer;
    } finally {
      b.active--;
    }
  };
  const server = createServer(async (req, res) => {
    const chunks = [];
    for await (const c of req) chunks.push(c);
    const body = Buffer.concat(chunks);
    for (let attempt = 0; attempt < 10; attempt++) {
      const b = await pick();
      if (!b) break;
      const answer = await forward(b, req, body);
      if (answer.res) {
        res.writeHead(answer.res.statusCode, answer.res.headers);
        res.end(answer.body);
        return;
      }
      if (answer.sent) {
        // The process took the request and then failed it: a load balancer cannot know whether it was done.
        res.writeHead(502, { 'content-type': 'text/plain' });
        res.end(`balancer: ${answer.error.code ?? answer.error.message}`);
        return;
      }
      b.ready = false;
      stats.retried++;
    }
    res.writeHead(503, { 'content-type': 'text/plain' });
    res.end('balancer: no process ready');
  });
  // WebSockets: the upgrade request goes to a ready process, then bytes both ways.
  server.on('upgrade', async (req, socket, head) => {
    stats.upgrades++;
    const b = await pick();
    if (!b) return socket.destroy();
    const upstream = connect(b.port, '127.0.0.1', () => {
      const lines = [`${req.method} ${req.url} HTTP/1.1`];
      for (let i = 0; i < req.rawHeaders.length; i += 2) lines.push(`${req.rawHeaders[i]}: ${req.rawHeaders[i + 1]}`);
      upstream.write(`${lines.join('\r\n')}\r\n\r\n`);
      if (head?.length) upstream.write(head);
      upstream.pipe(socket);
      socket.pipe(upstream);
    });
    upstream.on('error', () => socket.destroy());
    socket.on('error', () => upstream.destroy());
    upstream.on('close', () => socket.destroy());
    socket.on('close', () => upstream.destroy());
  });
  return new Promise((resolve) => {
    server.listen(port, '127.0.0.1', () =>
      resolve({
        stats,
        state,
        async close() {
          clearInterval(probing);
          server.closeAllConnections();
          await new Promise((r) => server.close(r));
          for (const b of state) b.agent.destroy();
        },
      }),
    );
  });
}

/** One call through the balancer as a member's page makes it: status and body. */
function call(port, method, path, { cookie, json, form, host = HOST } = {}) {
  return new Promise((resolve) => {
    const data = json ? JSON.stringify(json) : form ? new URLSearchParams(form).toString() : null;
    const headers = { host, 'x-request-type': 'client', origin: `http://${host}` };
    if (cookie) headers.cookie = cookie;
    if (data !== null) {
      headers['content-type'] = json ? 'application/json' : 'application/x-www-form-urlencoded';
      headers['content-length'] = Buffer.byteLength(data);
    }
    const req = request({ host: '127.0.0.1', port, method, path, headers, agent: false }, (res) => {
      let text = '';
      res.on('data', (c) => {
        text += c;
      });
      res.on('end', () => resolve({ status: res.statusCode, body: text }));
      res.on('error', (error) => resolve({ status: 0, body: String(error) }));
    });
    req.on('error', (error) => resolve({ status: 0, body: error.code ?? String(error) }));
    req.end(data ?? undefined);
  });
}

/**
 * A member's live socket through the balancer, reconnecting 100 ms after any close but 4401/4403/4409 (as the web
 * client does); counts the close codes and the reconnections.
 */
function liveSocket(port, cookie, counts) {
  let ws = null;
  let stopped = false;
  const open = () => {
    ws = new WebSocket(`ws://127.0.0.1:${port}/api/live`, { headers: { host: HOST, cookie, origin: `http://${HOST}` } });
    ws.on('message', (data) => {
      const frame = JSON.parse(data.toString());
      if (frame.type === 'ready') counts.ready++;
    });
    ws.on('close', (code) => {
      if (stopped) return;
      counts.closes[code] = (counts.closes[code] ?? 0) + 1;
      if ([4401, 4403, 4409].includes(code)) return;
      setTimeout(open, 100);
    });
    ws.on('error', () => {});
  };
  open();
  return () => {
    stopped = true;
    ws?.terminate();
  };
}

export async function runRollingRestartBenchmark() {
  const setup = await twoProcessSetup(
    'rolling',
    {
      PAYMENTS_SANDBOX: 'true',
      SHUTDOWN_DRAIN_MS: String(DRAIN_MS),
      LOG_LEVEL: 'info',
    },
    { keep: Boolean(process.env.BENCH_ROLLING_KEEP) },
  );
  const { env, dirs } = setup;
  const processes = [
    { name: 'A', port: PORT, dir: dirs[0], child: null },
    { name: 'B', port: PORT + 1, dir: dirs[1], child: null },
  ];
  const db = new pg.Client({ connectionString: setup.databaseUrl });
  let balancer = null;
  const stopSockets = [];
  try {
    for (const p of processes) p.child = await startAmora(p.port, p.dir, env);
    await db.connect();
    balancer = await startBalancer(PORT + 2, processes);
    const lb = PORT + 2;
    while (!balancer.state.every((b) => b.ready)) await sleep(50);

    const members = await makeMembers(db, PAIRS * 2, 0, 'bench-rolling');
    const pairs = Array.from({ length: PAIRS }, (_, i) => ({ from: members[2 * i], to: members[2 * i + 1] }));

    // Live sockets of the receivers, through the balancer (they reconnect as the web client does).
    const live = { ready: 0, closes: {} };
    for (const p of pairs) stopSockets.push(liveSocket(lb, p.to.cookie, live));

    // What the client saw, and what it expects in the database afterwards.
    const failures = [];
    const counts = { search: 0, like: 0, unlike: 0, message: 0, payment: 0, checkout: 0, webhook: 0 };
    const sentClientIds = []; // { senderProfileId, clientId }
    const paidOrders = new Map(); // order id → credits
    const packages = JSON.parse((await call(lb, 'GET', '/api/packages.php', { cookie: members[0].cookie })).body).packages;
    if (!packages?.length) throw new Error('no credit packages for the bench members');
    const record = (kind, res, ok = res.status >= 200 && res.status < 300) => {
      counts[kind]++;
      if (!ok) failures.push({ kind, status: res.status, body: res.body.slice(0, 200), at: new Date().toISOString() });
      return ok;
    };

    const actions = [
      async (m) => {
        record('search', await call(lb, 'GET', '/api/search.php?gender=woman&min_age=25&max_age=45', { cookie: m.cookie }));
      },
      async (m, i) => {
        const target = members[(i * 7 + 3) % members.length];
        if (target === m) return;
        record(
          'like',
          await call(lb, 'POST', '/api/like.php', { cookie: m.cookie, json: { profile_id: target.profileId, source: 'profile' } }),
        );
        record('unlike', await call(lb, 'DELETE', '/api/like.php', { cookie: m.cookie, json: { profile_id: target.profileId } }));
      },
      async (_m, i) => {
        const pair = pairs[i % pairs.length];
        const clientId = randomUUID();
        sentClientIds.push({ senderProfileId: pair.from.profileId, clientId });
        record(
          'message',
          await call(lb, 'POST', '/api/messages.php', {
            cookie: pair.from.cookie,
            json: { profile: pair.to.profileId, body: `Hello ${i}`, client_id: clientId },
          }),
        );
      },
      async (_m, i, loop) => {
        // One turn in eight buys (a purchase is three calls), each loop as its own member: one purchase of a member
        // at a time, as a member buys.
        if (i % 8 !== 3) return;
        const m = members[loop % members.length];
        const pack = packages[i % packages.length];
        const started = await call(lb, 'POST', '/api/payments.php', {
          cookie: m.cookie,
          json: { package: pack.id, method: 'visa', request_id: randomUUID() },
        });
        if (!record('payment', started)) return;
        const { order, checkout_url: checkoutUrl } = JSON.parse(started.body);
        const checkout = new URL(checkoutUrl);
        // The member pays on the sandbox's checkout; its webhook (twice) comes from a job of either process.
        const paid = await call(lb, 'POST', checkout.pathname, { host: checkout.host, form: { status: 'paid', copies: '2' } });
        if (record('checkout', paid, paid.status === 303)) paidOrders.set(order.id, pack.credits);
        // And once more as Mollie may: straight to the webhook, through the balancer.
        const paymentId = checkout.pathname.split('/').pop();
        record('webhook', await call(lb, 'POST', '/api/payments/webhook', { form: { id: paymentId } }));
      },
    ];

    let running = true;
    let n = 0;
    const loops = Array.from({ length: LOOPS }, async (_, loop) => {
      while (running) {
        const i = n++;
        const member = members[(i + loop) % members.length];
        await actions[i % actions.length](member, i, loop);
      }
    });

    const timeline = [];
    const mark = (what) => timeline.push({ what, at: Date.now() - t0, requests: n, failures: failures.length });
    const t0 = Date.now();
    await sleep(3_000);
    mark('load running');
    for (const p of processes) {
      const exited = new Promise((resolve) => p.child.once('exit', (code, signal) => resolve({ code, signal })));
      const stopAt = Date.now();
      // Requests this process holds as the signal comes: they must finish.
      const backend = balancer.state.find((s) => s.port === p.port);
      p.inFlightAtStop = backend.active;
      const answeredBefore = backend.answered;
      p.child.kill('SIGTERM');
      const exit = await exited;
      p.answeredWhileStopping = backend.answered - answeredBefore;
      const stoppedMs = Date.now() - stopAt;
      mark(`${p.name} stopped (exit ${exit.code ?? exit.signal}) in ${stoppedMs} ms`);
      p.exitCode = exit.code;
      p.stopMs = stoppedMs;
      const startAt = Date.now();
      p.child = await startAmora(p.port, p.dir, env);
      const b = balancer.state.find((s) => s.port === p.port);
      while (!b.ready) await sleep(20);
      p.startMs = Date.now() - startAt;
      mark(`${p.name} ready again in ${p.startMs} ms`);
      await sleep(3_000);
    }
    running = false;
    await Promise.all(loops);
    for (const stop of stopSockets.splice(0)) stop();
    mark('load stopped');

    // The purchases' webhooks run as jobs: wait until every order the checkout paid is paid in the database.
    const orderIds = [...paidOrders.keys()];
    const until = Date.now() + 60_000;
    let settled = false;
    while (Date.now() < until) {
      const { rows } = await db.query(`select count(*)::int as n from payment_orders where id = any($1::bigint[]) and status = 'paid'`, [
        orderIds,
      ]);
      if (rows[0].n === orderIds.length) {
        settled = true;
        break;
      }
      await sleep(200);
    }
    // Then every job (the webhook copies included) done.
    while (Date.now() < until) {
      const { rows } = await db.query(
        `select count(*)::int as n from jobs where status in ('queued', 'running') and name like 'sandbox.%' and run_at <= now()`,
      );
      if (rows[0].n === 0) break;
      await sleep(200);
    }

    // Chat: every client id once in the database.
    const { rows: stored } = await db.query(
      `select sender_profile_id::bigint as sender, client_id, count(*)::int as n from messages where client_id = any($1::text[]) group by 1, 2`,
      [sentClientIds.map((s) => s.clientId)],
    );
    const storedCount = new Map(stored.map((r) => [`${r.sender}:${r.client_id}`, r.n]));
    let lost = 0;
    let duplicated = 0;
    for (const s of sentClientIds) {
      const count = storedCount.get(`${s.senderProfileId}:${s.clientId}`) ?? 0;
      if (count === 0) lost++;
      if (count > 1) duplicated++;
    }

    // Credits: one purchase row per paid order, of its package's credits; every balance equals its ledger.
    const userIds = members.map((m) => m.userId);
    const { rows: purchases } = await db.query(
      `select count(*)::int as rows, coalesce(sum(delta), 0)::int as credits, count(distinct idempotency_key)::int as orders
       from credit_ledger where user_id = any($1::bigint[]) and reason = 'purchase'`,
      [userIds],
    );
    const expectedCredits = [...paidOrders.values()].reduce((a, b) => a + b, 0);
    const { rows: balances } = await db.query(
      `select u.id, u.credits, coalesce(sum(l.delta), 0)::int as ledger from users u left join credit_ledger l on l.user_id = u.id
       where u.id = any($1::bigint[]) group by u.id, u.credits`,
      [userIds],
    );
    const balanceMismatches = balances.filter((b) => Number(b.credits) !== INITIAL_CREDITS + b.ledger).length;
    const { rows: jobsLeft } = await db.query(
      `select status || case when status = 'queued' and run_at > now() then ' later' else '' end as status, count(*)::int as n
       from jobs group by 1 order by 1`,
    );

    const result = {
      processes: processes.map((p) => ({
        name: p.name,
        exitCode: p.exitCode,
        inFlightAtStop: p.inFlightAtStop,
        answeredWhileStopping: p.answeredWhileStopping,
        stopMs: p.stopMs,
        startMs: p.startMs,
      })),
      drainMs: DRAIN_MS,
      probeMs: PROBE_MS,
      loops: LOOPS,
      requests: Object.values(counts).reduce((a, b) => a + b, 0),
      counts,
      failed: failures.length,
      failures: failures.slice(0, 20),
      balancer: {
        retriedOnAnotherProcess: balancer.stats.retried,
        waitsWithNoProcessReady: balancer.stats.noBackendWaits,
        probes: balancer.stats.probes,
        probeFailures: balancer.stats.probeFailures,
        slowestProbeMs: balancer.stats.slowestProbeMs,
      },
      messages: { sent: sentClientIds.length, stored: stored.length, lost, duplicated },
      credits: {
        ordersPaid: paidOrders.size,
        webhooksSettled: settled,
        expected: expectedCredits,
        ledgerPurchaseRows: purchases[0].rows,
        ledgerPurchaseCredits: purchases[0].credits,
        doubleCredits: purchases[0].rows - purchases[0].orders,
        balanceMismatches,
      },
      live: { sockets: pairs.length, readyFrames: live.ready, closes: live.closes },
      jobs: Object.fromEntries(jobsLeft.map((r) => [r.status, r.n])),
      timeline,
    };
    result.pass =
      result.failed === 0 &&
      lost === 0 &&
      duplicated === 0 &&
      settled &&
      result.credits.ledgerPurchaseCredits === expectedCredits &&
      result.credits.doubleCredits === 0 &&
      balanceMismatches === 0 &&
      processes.every((p) => p.exitCode === 0);
    return result;
  } finally {
    for (const stop of stopSockets) stop();
    await balancer?.close();
    await db.end().catch(() => {});
    for (const p of processes) {
      if (!p.child || p.child.exitCode !== null) continue;
      const exited = new Promise((resolve) => p.child.once('exit', resolve));
      p.child.kill('SIGTERM');
      await Promise.race([exited, sleep(15_000)]);
    }
    // BENCH_ROLLING_KEEP=1 keeps the processes' logs (server.log in each folder).
    await setup.close();
  }
}

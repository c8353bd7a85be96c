#!/usr/bin/env node
// npm run bench [-- api|bundle|chat|inbox|landers|lighthouse|media|member-loop|memory|notices|photos|push|reports|rolling-restart|search|search-http]: runs the benchmarks, prints the figures, writes bench/results/*.json.
import { spawnSync } from 'node:child_process';
import { mkdirSync, writeFileSync } from 'node:fs';
import { runApiBenchmark } from './api-throughput.mjs';
import { runBundleBenchmark, runLanderBundleBenchmark } from './bundle-size.mjs';
import { runChatBenchmark } from './chat.mjs';
import { runInboxLatencyBenchmark } from './inbox-latency.mjs';
import { runLanderLighthouseBenchmark, runLighthouseBenchmark } from './lighthouse.mjs';
import { runMemberLoopBenchmark } from './member-loop.mjs';
import { runMemoryBenchmark } from './memory.mjs';
import { runNoticesBenchmark } from './notices.mjs';
import { runPhotoBenchmark } from './photo-processing.mjs';
import { runRollingRestartBenchmark } from './rolling-restart.mjs';
import { runSearchHttpBenchmark } from './search-http.mjs';

// `photo` is the photos benchmark too.
const which = process.argv[2] === 'photo' ? 'photos' : (process.argv[2] ?? 'all');
mkdirSync('bench/results', { recursive: true });
const save = (name, data) =>
  writeFileSync(`bench/results/${name}.json`, `${JSON.stringify({ at: new Date().toISOString(), ...data }, null, 2)}\n`);

// The API and photo benchmarks run the built server, as `npm start` does; the bundle one measures the web build.
if (
  [
    'all',
    'bundle',
    'api',
    'photos',
    'search-http',
    'memory',
    'lighthouse',
    'landers',
    'chat',
    'notices',
    'inbox',
    'rolling-restart',
    'member-loop',
  ].includes(which)
) {
  if (spawnSync('npm', ['run', 'build', '--silent'], { stdio: 'inherit' }).status !== 0) process.exit(1);
}

if (which === 'all' || which === 'bundle') {
  const bundle = runBundleBenchmark();
  save('bundle', bundle);
  console.log(
    `\nIndex route JavaScript: ${bundle.gzipKb} KB gzipped (target <= ${bundle.targetKb} KB) ${bundle.pass ? 'PASS' : 'FAIL'}; ${bundle.brotliKb} KB as Brotli, ${bundle.rawKb} KB uncompressed`,
  );
  for (const f of bundle.files) console.log(`  ${f.file}  ${(f.gzip / 1024).toFixed(1)} KB gz, ${(f.brotli / 1024).toFixed(1)} KB br`);
  const landers = runLanderBundleBenchmark();
  save('lander-bundles', landers);
  console.log(
    `\nLanders' JavaScript (target <= ${landers.targetKb} KB gzipped each) ${landers.pass ? 'PASS' : 'FAIL'}; the page's own ${landers.entryKb} KB:`,
  );
  for (const l of landers.landers) {
    console.log(
      `  ${l.name.padEnd(24)} ${String(l.gzipKb).padStart(6)} KB gz (${l.design})${l.signupModalKb === null ? '' : `, + ${l.signupModalKb} KB at the first signup click on desktop`}`,
    );
  }
}

if (which === 'all' || which === 'chat') {
  const chat = await runChatBenchmark();
  save('chat', chat);
  console.log(`\nChat delivery, two processes on PostgreSQL + Redis (sender's socket and sends on one, receiver's socket on the other):`);
  const line = (r) =>
    `p50 ${r.p50} ms  p99 ${r.p99} ms  max ${r.max} ms (answer → frame p50 ${r.pushP50}, p99 ${r.pushP99})  ${r.messagesPerSecond} msg/s  lost ${r.lost}  errors ${r.errors}`;
  for (const l of chat.levels) {
    console.log(`  ${String(l.sockets).padStart(5)} sockets, paced ${l.rate}/s: ${line(l.paced)}`);
    console.log(`  ${String(l.sockets).padStart(5)} sockets, saturated:  ${line(l.saturated)}`);
    console.log(`  ${String(l.sockets).padStart(5)} sockets, at ${chat.saturated.messagesPerSecond}/s:   ${line(l.atTarget)}`);
    const cpu = l.saturated.cpuMsPerMessage;
    console.log(
      `        CPU per message, saturated: ${cpu.all} ms (process A ${cpu.a}, process B ${cpu.b}, PostgreSQL ${cpu.postgres}, this client ${cpu.client})`,
    );
  }
  console.log(`  ${chat.idle.sockets} idle sockets on one process: RSS ${chat.idle.rssMb} MB (${chat.idle.rssMbBefore} MB before)`);
  const { ledger } = chat;
  console.log(
    `  credit ledger: ${ledger.paidMessages} paid messages, ${ledger.unpaid} without their ledger row, ${ledger.orphans} ledger rows without their message, ${ledger.balancesOff} balances off their ledger`,
  );
  console.log(
    `  targets p99 <= 100 ms at 1,000 sockets paced, <= ${chat.idle.targetMb} MB at ${chat.idle.sockets} idle sockets, 0 lost, the ledger exact: ${chat.pass ? 'PASS' : 'FAIL'}`,
  );
  console.log(
    `  target saturated >= ${chat.saturated.messagesPerSecond} msg/s, and p99 < ${chat.saturated.p99} ms at that rate, at 1,000 sockets: ${chat.saturated.pass ? 'PASS' : 'FAIL'}`,
  );
}

if (which === 'all' || which === 'rolling-restart') {
  const run = await runRollingRestartBenchmark();
  save('rolling-restart', run);
  const c = run.counts;
  console.log(
    `\nRolling restart: two processes on PostgreSQL + Redis behind a balancer on /health/ready (probe every ${run.probeMs} ms, drain ${run.drainMs} ms), A then B restarted under load:`,
  );
  for (const line of run.timeline)
    console.log(`  ${String(line.at).padStart(6)} ms  ${line.what} (${line.requests} requests, ${line.failures} failed)`);
  console.log(
    `  ${run.requests} requests (${c.search} searches, ${c.like} likes, ${c.unlike} unlikes, ${c.message} chat sends, ${c.payment} orders, ${c.checkout} checkouts, ${c.webhook} webhooks): failed at the client ${run.failed}`,
  );
  console.log(
    `  the balancer sent ${run.balancer.retriedOnAnotherProcess} requests to the other process after a refused connection; waits with no process ready: ${run.balancer.waitsWithNoProcessReady}; readiness probes ${run.balancer.probes}, not 200: ${JSON.stringify(run.balancer.probeFailures)}, slowest ${run.balancer.slowestProbeMs} ms`,
  );
  console.log(`  chat sends: ${run.messages.sent} client ids, lost ${run.messages.lost}, duplicated ${run.messages.duplicated}`);
  const k = run.credits;
  console.log(
    `  credits: ${k.ordersPaid} orders paid, ${k.expected} credits expected, ledger ${k.ledgerPurchaseCredits} in ${k.ledgerPurchaseRows} rows; double credits ${k.doubleCredits}; balances off their ledger ${k.balanceMismatches}${k.webhooksSettled ? '' : '; NOT every webhook settled'}`,
  );
  console.log(
    `  live sockets (${run.live.sockets}, reconnecting as the web client): closes by code ${JSON.stringify(run.live.closes)}, ready frames ${run.live.readyFrames}`,
  );
  console.log(
    `  requests under way at the signal: ${run.processes.map((p) => `${p.name} ${p.inFlightAtStop}`).join(', ')}; answered by the stopping process after it: ${run.processes.map((p) => `${p.name} ${p.answeredWhileStopping}`).join(', ')}; exit codes ${run.processes.map((p) => `${p.name} ${p.exitCode}`).join(', ')}; jobs left ${JSON.stringify(run.jobs)}`,
  );
  for (const f of run.failures) console.log(`  failed: ${f.kind} ${f.status} ${f.body}`);
  console.log(`  targets 0 failed, 0 lost, 0 duplicated, 0 double credits: ${run.pass ? 'PASS' : 'FAIL'}`);
  if (!run.pass) process.exitCode = 1;
}

if (which === 'all' || which === 'member-loop') {
  const run = await runMemberLoopBenchmark();
  save('member-loop', run);
  const m = run.machine;
  console.log(
    `\nThe member loop (search → profile → like → message → every ${run.buyEvery}th loop a package bought on the sandbox), ${run.members} members in a closed loop on two processes on PostgreSQL + Redis, ${run.measuredSeconds} s measured after ${run.warmUpSeconds} s warm-up; machine of ${m.cores} cores, load ${m.loadAtStart.join(' ')} at the start, ${m.loadAtEnd.join(' ')} at the end:`,
  );
  const c = run.cpu;
  console.log(
    `  ${run.loopsPerSecond} loops/s (${run.loops} loops); the processes used ${c.serverCores} cores (A ${c.perProcessSeconds.A} s, B ${c.perProcessSeconds.B} s of CPU), PostgreSQL ${c.postgresCores}, the load generator ${c.loadGeneratorCores}`,
  );
  console.log(
    `  members served per core: ${run.membersServedPerCore} loops/s per server core, ${run.membersServedPerCoreWithPostgres} counting PostgreSQL's too (CPU per loop: server ${run.cpuMsPerLoop.server} ms, PostgreSQL ${run.cpuMsPerLoop.postgres} ms)`,
  );
  for (const [name, s] of Object.entries(run.steps))
    console.log(`    ${name.padEnd(13)} ${String(s.perSecond).padStart(6)}/s   p50 ${s.p50} ms   p99 ${s.p99} ms   max ${s.max} ms`);
  const cr = run.creditedAfterCheckout;
  console.log(
    `  checkout paid → the return page sees the order paid: p50 ${cr.p50} ms, p99 ${cr.p99} ms (webhook 1.5 s after, asked every 2 s)`,
  );
  console.log(
    `  errors ${run.errors} ${JSON.stringify(run.errorCounts)}; live frames ${run.live.message} messages, socket closes ${JSON.stringify(run.live.closes)}`,
  );
  console.log(`  orders paid ${run.credits.ordersPaid}, purchase rows in the ledger ${run.credits.ledgerRows}`);
  const fit = (f) => (f ? `${f.mbPerMinute} MB/min, ${f.growthPercent} %` : 'too short');
  for (const p of run.memory) {
    console.log(`  process ${p.name} RSS (MB every 10 s): ${p.series.map((x) => x.mb).join(' ')}`);
    console.log(`    V8 heap in use (MB): ${p.series.map((x) => x.heapMb).join(' ')}`);
    console.log(
      `    event loop delay p99 (ms): ${p.series.map((x) => x.lagP99Ms).join(' ')}; queries waiting for a connection: ${p.series.map((x) => x.poolWaiting).join(' ')}`,
    );
    console.log(
      `    last half: RSS floor ${fit(p.lastHalf.floor)} (every sample ${fit(p.lastHalf.everySample)}), heap floor ${fit(p.lastHalf.heapFloor)}: ${p.flat ? 'flat' : 'GROWING'}`,
    );
  }
  console.log(`  targets 0 errors, memory flat (${run.flatWhen}): ${run.pass ? 'PASS' : 'FAIL'}`);
  if (!run.pass) process.exitCode = 1;
}

if (which === 'all' || which === 'inbox') {
  const inbox = await runInboxLatencyBenchmark();
  save('inbox', inbox);
  const row = (name, r) => `  ${name.padEnd(44)} p50 ${r.p50} ms  p99 ${r.p99} ms  (min ${r.min}, max ${r.max})`;
  console.log(`\nConsole inbox latency, ${inbox.messages} messages to a fictional profile (${inbox.setup}):`);
  console.log(row("member's send (the answer)", inbox.send));
  console.log(row('send answer → notice on the live channel', inbox.noticeAfterAnswer));
  console.log(row('send started → notice', inbox.noticeAfterSend));
  console.log(row('send answer → the inbox list shows it', inbox.listAfterAnswer));
  console.log(row('notice → the inbox list shows it', inbox.listAfterNotice));
  console.log(
    `  notices before the send's answer: ${inbox.noticeBeforeAnswer}; lost: ${inbox.lost}; list reads per message at most ${inbox.listReadsMax}`,
  );
}

if (which === 'all' || which === 'api') {
  const api = await runApiBenchmark();
  save('api', api);
  const row = (name, r) =>
    `  ${name.padEnd(22)} ${Math.round(r.rps).toString().padStart(7)} req/s   p50 ${r.p50} ms   p99 ${r.p99} ms   errors ${r.errors}`;
  console.log('\nAPI throughput (same run, same machine; the round with the median ratio):');
  console.log(row('bare Fastify /hello', api.baseline));
  console.log(row('GET /api/settings.php', api.settings));
  console.log(
    `  ratio ${api.ratio.toFixed(2)}, median of ${api.ratios.length} rounds [${api.ratios.join(', ')}] (target >= ${api.target}) ${api.pass ? 'PASS' : 'FAIL'}`,
  );
}

if (which === 'all' || which === 'photos') {
  const photos = await runPhotoBenchmark();
  save('photos', photos);
  const p = photos.processing;
  console.log(
    `\nPhoto processing (${photos.image.megapixels} MP JPEG, ${(photos.image.bytes / 1048576).toFixed(1)} MB, ${p.photos} photos in a row):`,
  );
  console.log(
    `  ${p.variantsPerSecond} variants/s (${p.photosPerSecond} photos/s), ${p.msPerPhoto.median} ms per photo (min ${p.msPerPhoto.min}, max ${p.msPerPhoto.max})`,
  );
  console.log(`  two at a time: ${p.twoAtATime.variantsPerSecond} variants/s (${p.twoAtATime.photosPerSecond} photos/s)`);
  console.log(`  baseline (${photos.baseline.what}): ${photos.baseline.msPerPhoto} ms per photo; ratio ${photos.ratio}`);
  console.log(`  upload to all variants ready over HTTP: median ${photos.http.medianMs} ms (runs ${photos.http.runs.join(', ')})`);
  const big = photos.fortyMp;
  const seconds = (r) => `${r.wallMs} ms (CPU ${r.cpuMs} ms, slowest run ${r.maxWallMs} ms)`;
  console.log(
    `\n40 MP, each processed alone (budget ${big.budgetMs} ms, checked on CPU time; hard limit per photo ${big.timeLimitSeconds} s):`,
  );
  console.log(`  photo-like JPEG (${(big.jpeg.bytes / 1048576).toFixed(1)} MB): ${big.jpeg.outcome} in ${seconds(big.jpeg)}`);
  console.log(
    `  slowest accepted file, ${big.slowestAccepted.what} (${(big.slowestAccepted.bytes / 1048576).toFixed(1)} MB): ${big.slowestAccepted.outcome} in ${seconds(big.slowestAccepted)}`,
  );
  console.log(`  ${big.pass ? 'PASS' : 'FAIL'}; libvips memory high-water mark ${big.libvipsMemoryHighWaterMb} MB`);
  console.log(`  40 MP JPEG upload over HTTP: median ${photos.http.fortyMp.medianMs} ms (runs ${photos.http.fortyMp.runs.join(', ')})`);
  const thin = photos.thin;
  console.log(`\n7999x1 PNG (${thin.bytes} bytes): ${thin.processImage.outcome} in ${seconds(thin.processImage)}`);
  console.log(
    `  the pipeline itself, past the shape check: ${thin.pipelineWithoutShapeCheck.outcome} in ${seconds(thin.pipelineWithoutShapeCheck)}`,
  );
  console.log(
    `  three members sending it at once over HTTP: ${photos.http.thin.answers.join(', ')}, all within ${photos.http.thin.maxMs} ms`,
  );
  const attack = photos.http.underAttack;
  const honest = (h) => `median ${h.medianMs} ms, max ${h.maxMs} ms${h.refused.length ? `, refused ${h.refused.join(', ')}` : ''}`;
  const hostile = (o) =>
    Object.entries(o)
      .map(([k, v]) => `${v.count}x ${k} (max ${v.maxMs} ms)`)
      .join(', ');
  console.log(`\nAnother member's 12 MP upload over HTTP: alone median ${photos.http.medianMs} ms`);
  console.log(
    `  while three members send the thin PNG over and over: ${honest(attack.thin.honest)}; they got ${hostile(attack.thin.hostile)}`,
  );
  console.log(
    `  while three members send the slowest accepted file over and over: ${honest(attack.slowestAccepted.honest)}; they got ${hostile(attack.slowestAccepted.hostile)}`,
  );
  if (photos.http.serverPeakRssMb) console.log(`  server peak resident memory over the whole run: ${photos.http.serverPeakRssMb} MB`);
}

if (which === 'all' || which === 'search') {
  // TypeScript (it runs the real search service): through tsx, in its own process.
  const status = spawnSync(process.execPath, ['--import', 'tsx', 'bench/search.ts'], { stdio: 'inherit' }).status;
  if (status !== 0) process.exit(status ?? 1);
}

if (which === 'all' || which === 'media') {
  // The real media stores (TypeScript, through tsx): a folder against an S3 bucket (s3rver in a process of its own).
  const status = spawnSync(process.execPath, ['--import', 'tsx', 'bench/media-serve.mjs'], { stdio: 'inherit' }).status;
  if (status !== 0) process.exitCode = 1;
}

if (which === 'all' || which === 'reports') {
  // The real report service (TypeScript, through tsx) on generated data, in its own process.
  const status = spawnSync(process.execPath, ['--import', 'tsx', 'bench/reports.mjs'], { stdio: 'inherit' }).status;
  if (status !== 0) process.exitCode = 1;
}

if (which === 'all' || which === 'push') {
  // TypeScript (it runs the real push.notify handler): through tsx, in its own process, with gc() for its memory figures.
  const status = spawnSync(process.execPath, ['--expose-gc', '--import', 'tsx', 'bench/push-fanout.ts'], { stdio: 'inherit' }).status;
  if (status !== 0) process.exit(status ?? 1);
}

if (which === 'all' || which === 'notices') {
  const notices = await runNoticesBenchmark();
  save('notices', notices);
  console.log(
    `\nActivity mails while away (built server, PostgreSQL, SMTP in the benchmark; the mail is due ${notices.mailDelayDesignedS} s after the first message):`,
  );
  console.log(
    `  message → mail at the SMTP server, ${notices.pairs} receivers: p50 ${notices.latencyS.p50} s  p99 ${notices.latencyS.p99} s  max ${notices.latencyS.max} s  missing ${notices.missing}`,
  );
  console.log(
    `  ${notices.batches.messagesEach} messages in ${notices.batches.inSeconds} s to each of ${notices.batches.receivers} receivers: mails each [${notices.batches.mailsEach.join(', ')}] (target 1) ${notices.pass ? 'PASS' : 'FAIL'}`,
  );
}

if (which === 'all' || which === 'search-http') {
  const run = await runSearchHttpBenchmark();
  save('search-http', run);
  const cpu = (c) => (c ? `   CPU per request: server ${c.server} ms${c.database === null ? '' : `, PostgreSQL ${c.database} ms`}` : '');
  const row = (name, r) =>
    `    ${name.padEnd(30)} ${String(r.rps).padStart(6)} req/s   p50 ${r.p50} ms   p99 ${r.p99} ms   max ${r.max} ms   timeouts ${r.timeouts}   errors ${r.errors}${cpu(r.cpuMsPerRequest)}`;
  console.log(`\nLogged-in search over HTTP, ${run.connections} connections (the round with the median ratio):`);
  for (const r of run.results) {
    if (r.skipped) {
      console.log(`  ${r.label}: skipped (${r.skipped})`);
      continue;
    }
    console.log(`  ${r.label}, ${r.profiles.toLocaleString('en')} profiles${r.fillSeconds ? ` (filled in ${r.fillSeconds} s)` : ''}:`);
    console.log(row('GET /api/settings.php', r.settings));
    console.log(row('GET /api/settings.php (member)', r.settingsMember));
    console.log(row(`GET ${run.path.replace('/api/', '')}`, r.search));
    console.log(
      `    ratio ${r.ratio} [${r.ratios.join(', ')}]; every round: search p99 <= ${r.worst.p99} ms, max ${r.worst.max} ms, ${r.worst.timeouts} timeouts, ${r.worst.errors} errors; target ${r.target}: ${r.pass ? 'PASS' : 'FAIL'}`,
    );
  }
}

if (which === 'all' || which === 'lighthouse') {
  const bundle = runBundleBenchmark();
  const run = await runLighthouseBenchmark();
  save('lighthouse', { ...run, indexJsGzipKb: bundle.gzipKb });
  const t = run.targets;
  console.log(
    `\nLighthouse, mobile preset, simulated throttling, CPU ${run.cpuSlowdown}x slower (median of ${run.runs} runs per page; targets: performance >= ${t.performance}, LCP <= ${t.lcpMs / 1000} s, CLS <= ${t.cls}, accessibility ${t.accessibility}):`,
  );
  for (const r of run.results) {
    if (r.failed) {
      console.log(`  ${r.label.padEnd(26)} no run finished (Lighthouse lost the trace each time)  FAIL`);
      continue;
    }
    console.log(
      `  ${r.label.padEnd(26)} performance ${String(r.performance).padStart(3)} [${r.performanceRuns.join(', ')}]   LCP ${(r.lcpMs / 1000).toFixed(2)} s   FCP ${(r.fcpMs / 1000).toFixed(2)} s   TBT ${r.tbtMs} ms   CLS ${r.cls}   accessibility ${r.accessibility}   benchmark index ${r.benchmarkIndex}${r.failedAccessibility.length ? ` (${r.failedAccessibility.join(', ')})` : ''}   ${r.pass ? 'PASS' : 'FAIL'}`,
    );
  }
  console.log(`  index route JavaScript: ${bundle.gzipKb} KB gzipped (target <= ${bundle.targetKb} KB) ${bundle.pass ? 'PASS' : 'FAIL'}`);
}

if (which === 'all' || which === 'landers') {
  const bundles = runLanderBundleBenchmark();
  const run = await runLanderLighthouseBenchmark((name) => bundles.landers.find((l) => l.name === name)?.gzipKb ?? null);
  save('landers', run);
  const t = run.targets;
  console.log(
    `\nLanders on a phone: Lighthouse mobile preset, simulated throttling, CPU ${run.cpuSlowdown}x slower, each figure the median of ${run.runs} runs (targets: JavaScript <= ${t.jsKb} KB gzipped, performance >= ${t.performance}, LCP <= ${t.lcpMs / 1000} s, CLS <= ${t.cls}); machine load ${run.load.start} at the start, ${run.load.end} at the end:`,
  );
  for (const r of run.results) {
    if (r.failed) {
      console.log(`  ${r.name.padEnd(24)} no run finished (Lighthouse lost the trace each time)  FAIL`);
      continue;
    }
    console.log(
      `  ${r.name.padEnd(24)} JS ${String(r.jsKb).padStart(5)} KB gz (${r.jsTransferredKb} KB sent)   performance ${String(r.performance).padStart(3)} [${r.performanceRuns.join(', ')}]   LCP ${(r.lcpMs / 1000).toFixed(2)} s   CLS ${r.cls}   TBT ${r.tbtMs} ms   before first paint ${(r.bytesBeforePaint / 1024).toFixed(1)} KB   accessibility ${r.accessibility}${r.failedAccessibility.length ? ` (${r.failedAccessibility.join(', ')})` : ''}   ${r.pass ? 'PASS' : 'FAIL'}`,
    );
  }
}

if (which === 'all' || which === 'memory') {
  const memory = await runMemoryBenchmark();
  save('memory', memory);
  const t = memory.targets;
  console.log(
    `\nResident memory (MB) of the built server (${memory.flags.join(' ')}), idle = ${memory.idleSeconds} s after a few requests:`,
  );
  for (const r of memory.results) {
    if (r.skipped) {
      console.log(`  ${r.label}: skipped (${r.skipped})`);
      continue;
    }
    console.log(
      `  ${r.label.padEnd(10)} restarted idle ${String(r.idleMb).padStart(4)} (target <= ${r.idleTargetMb});  first start: peak ${r.firstStartPeakMb} (target < ${t.firstStartPeakMb}), idle after it ${r.firstStartIdleMb}, ready in ${r.firstStartSeconds} s  ${r.pass ? 'PASS' : 'FAIL'}`,
    );
  }
}

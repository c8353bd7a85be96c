import type { AddressInfo } from 'node:net';
import { DataDirLockedError, DEMO_MEMBERS, DEMO_PASSWORD, DEMO_STAFF, DEMO_STAFF_PASSWORD } from '@amora/db';
import { buildApp } from './app';
import { bootstrap, createDemoData, isSeedOnlyProcess } from './bootstrap';
import { loadConfig } from './config';
import { createGracefulStop, DEFAULT_GRACE_MS, drainMsOf } from './lib/graceful-stop';
import { exposedGc, startIdleCollector } from './lib/idle-collector';
import { findAllSites } from './modules/sites/sites.repository';
import { siteAddresses, startBanner } from './start-banner';

async function main(): Promise<void> {
  const config = loadConfig();
  const drainMs = drainMsOf(process.env.SHUTDOWN_DRAIN_MS);
  if (isSeedOnlyProcess()) {
    // Started by bootstrap on a first start: the demo data, then out (nothing else of the server runs here).
    await createDemoData(config);
    process.exit(0);
  }
  let runtime: Awaited<ReturnType<typeof bootstrap>>;
  try {
    runtime = await bootstrap(config);
  } catch (error) {
    if (error instanceof DataDirLockedError) {
      console.error(`\n${error.message}\n`);
      process.exit(1);
    }
    throw error;
  }
  const app = await buildApp(runtime.ctx);
  // Every job's handler is registered now (buildApp): the worker may claim.
  runtime.ctx.jobs.start();

  // Ten seconds without a request after work: one full collection, so an idle server holds what it uses, not
  // what its last requests left behind (lib/idle-collector.ts).
  const collector = startIdleCollector({ collect: exposedGc(), quietMs: 10_000, checkEveryMs: 2_000 });
  app.server.on('request', () => collector.touch());

  // The graceful stop (lib/graceful-stop.ts, docs/operations.md "Rolling restart"): readiness 503 for
  // SHUTDOWN_DRAIN_MS, then no new connections, running requests and jobs finish; a second signal skips the drain.
  const graceful = createGracefulStop(app, {
    drainMs,
    graceMs: DEFAULT_GRACE_MS,
    jobs: runtime.ctx.jobs,
    closeRuntime: () => runtime.close(),
  });
  const shutdown = async (signal: string) => {
    collector.stop();
    const force = setTimeout(() => process.exit(1), drainMs + DEFAULT_GRACE_MS + 2_000);
    force.unref();
    try {
      await graceful.stop(signal);
      (app.log as unknown as { flush?: () => void }).flush?.();
    } finally {
      process.exit(0);
    }
  };
  process.on('SIGTERM', () => void shutdown('SIGTERM'));
  process.on('SIGINT', () => void shutdown('SIGINT'));

  await app.listen({ port: config.port, host: config.host });
  const port = (app.server.address() as { port: number }).port;
  const addresses = await siteAddresses({
    sites: await findAllSites(runtime.ctx.db),
    lookup: runtime.ctx.sites,
    bound: app.addresses().filter((a): a is AddressInfo => typeof a !== 'string'),
    listenHost: config.host,
    port,
    isProduction: config.isProduction,
  });
  const banner = startBanner({
    database: `${config.databaseUrl ? 'PostgreSQL' : `PGlite in ${config.dataDir}/db`}${config.redisUrl ? ' with Redis' : ''}${config.media.kind === 's3' ? `, media in the bucket ${config.media.bucket}` : ''}`,
    addresses,
    apiDocs: config.apiDocs,
    payments: config.payments.mollieApiKey
      ? config.payments.mollieApiKey.startsWith('live_')
        ? 'mollie-live'
        : 'mollie-test'
      : config.payments.sandbox
        ? 'sandbox'
        : 'off',
    mail: config.smtpUrl ? 'smtp' : config.isProduction ? 'outbox' : 'dev-mailbox',
    demo: config.seedDemo ? { logins: DEMO_MEMBERS.map((m) => ({ site: m.site, email: m.email })), password: DEMO_PASSWORD } : null,
    console:
      config.seedDemo && !config.isProduction ? { emails: DEMO_STAFF.map((staff) => staff.email), password: DEMO_STAFF_PASSWORD } : null,
  });
  console.log(banner);
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});

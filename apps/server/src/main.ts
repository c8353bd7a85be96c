import { DataDirLockedError, DEMO_MEMBERS, DEMO_PASSWORD } from '@amora/db';
import { buildApp } from './app';
import { bootstrap } from './bootstrap';
import { loadConfig } from './config';

async function main(): Promise<void> {
  const config = loadConfig();
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

  let closing = false;
  const shutdown = async (signal: string) => {
    if (closing) return;
    closing = true;
    app.log.info({ signal }, 'shutting down');
    const force = setTimeout(() => process.exit(1), 10_000);
    force.unref();
    try {
      await app.close();
      await runtime.close();
      (app.log as unknown as { flush?: () => void }).flush?.();
    } finally {
      process.exit(0);
    }
  };
  process.on('SIGTERM', () => void shutdown('SIGTERM'));
  process.on('SIGINT', () => void shutdown('SIGINT'));

  await app.listen({ port: config.port, host: config.host });
  const port = (app.server.address() as { port: number }).port;
  const shown = config.host === '0.0.0.0' || config.host === '::' ? 'localhost' : config.host;
  const lines = [
    '',
    `Amora is running on ${config.databaseUrl ? 'PostgreSQL' : `PGlite in ${config.dataDir}/db`}${config.redisUrl ? ' with Redis' : ''}.`,
    `  Amora (default site):  http://${shown}:${port}/`,
    `  Herzklopfen:           http://herzklopfen.localhost:${port}/   (or http://127.0.0.1:${port}/)`,
    `  API documentation:     http://${shown}:${port}/api/docs`,
  ];
  if (config.seedDemo) {
    lines.push(`  Demo login:            ${DEMO_MEMBERS[0].email} / ${DEMO_PASSWORD}  (on Herzklopfen: ${DEMO_MEMBERS[1].email})`);
  }
  console.log(`${lines.join('\n')}\n`);
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});

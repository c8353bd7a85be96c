import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { dbOf } from '../../lib/transaction';
import { endpoint } from '../../plugins/endpoints';
import { pingDatabase } from './health.repository';
import { readiness } from './health.service';

export const healthRoutes: FastifyPluginAsyncZod = async (app) => {
  app.route({
    ...endpoint('GET /api/health.php'),
    // Load balancers ask by address: it answers on any host, with no site.
    config: { floodGuard: false, anyHost: true },
    handler: async (_request, reply) => {
      await pingDatabase(dbOf(app.ctx));
      reply.header('cache-control', 'no-store');
      return { status: 'ok' as const, database: 'ok' as const, uptime_seconds: Math.round(process.uptime()) };
    },
  });

  // For load balancers and orchestrators (docs/operations.md, "Metrics and health"), on any host, outside the API.
  // Live: the process is up and its event loop turns (restart it otherwise). It asks nothing else.
  app.get('/health/live', { schema: { hide: true }, config: { anyHost: true } }, async (_request, reply) => {
    reply.header('cache-control', 'no-store');
    return { status: 'live', uptime_seconds: Math.round(process.uptime()) };
  });

  // Ready: send it requests. 503 while the database, its migrations, Redis (when configured) or the media storage
  // fail; the answer names each check's state, the log says what failed (once per change, not at every probe).
  let lastState = 'ready';
  app.get('/health/ready', { schema: { hide: true }, config: { anyHost: true } }, async (_request, reply) => {
    reply.header('cache-control', 'no-store');
    // A stop has begun (lib/graceful-stop.ts): the load balancer drains this process while its requests finish.
    if (app.lifecycle.stopping) return reply.code(503).send({ status: 'stopping' });
    const { ready, checks, errors } = await readiness(app.ctx);
    const state = ready ? 'ready' : JSON.stringify(checks);
    if (state !== lastState) {
      if (ready) app.log.info({ checks }, 'ready again');
      else app.log.warn({ checks, errors }, 'not ready');
      lastState = state;
    }
    reply.code(ready ? 200 : 503);
    return { status: ready ? 'ready' : 'not_ready', checks };
  });
};

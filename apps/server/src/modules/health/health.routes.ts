import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { dbOf } from '../../lib/transaction';
import { endpoint } from '../../plugins/endpoints';
import { pingDatabase } from './health.repository';

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
};

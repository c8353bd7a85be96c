import { healthResponseSchema } from '@amora/contracts';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { dbOf } from '../../lib/transaction';
import { pingDatabase } from './health.repository';

export const healthRoutes: FastifyPluginAsyncZod = async (app) => {
  app.get(
    '/api/health.php',
    {
      schema: { tags: ['operations'], summary: 'Liveness and database reachability', response: { 200: healthResponseSchema } },
      // Load balancers ask by address: it answers on any host, with no site.
      config: { floodGuard: false, anyHost: true },
    },
    async (_request, reply) => {
      await pingDatabase(dbOf(app.ctx));
      reply.header('cache-control', 'no-store');
      return { status: 'ok' as const, database: 'ok' as const, uptime_seconds: Math.round(process.uptime()) };
    },
  );
};

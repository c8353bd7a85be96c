import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { endpoint } from '../../plugins/endpoints';
import { settingsAnswerer } from './settings.service';

export const settingsRoutes: FastifyPluginAsyncZod = async (app) => {
  const answer = settingsAnswerer(app);
  app.route({
    ...endpoint('GET /api/settings.php'),
    // Not async: the answer is usually ready in memory, and a promise per call would cost more than the rest.
    handler: (request, reply) => {
      const json = answer(request, reply, request.query);
      reply.header('cache-control', 'private, no-store').type('application/json; charset=utf-8');
      reply.send(json as never);
    },
  });
};

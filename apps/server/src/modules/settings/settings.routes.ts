import { settingsQuerySchema, settingsSchema } from '@amora/contracts';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { settingsAnswerer } from './settings.service';

export const settingsRoutes: FastifyPluginAsyncZod = async (app) => {
  const answer = settingsAnswerer(app);
  app.get(
    '/api/settings.php',
    {
      schema: {
        tags: ['site'],
        summary: 'Settings of the site picked by the request host (spec §3)',
        querystring: settingsQuerySchema,
        response: { 200: settingsSchema },
      },
    },
    // Not async: the answer is usually ready in memory, and a promise per call would cost more than the rest.
    (request, reply) => {
      const json = answer(request, reply, request.query);
      reply.header('cache-control', 'private, no-store').type('application/json; charset=utf-8');
      reply.send(json as never);
    },
  );
};

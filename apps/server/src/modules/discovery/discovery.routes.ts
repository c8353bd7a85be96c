import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { requireAuth } from '../../plugins/auth';
import { endpoint } from '../../plugins/endpoints';
import { decideMatch, nextMatch, signupMatches, swipe, swipeStack } from './discovery.service';

/** Match-finder, swipe game and signup matches (spec §2 match-finder, swipe-game, signup-matches; §9 4 likes a day). */
export const discoveryRoutes: FastifyPluginAsyncZod = async (app) => {
  const { ctx } = app;
  // Suggestions are personal and change with every action.
  app.addHook('onRequest', async (_request, reply) => {
    reply.header('cache-control', 'private, no-store');
  });

  app.route({
    ...endpoint('GET /api/match-finder.php'),
    handler: async (request) => ({ profile: await nextMatch(ctx, request.site, requireAuth(request)) }),
  });

  app.route({
    ...endpoint('POST /api/match-finder.php'),
    handler: async (request) => decideMatch(ctx, request.site, requireAuth(request), request.body),
  });

  app.route({ ...endpoint('GET /api/swipe-game.php'), handler: async (request) => swipeStack(ctx, request.site, requireAuth(request)) });

  app.route({ ...endpoint('POST /api/swipe-game.php'), handler: async (request) => swipe(ctx, requireAuth(request), request.body) });

  app.route({
    ...endpoint('GET /api/signup-matches.php'),
    handler: async (request) => ({ profiles: await signupMatches(ctx, request.site, requireAuth(request)) }),
  });
};

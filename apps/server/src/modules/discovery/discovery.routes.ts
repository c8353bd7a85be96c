import {
  discoveryActionSchema,
  matchFinderActionResponseSchema,
  matchFinderResponseSchema,
  signupMatchesResponseSchema,
  swipeActionResponseSchema,
  swipeGameResponseSchema,
} from '@amora/contracts';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { requireAuth } from '../../plugins/auth';
import { decideMatch, nextMatch, signupMatches, swipe, swipeStack } from './discovery.service';

/** Match-finder, swipe game and signup matches (spec §2 match-finder, swipe-game, signup-matches; §9 4 likes a day). */
export const discoveryRoutes: FastifyPluginAsyncZod = async (app) => {
  const { ctx } = app;
  const tag = (summary: string) => ({ tags: ['discovery'], summary });
  // Suggestions are personal and change with every action.
  app.addHook('onRequest', async (_request, reply) => {
    reply.header('cache-control', 'private, no-store');
  });

  app.get(
    '/api/match-finder.php',
    { schema: { ...tag('The one best suggestion for me, or null'), response: { 200: matchFinderResponseSchema } } },
    async (request) => ({ profile: await nextMatch(ctx, request.site, requireAuth(request)) }),
  );

  app.post(
    '/api/match-finder.php',
    {
      schema: {
        ...tag('Like (source match_finder) or skip a suggestion; answers the next one'),
        body: discoveryActionSchema,
        response: { 200: matchFinderActionResponseSchema },
      },
    },
    async (request) => decideMatch(ctx, request.site, requireAuth(request), request.body),
  );

  app.get(
    '/api/swipe-game.php',
    {
      schema: {
        ...tag('Up to 10 cards for the swipe game and the likes left today (4 a day, reset at midnight UTC)'),
        response: { 200: swipeGameResponseSchema },
      },
    },
    async (request) => swipeStack(ctx, request.site, requireAuth(request)),
  );

  app.post(
    '/api/swipe-game.php',
    {
      schema: {
        ...tag('Like (at most 4 a day; the fifth is a 429 swipe_limit) or skip (unlimited) a card'),
        body: discoveryActionSchema,
        response: { 200: swipeActionResponseSchema },
      },
    },
    async (request) => swipe(ctx, requireAuth(request), request.body),
  );

  app.get(
    '/api/signup-matches.php',
    { schema: { ...tag('Up to six suggestions right after signup'), response: { 200: signupMatchesResponseSchema } } },
    async (request) => ({ profiles: await signupMatches(ctx, request.site, requireAuth(request)) }),
  );
};

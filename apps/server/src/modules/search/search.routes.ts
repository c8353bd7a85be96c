import { searchQuerySchema, searchResponseSchema } from '@amora/contracts';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { authenticationRequired } from '../../lib/errors';
import { parseTracking } from '../../lib/tracking';
import { search } from './search.service';

export const searchRoutes: FastifyPluginAsyncZod = async (app) => {
  app.get(
    '/api/search.php',
    {
      schema: {
        tags: ['discovery'],
        summary:
          'Member search with the site’s search fields; keyset pages of 24 (numResults only on the first page, -1 after); only mutual interest for a member; a default search (widen=auto) that finds few widens to the country, then nearby countries (widened)',
        querystring: searchQuerySchema,
        response: { 200: searchResponseSchema },
      },
    },
    async (request, reply) => {
      const { site, auth } = request;
      if (!auth) {
        const hasTrafficsource = Object.keys(parseTracking(request.cookies.tracking)).length > 0;
        if (!(site.loggedOutSearch || (hasTrafficsource && site.loggedOutSearchTrafficsource))) throw authenticationRequired();
      }
      reply.header('cache-control', 'private, no-store');
      return search(app.ctx, site, auth, request.query);
    },
  );
};

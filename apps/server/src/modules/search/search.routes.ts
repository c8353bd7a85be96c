import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { authenticationRequired } from '../../lib/errors';
import { parseTracking } from '../../lib/tracking';
import { endpoint } from '../../plugins/endpoints';
import { search } from './search.service';

export const searchRoutes: FastifyPluginAsyncZod = async (app) => {
  app.route({
    ...endpoint('GET /api/search.php'),
    handler: async (request, reply) => {
      const { site, auth } = request;
      if (!auth) {
        const hasTrafficsource = Object.keys(parseTracking(request.cookies.tracking)).length > 0;
        if (!(site.loggedOutSearch || (hasTrafficsource && site.loggedOutSearchTrafficsource))) throw authenticationRequired();
      }
      reply.header('cache-control', 'private, no-store');
      return search(app.ctx, site, auth, request.query);
    },
  });
};

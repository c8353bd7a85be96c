import { isLanderSlug } from '@amora/contracts';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { notFound } from '../../lib/errors';
import { endpoint } from '../../plugins/endpoints';
import { geoipCountry, selectedCountry } from '../settings/settings.service';
import { landerData } from './landers.service';

/** The landers' data (GET /api/lander.php): what the server renders a lander from, and the app if it renders one. */
export const landersRoutes: FastifyPluginAsyncZod = async (app) => {
  const { ctx } = app;

  app.route({
    ...endpoint('GET /api/lander.php'),
    handler: async (request, reply) => {
      const { slug } = request.query;
      if (slug !== undefined && !isLanderSlug(slug)) throw notFound('This lander could not be found');
      const country = selectedCountry(request.site, geoipCountry(request, ctx.config));
      // The same for every visitor of the site and country for a while; the browser may keep it a minute.
      reply.header('cache-control', 'private, max-age=60');
      return landerData(ctx, request.site, country);
    },
  });
};

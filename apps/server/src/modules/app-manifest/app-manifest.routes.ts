import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { endpoint } from '../../plugins/endpoints';
import { presentManifest } from './app-manifest.presenter';
import { appIcon } from './app-manifest.service';

/** The installed app (spec §2): the manifest of the request's site and its icons, linked from every page's head. */
export const appManifestRoutes: FastifyPluginAsyncZod = async (app) => {
  app.route({
    ...endpoint('GET /api/manifest.webmanifest'),
    handler: async (request, reply) => {
      reply.header('cache-control', 'public, max-age=3600').type('application/manifest+json; charset=utf-8');
      return presentManifest(request.site);
    },
  });

  app.route({
    ...endpoint('GET /api/assets/app-icon/:name.png'),
    handler: async (request, reply) => {
      const png = await appIcon(request.site, request.params.name);
      reply.header('cache-control', 'public, max-age=86400').type('image/png');
      return png;
    },
  });
};

import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { requireAuth } from '../../plugins/auth';
import { endpoint } from '../../plugins/endpoints';
import { exportStatus, openDownload, requestExport } from './data-export.service';

/** A member's copy of their data: its state, asking for it, and the mailed download link. */
export const dataExportRoutes: FastifyPluginAsyncZod = async (app) => {
  const { ctx } = app;

  app.route({
    ...endpoint('GET /api/data-export.php'),
    handler: async (request, reply) => {
      reply.header('cache-control', 'private, no-store');
      return exportStatus(ctx, requireAuth(request).user.id);
    },
  });

  app.route({
    ...endpoint('POST /api/data-export.php'),
    handler: async (request) => requestExport(ctx, requireAuth(request).user.id),
  });

  app.route({
    ...endpoint('GET /api/data-export.php?download=1'),
    config: { floodGuard: { max: 30 } },
    handler: async (request, reply) => {
      reply.header('cache-control', 'private, no-store');
      const auth = requireAuth(request);
      const download = await openDownload(ctx, auth.user.id, request.query.token);
      const day = download.readyAt.toISOString().slice(0, 10);
      const site = request.site.name.replace(/[^\w-]+/g, '-').toLowerCase() || 'data';
      return reply
        .header('content-type', 'application/zip')
        .header('content-length', String(download.size))
        .header('content-disposition', `attachment; filename="${site}-my-data-${day}.zip"`)
        .header('x-content-type-options', 'nosniff')
        .send(download.stream);
    },
  });
};

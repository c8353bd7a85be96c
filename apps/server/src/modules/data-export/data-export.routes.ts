import type { FastifyReply } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { requireAuth } from '../../plugins/auth';
import { endpoint } from '../../plugins/endpoints';
import { exportStatus, openDownload, openLatestDownload, requestExport } from './data-export.service';

/** The ZIP as an attachment named after the site and the day it was made ("amora-my-data-2026-11-29.zip"). */
function sendZip(reply: FastifyReply, siteName: string, download: Awaited<ReturnType<typeof openDownload>>) {
  const day = download.readyAt.toISOString().slice(0, 10);
  const site = siteName.replace(/[^\w-]+/g, '-').toLowerCase() || 'data';
  return reply
    .header('content-type', 'application/zip')
    .header('content-length', String(download.size))
    .header('content-disposition', `attachment; filename="${site}-my-data-${day}.zip"`)
    .header('x-content-type-options', 'nosniff')
    .send(download.stream);
}

/** A member's copy of their data: its state, asking for it, and the download links (the mail's and the settings page's). */
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
      const download = await openDownload(ctx, requireAuth(request).user.id, request.query.token);
      return sendZip(reply, request.site.name, download);
    },
  });

  app.route({
    ...endpoint('GET /api/data-export.php?download=latest'),
    config: { floodGuard: { max: 30 } },
    handler: async (request, reply) => {
      reply.header('cache-control', 'private, no-store');
      const download = await openLatestDownload(ctx, requireAuth(request).user.id);
      return sendZip(reply, request.site.name, download);
    },
  });
};

import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { notFound } from '../../lib/errors';
import { requireAuth } from '../../plugins/auth';
import { endpoint } from '../../plugins/endpoints';
import { requireStaff } from '../../plugins/staff-auth';
import { readPhotoForModeration } from '../photos/photos.service';
import { acknowledgeNotices, actOnItem, moderationItem, moderationNotices, moderationQueue, undoSanction } from './moderation.service';

/** The console's moderation (moderators and admins) and the member's notices of it. */
export const moderationRoutes: FastifyPluginAsyncZod = async (app) => {
  const { ctx } = app;
  const staff = { staff: ['moderator'] as const };

  app.route({
    ...endpoint('GET /api/console/moderation/queue'),
    config: staff,
    handler: async (request) => moderationQueue(ctx, request.query),
  });

  app.route({
    ...endpoint('GET /api/console/moderation/items/:kind/:id'),
    config: staff,
    handler: async (request) => moderationItem(ctx, request.params.kind, request.params.id),
  });

  app.route({
    ...endpoint('POST /api/console/moderation/items/:kind/:id/actions'),
    config: staff,
    handler: async (request) => {
      const auth = requireStaff(request);
      const done = await actOnItem(ctx, { staffId: auth.staff.id, ip: request.ip }, request.params.kind, request.params.id, request.body);
      return { ok: true as const, ...done };
    },
  });

  app.route({
    ...endpoint('POST /api/console/moderation/sanctions/:id/undo'),
    config: staff,
    handler: async (request) => {
      const auth = requireStaff(request);
      return { ok: true as const, ...(await undoSanction(ctx, { staffId: auth.staff.id, ip: request.ip }, request.params.id)) };
    },
  });

  app.route({
    ...endpoint('GET /api/console/moderation/photos/:id'),
    config: staff,
    handler: async (request, reply) => {
      const bytes = await readPhotoForModeration(ctx, request.params.id);
      reply.header('cache-control', 'private, no-store');
      if (!bytes) throw notFound('Photo not found');
      return reply.header('content-type', 'image/webp').send(bytes);
    },
  });

  app.route({
    ...endpoint('GET /api/moderation.php'),
    handler: async (request) => moderationNotices(ctx, requireAuth(request).user.id),
  });

  app.route({
    ...endpoint('POST /api/moderation.php'),
    handler: async (request) => {
      await acknowledgeNotices(ctx, requireAuth(request).user.id, request.body);
      return { ok: true as const };
    },
  });
};

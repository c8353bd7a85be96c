import type { FastifyRequest } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { endpoint } from '../../plugins/endpoints';
import { requireStaff } from '../../plugins/staff-auth';
import {
  cancelMailing,
  changeMailing,
  createMailing,
  listMailings,
  mailingDetail,
  previewMailing,
  scheduleMailing,
  testMailing,
} from './campaigns.service';

/**
 * News and promotions in the console: admins write, preview, test, send and cancel them; support may read them
 * (to answer a member who asks about a mail), never change or send one (plugins/staff-auth.ts checks the roles).
 */
export const campaignsRoutes: FastifyPluginAsyncZod = async (app) => {
  const { ctx } = app;
  const actorOf = (request: FastifyRequest) => ({ staffId: requireStaff(request).staff.id, ip: request.ip });
  const authorOf = (request: FastifyRequest) => {
    const { staff } = requireStaff(request);
    return { name: staff.name, email: staff.email };
  };
  const readers = { staff: ['admin' as const, 'support' as const] };
  const writers = { staff: ['admin' as const] };
  const noStore = { 'cache-control': 'private, no-store' };

  app.route({
    ...endpoint('GET /api/console/mailings'),
    config: readers,
    handler: async (request, reply) => {
      reply.headers(noStore);
      return listMailings(ctx, request.query);
    },
  });
  app.route({
    ...endpoint('GET /api/console/mailings/:id'),
    config: readers,
    handler: async (request, reply) => {
      reply.headers(noStore);
      return mailingDetail(ctx, request.params.id);
    },
  });
  app.route({
    ...endpoint('POST /api/console/mailings'),
    config: writers,
    handler: async (request, reply) => {
      reply.code(201);
      return createMailing(ctx, actorOf(request), request.body);
    },
  });
  app.route({
    ...endpoint('PUT /api/console/mailings/:id'),
    config: writers,
    handler: async (request) => changeMailing(ctx, actorOf(request), request.params.id, request.body),
  });
  app.route({
    ...endpoint('POST /api/console/mailings/preview'),
    config: writers,
    handler: async (request, reply) => {
      reply.headers(noStore);
      return previewMailing(ctx, authorOf(request), request.body);
    },
  });
  app.route({
    ...endpoint('POST /api/console/mailings/:id/test'),
    config: writers,
    handler: async (request) => testMailing(ctx, actorOf(request), authorOf(request), request.params.id, request.body.locale),
  });
  app.route({
    ...endpoint('POST /api/console/mailings/:id/send'),
    config: writers,
    handler: async (request) => scheduleMailing(ctx, actorOf(request), request.params.id, request.body.send_at),
  });
  app.route({
    ...endpoint('POST /api/console/mailings/:id/cancel'),
    config: writers,
    handler: async (request) => cancelMailing(ctx, actorOf(request), request.params.id),
  });
};

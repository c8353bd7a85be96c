import type { FastifyRequest } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { endpoint } from '../../plugins/endpoints';
import { PHOTO_HEADERS } from '../../plugins/security-headers';
import { requireStaff } from '../../plugins/staff-auth';
import {
  adjustCredits,
  clearLockout,
  deleteMember,
  eraseMember,
  findMembers,
  memberDetail,
  memberLedger,
  memberPhoto,
  refund,
  resendActivation,
  unblockDirectDebit,
} from './support.service';

/** Views: moderators too (read only). */
const VIEW = ['moderator', 'support'] as const;
/** Actions: support (admins always). */
const ACT = ['support'] as const;

/** Member support in the console (plugins/staff-auth.ts guards each route by `config.staff`). */
export const supportRoutes: FastifyPluginAsyncZod = async (app) => {
  const { ctx } = app;
  const actorOf = (request: FastifyRequest) => ({ staffId: requireStaff(request).staff.id, ip: request.ip });
  const ok = { ok: true as const };

  app.route({
    ...endpoint('GET /api/console/members'),
    config: { staff: [...VIEW] },
    handler: async (request) => findMembers(ctx, request.query.q, request.query.page),
  });

  app.route({
    ...endpoint('GET /api/console/members/:userId'),
    config: { staff: [...VIEW] },
    handler: async (request) => memberDetail(ctx, request.params.userId),
  });

  app.route({
    ...endpoint('GET /api/console/members/:userId/ledger'),
    config: { staff: [...VIEW] },
    handler: async (request) => memberLedger(ctx, request.params.userId, request.query.page),
  });

  app.route({
    ...endpoint('GET /api/console/members/:userId/photos/:photoId'),
    config: { staff: [...VIEW] },
    handler: async (request, reply) => {
      const bytes = await memberPhoto(ctx, request.params.userId, request.params.photoId, request.query.v);
      return reply.header('content-type', 'image/webp').header('cache-control', 'private, no-store').headers(PHOTO_HEADERS).send(bytes);
    },
  });

  app.route({
    ...endpoint('POST /api/console/members/:userId/resend-activation'),
    config: { staff: [...ACT] },
    handler: async (request) => {
      await resendActivation(ctx, actorOf(request), request.params.userId);
      return ok;
    },
  });

  app.route({
    ...endpoint('POST /api/console/members/:userId/clear-lockout'),
    config: { staff: [...ACT] },
    handler: async (request) => {
      await clearLockout(ctx, actorOf(request), request.params.userId);
      return ok;
    },
  });

  app.route({
    ...endpoint('POST /api/console/members/:userId/credits'),
    config: { staff: [...ACT] },
    handler: async (request) => adjustCredits(ctx, actorOf(request), request.params.userId, request.body),
  });

  app.route({
    ...endpoint('POST /api/console/members/:userId/orders/:orderId/refund'),
    config: { staff: [...ACT] },
    handler: async (request) => refund(ctx, actorOf(request), requireStaff(request).staff, request.params, request.body),
  });

  app.route({
    ...endpoint('POST /api/console/members/:userId/unblock-direct-debit'),
    config: { staff: [...ACT] },
    handler: async (request) => {
      await unblockDirectDebit(ctx, actorOf(request), request.params.userId, request.body.reason);
      return ok;
    },
  });

  app.route({
    ...endpoint('POST /api/console/members/:userId/delete'),
    config: { staff: [...ACT] },
    handler: async (request) => {
      await deleteMember(ctx, actorOf(request), request.params.userId, request.body.reason);
      return ok;
    },
  });

  app.route({
    ...endpoint('POST /api/console/members/:userId/erase'),
    config: { staff: ['admin'] },
    handler: async (request) => {
      await eraseMember(ctx, actorOf(request), request.params.userId, request.body.reason);
      return ok;
    },
  });
};

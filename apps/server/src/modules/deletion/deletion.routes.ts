import { REACTIVATION_DAYS } from '@amora/contracts';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { requireAuth } from '../../plugins/auth';
import { endpoint } from '../../plugins/endpoints';
import { presentMemberById, requestInfo } from '../auth/auth.service';
import { clearSessionCookie, setSessionCookie } from '../sessions/sessions.service';
import { deleteAccount, offerDeleteDiscount, reactivate } from './deletion.service';

/** Deleting an account: the discount offered before, the deletion, and reactivation with the emailed link. */
export const deletionRoutes: FastifyPluginAsyncZod = async (app) => {
  const { ctx } = app;

  app.route({
    ...endpoint('DELETE /api/user.php'),
    handler: async (request, reply) => {
      const auth = requireAuth(request);
      await deleteAccount(ctx, requestInfo(request, auth.user.language), auth.user, auth.profile.name, request.body);
      clearSessionCookie(reply);
      return { ok: true as const, reactivation_days: REACTIVATION_DAYS };
    },
  });

  app.route({
    ...endpoint('POST /api/delete-discount.php'),
    handler: async (request) => {
      const auth = requireAuth(request);
      return offerDeleteDiscount(ctx, auth.user, request.site, request.body.password);
    },
  });

  app.route({
    ...endpoint('POST /api/reactivate.php'),
    handler: async (request, reply) => {
      const { user, session } = await reactivate(ctx, requestInfo(request), request.body.token);
      setSessionCookie(reply, session.token, ctx.config.isProduction);
      return { user: await presentMemberById(ctx, request.site, user.id) };
    },
  });
};

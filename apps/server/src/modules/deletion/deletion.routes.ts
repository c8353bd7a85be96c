import {
  deleteAccountResponseSchema,
  deleteAccountSchema,
  deleteDiscountRequestSchema,
  discountOfferResponseSchema,
  REACTIVATION_DAYS,
  tokenSchema,
  userResponseSchema,
} from '@amora/contracts';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { requireAuth } from '../../plugins/auth';
import { presentMemberById, requestInfo } from '../auth/auth.service';
import { clearSessionCookie, setSessionCookie } from '../sessions/sessions.service';
import { deleteAccount, offerDeleteDiscount, reactivate } from './deletion.service';

/** Deleting an account: the discount offered before, the deletion, and reactivation with the emailed link. */
export const deletionRoutes: FastifyPluginAsyncZod = async (app) => {
  const { ctx } = app;
  const tag = (summary: string) => ({ tags: ['accounts'], summary });

  app.delete(
    '/api/user.php',
    {
      schema: {
        ...tag('Delete the account (reactivation possible for 14 days)'),
        body: deleteAccountSchema,
        response: { 200: deleteAccountResponseSchema },
      },
    },
    async (request, reply) => {
      const auth = requireAuth(request);
      await deleteAccount(ctx, requestInfo(request, auth.user.language), auth.user, auth.profile.name, request.body);
      clearSessionCookie(reply);
      return { ok: true as const, reactivation_days: REACTIVATION_DAYS };
    },
  );

  app.post(
    '/api/delete-discount.php',
    {
      schema: {
        ...tag("The site's discount offered to a member deleting their account (with the password), once per member"),
        body: deleteDiscountRequestSchema,
        response: { 200: discountOfferResponseSchema },
      },
    },
    async (request) => {
      const auth = requireAuth(request);
      return offerDeleteDiscount(ctx, auth.user, request.site, request.body.password);
    },
  );

  app.post(
    '/api/reactivate.php',
    { schema: { ...tag('Reactivate a deleted account with the emailed link'), body: tokenSchema, response: { 200: userResponseSchema } } },
    async (request, reply) => {
      const { user, session } = await reactivate(ctx, requestInfo(request), request.body.token);
      setSessionCookie(reply, session.token, ctx.config.isProduction);
      return { user: await presentMemberById(ctx, request.site, user.id) };
    },
  );
};

import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { requireAuth } from '../../plugins/auth';
import { endpoint } from '../../plugins/endpoints';
import { smsOf } from '../sms/sms.service';
import { confirmDirectDebit, directDebitStatus, resendCode, startDirectDebit } from './directdebit.service';

/**
 * Direct debit (/directdebit): the form (step details), the SMS code (step otp; step resend for a new one) and the
 * member's mandate with their blocked flag and open direct debits.
 */
export const directDebitRoutes: FastifyPluginAsyncZod = async (app) => {
  const { ctx } = app;
  // Made at start, so this process's worker sends SMS queued before it started (and closed with the app).
  const sms = smsOf(ctx, app.log);
  app.addHook('onClose', () => sms.close());

  app.route({
    ...endpoint('GET /api/directdebit.php'),
    handler: async (request, reply) => {
      const auth = requireAuth(request);
      reply.header('cache-control', 'private, no-store');
      return directDebitStatus(ctx, auth.user.id);
    },
  });

  app.route({
    ...endpoint('POST /api/directdebit.php'),
    handler: async (request) => {
      const userId = requireAuth(request).user.id;
      const body = request.body;
      if (body.step === 'otp') return confirmDirectDebit(ctx, userId, body.verification, body.otp);
      if (body.step === 'resend') return resendCode(ctx, userId, body.verification, request.ip);
      const { step: _step, ...details } = body;
      return startDirectDebit(ctx, userId, details, request.ip);
    },
  });
};

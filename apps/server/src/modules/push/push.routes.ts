import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { requireAuth } from '../../plugins/auth';
import { endpoint } from '../../plugins/endpoints';
import { saveSubscription, vapidKeys } from './push.service';

/** Web Push: this device's subscription (spec §7 `POST /api/user.php?push=1`, sent again at every app start). */
export const pushRoutes: FastifyPluginAsyncZod = async (app) => {
  const { ctx } = app;
  // The key pair is read (or made, on the very first start) before any request: the settings carry its public key.
  await vapidKeys(ctx);

  app.route({
    ...endpoint('POST /api/user.php?push=1'),
    handler: async (request) => {
      const auth = requireAuth(request);
      await saveSubscription(ctx, { userId: auth.user.id, siteId: request.site.id }, request.body, request.headers['user-agent'] ?? '');
      return { ok: true as const };
    },
  });
};

import type { FastifyPluginAsyncZod, ZodTypeProvider } from 'fastify-type-provider-zod';
import { notFound } from '../../lib/errors';
import { requireAuth } from '../../plugins/auth';
import { endpoint } from '../../plugins/endpoints';
import { notificationSettings, resumeMail, savePreferences } from './notifications.service';
import { describeUnsubscribe, unsubscribe } from './unsubscribe.service';

/** What a mail client's one-click POST may carry (RFC 8058: `List-Unsubscribe=One-Click`); it is not read. */
const ONE_CLICK_BODY_LIMIT = 4096;

const invalidLink = () => notFound('This unsubscribe link is not valid');

/** The notifications page's calls, and the unsubscribe links of mails. */
export const notificationsRoutes: FastifyPluginAsyncZod = async (app) => {
  const { ctx } = app;

  app.route({
    ...endpoint('GET /api/notifications.php'),
    handler: async (request, reply) => {
      reply.header('cache-control', 'private, no-store');
      return notificationSettings(ctx, requireAuth(request));
    },
  });

  app.route({
    ...endpoint('PUT /api/notifications.php'),
    handler: async (request) => {
      const auth = requireAuth(request);
      await savePreferences(ctx, auth.user.id, request.body.preferences);
      return notificationSettings(ctx, auth);
    },
  });

  app.route({
    ...endpoint('POST /api/notifications.php'),
    handler: async (request) => {
      const auth = requireAuth(request);
      await resumeMail(ctx, auth.user.id, request.body.reasons);
      return notificationSettings(ctx, auth);
    },
  });

  app.route({
    ...endpoint('GET /api/unsubscribe.php'),
    config: { floodGuard: { max: 30 } },
    handler: async (request, reply) => {
      reply.header('cache-control', 'private, no-store');
      const info = await describeUnsubscribe(ctx, request.site, request.query.t);
      if (!info) throw invalidLink();
      return info;
    },
  });

  app.route({
    ...endpoint('PUT /api/unsubscribe.php'),
    config: { floodGuard: { max: 30 } },
    handler: async (request) => {
      if (!(await unsubscribe(ctx, request.site, request.query.t, request.body.scope))) throw invalidLink();
      return { ok: true as const };
    },
  });

  // The one-click POST comes as a form (or whatever a mail client sends); parsed in this scope only, never read.
  await app.register(async (plain) => {
    const scope = plain.withTypeProvider<ZodTypeProvider>();
    scope.addContentTypeParser(
      ['application/x-www-form-urlencoded', 'multipart/form-data', 'text/plain'],
      { parseAs: 'string', bodyLimit: ONE_CLICK_BODY_LIMIT },
      (_request, _body, done) => done(null, undefined),
    );
    scope.route({
      ...endpoint('POST /api/unsubscribe.php'),
      config: { floodGuard: { max: 30 } },
      handler: async (request) => {
        if (!(await unsubscribe(ctx, request.site, request.query.t, 'all'))) throw invalidLink();
        return { ok: true as const };
      },
    });
  });
};

import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { badRequest } from '../../lib/errors';
import { dbOf } from '../../lib/transaction';
import { endpoint } from '../../plugins/endpoints';
import { markPresence } from '../notifications/notifications.service';
import { addBounce } from './page-hidden.repository';

/**
 * The beacon the web app sends when the page becomes hidden. Only when the landing query carried `lb`
 * does it count a bounce: per site, landing path and day, plus the time the page was visible.
 * No address, cookie or user id is stored with it. A logged-in member's beacon says they went away (their
 * activity mail may follow, modules/notifications).
 */
export const pageHiddenRoutes: FastifyPluginAsyncZod = async (app) => {
  // navigator.sendBeacon posts a string as text/plain; in this plugin's scope it is read as JSON.
  app.addContentTypeParser('text/plain', { parseAs: 'string', bodyLimit: 4096 }, (_request, body, done) => {
    try {
      done(null, body === '' ? {} : JSON.parse(body as string));
    } catch {
      done(badRequest('body', 'Body is not JSON'), undefined);
    }
  });
  app.route({
    ...endpoint('POST /api/page-hidden.php'),
    config: { floodGuard: { max: 30 } },
    // A beacon without data has no body; Fastify validates a missing body as null, which the schema's default does not cover.
    preValidation: async (request) => {
      if (request.body === undefined) request.body = {};
    },
    handler: async (request) => {
      const body = request.body ?? {};
      if (body.lb !== undefined && body.lb !== false && body.lb !== '0') {
        const path = (body.path ?? '/').split('?')[0].slice(0, 200) || '/';
        const day = app.ctx.now().toISOString().slice(0, 10);
        await addBounce(dbOf(app.ctx), { siteId: request.site.id, day, path, visibleMs: body.visible_ms ?? 0 });
      }
      // A member's page hid: they are away (the live channel says so too, but a closing page may not get to it).
      if (request.auth) await markPresence(app.ctx, request.auth.user.id, false);
      return { ok: true as const };
    },
  });
};

import { isLocale, LOCALE_COOKIE } from '@amora/contracts';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { endpoint } from '../../plugins/endpoints';
import { fileComplaint } from './complaints.service';

export const complaintsRoutes: FastifyPluginAsyncZod = async (app) => {
  app.route({
    ...endpoint('POST /api/complaints.php'),
    handler: async (request) => {
      const cookieLocale = request.cookies[LOCALE_COOKIE];
      const reference = await fileComplaint(app.ctx, {
        ...request.body,
        site: request.site,
        ip: request.ip,
        language: isLocale(cookieLocale) ? cookieLocale : 'en',
        userId: null,
      });
      return { ok: true as const, reference };
    },
  });
};

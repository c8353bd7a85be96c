import { complaintResponseSchema, complaintSchema, isLocale, LOCALE_COOKIE } from '@amora/contracts';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { fileComplaint } from './complaints.service';

export const complaintsRoutes: FastifyPluginAsyncZod = async (app) => {
  app.post(
    '/api/complaints.php',
    {
      schema: {
        tags: ['support'],
        summary: 'File a complaint with the site operator',
        body: complaintSchema,
        response: { 200: complaintResponseSchema },
      },
    },
    async (request) => {
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
  );
};

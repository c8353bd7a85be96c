import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { endpoint } from '../../plugins/endpoints';
import { businessReport, reportCsv } from './reports.service';

/** Business reports in the console: admins only (no other role is named; plugins/staff-auth.ts). */
export const reportsRoutes: FastifyPluginAsyncZod = async (app) => {
  const { ctx } = app;
  const config = { staff: ['admin' as const] };

  app.route({
    ...endpoint('GET /api/console/reports'),
    config,
    handler: async (request, reply) => {
      reply.header('cache-control', 'private, no-store');
      return businessReport(ctx, request.query);
    },
  });

  app.route({
    ...endpoint('GET /api/console/reports.csv'),
    config,
    handler: async (request, reply) => {
      const report = await businessReport(ctx, request.query);
      const name = `report-${report.site_id ?? 'all'}-${report.from}-${report.to}.csv`;
      return reply
        .header('cache-control', 'private, no-store')
        .header('content-type', 'text/csv; charset=utf-8')
        .header('content-disposition', `attachment; filename="${name}"`)
        .send(reportCsv(report));
    },
  });
};

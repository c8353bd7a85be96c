import type { FastifyRequest } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { endpoint } from '../../plugins/endpoints';
import { requireStaff } from '../../plugins/staff-auth';
import {
  addDiscountCode,
  addSitePackage,
  changeCode,
  changeCompanyData,
  changePaymentMethods,
  changeSite,
  changeSitePackage,
  companyDetail,
  listDiscountCodes,
  listSites,
  packagesOf,
  paymentMethodsOf,
  siteDetail,
} from './site-admin.service';

/** Sites, companies and prices in the console. */
export const siteAdminRoutes: FastifyPluginAsyncZod = async (app) => {
  const { ctx } = app;
  const actorOf = (request: FastifyRequest) => ({ staffId: requireStaff(request).staff.id, ip: request.ip });
  // Admins only: no other role is named (plugins/staff-auth.ts).
  const config = { staff: ['admin' as const] };

  app.route({ ...endpoint('GET /api/console/sites'), config, handler: async () => listSites(ctx) });
  app.route({ ...endpoint('GET /api/console/sites/:id'), config, handler: async (request) => siteDetail(ctx, request.params.id) });
  app.route({
    ...endpoint('PUT /api/console/sites/:id'),
    config,
    handler: async (request) => changeSite(ctx, actorOf(request), request.params.id, request.body),
  });

  app.route({ ...endpoint('GET /api/console/companies/:id'), config, handler: async (request) => companyDetail(ctx, request.params.id) });
  app.route({
    ...endpoint('PUT /api/console/companies/:id'),
    config,
    handler: async (request) => changeCompanyData(ctx, actorOf(request), request.params.id, request.body),
  });

  app.route({
    ...endpoint('GET /api/console/sites/:id/packages'),
    config,
    handler: async (request) => packagesOf(ctx, request.params.id),
  });
  app.route({
    ...endpoint('POST /api/console/sites/:id/packages'),
    config,
    handler: async (request) => addSitePackage(ctx, actorOf(request), request.params.id, request.body),
  });
  app.route({
    ...endpoint('PUT /api/console/sites/:id/packages/:packageId'),
    config,
    handler: async (request) => changeSitePackage(ctx, actorOf(request), request.params.id, request.params.packageId, request.body),
  });

  app.route({
    ...endpoint('GET /api/console/sites/:id/payment-methods'),
    config,
    handler: async (request) => paymentMethodsOf(ctx, request.params.id),
  });
  app.route({
    ...endpoint('PUT /api/console/sites/:id/payment-methods'),
    config,
    handler: async (request) => changePaymentMethods(ctx, actorOf(request), request.params.id, request.body),
  });

  app.route({ ...endpoint('GET /api/console/discount-codes'), config, handler: async (request) => listDiscountCodes(ctx, request.query) });
  app.route({
    ...endpoint('POST /api/console/discount-codes'),
    config,
    handler: async (request) => addDiscountCode(ctx, actorOf(request), request.body),
  });
  app.route({
    ...endpoint('PUT /api/console/discount-codes/:id'),
    config,
    handler: async (request) => changeCode(ctx, actorOf(request), request.params.id, request.body),
  });
};

import type { FastifyRequest } from 'fastify';
import type { FastifyPluginAsyncZod, ZodTypeProvider } from 'fastify-type-provider-zod';
import { HttpError } from '../../lib/errors';
import { requireAuth } from '../../plugins/auth';
import { endpoint } from '../../plugins/endpoints';
import { geoipCountry, selectedCountry } from '../settings/settings.service';
import { repeatOrder, startOrder } from './checkout.service';
import { handleWebhook } from './order-status.service';
import { methodsFor, packagesFor, pricingFor, transactionOf, transactionsOf } from './payments.service';

/** Form bodies of at most this size (the provider posts `id=tr_…`). */
const WEBHOOK_BODY_LIMIT = 1024;

/**
 * Buying credits (spec §2 credits, credits-id-paymentmethod, credits-repeat-order, pricing, transactions-id):
 * packages.php, paymentmethods.php, payments.php, repeat-order.php, transactions.php, pricing.php and the
 * provider's webhook.
 */
export const paymentsRoutes: FastifyPluginAsyncZod = async (app) => {
  const { ctx } = app;
  /** The visitor's country by the geo header: a member's payment country until their first purchase fixes it. */
  const visitorCountryOf = (request: FastifyRequest) => geoipCountry(request, ctx.config);

  app.route({
    ...endpoint('GET /api/packages.php'),
    handler: async (request, reply) => {
      reply.header('cache-control', 'private, no-store');
      return packagesFor(ctx, request.site, requireAuth(request), request.query.discountcode, visitorCountryOf(request));
    },
  });

  app.route({
    ...endpoint('GET /api/paymentmethods.php'),
    handler: async (request, reply) => {
      reply.header('cache-control', 'private, no-store');
      return methodsFor(ctx, request.site, requireAuth(request), {
        packageId: request.query.package,
        code: request.query.discountcode,
        visitorCountry: visitorCountryOf(request),
      });
    },
  });

  app.route({
    ...endpoint('GET /api/pricing.php'),
    handler: async (request, reply) => {
      reply.header('cache-control', 'private, max-age=60');
      const { site } = request;
      return pricingFor(ctx, site, {
        userId: request.auth?.user.id ?? null,
        country: request.query.country ?? null,
        visitorCountry: selectedCountry(site, geoipCountry(request, ctx.config)),
      });
    },
  });

  app.route({
    ...endpoint('POST /api/payments.php'),
    handler: async (request, reply) => {
      const { package: packageId, method, discountcode, request_id } = request.body;
      const { created, ...answer } = await startOrder(ctx, request.site, requireAuth(request), {
        packageId,
        method,
        code: discountcode,
        requestId: request_id,
        visitorCountry: visitorCountryOf(request),
      });
      return reply.status(created ? 201 : 200).send(answer);
    },
  });

  app.route({
    ...endpoint('POST /api/repeat-order.php'),
    handler: async (request, reply) => {
      const { created, ...answer } = await repeatOrder(
        ctx,
        request.site,
        requireAuth(request),
        request.body.request_id,
        visitorCountryOf(request),
      );
      return reply.status(created ? 201 : 200).send(answer);
    },
  });

  app.route({
    ...endpoint('GET /api/transactions.php'),
    handler: async (request, reply) => {
      reply.header('cache-control', 'private, no-store');
      const auth = requireAuth(request);
      const { id } = request.query;
      return id === undefined ? transactionsOf(ctx, auth) : transactionOf(ctx, request.site, auth, id);
    },
  });

  // The provider's webhook posts a form (`id=tr_…`); it is parsed in this scope only.
  await app.register(async (plain) => {
    const scope = plain.withTypeProvider<ZodTypeProvider>();
    scope.addContentTypeParser(
      'application/x-www-form-urlencoded',
      { parseAs: 'string', bodyLimit: WEBHOOK_BODY_LIMIT },
      (_request, body, done) => {
        done(null, Object.fromEntries(new URLSearchParams(body as string)));
      },
    );
    scope.route({
      ...endpoint('POST /api/payments/webhook'),
      config: { anyHost: true },
      handler: async (request) => {
        const outcome = await handleWebhook(ctx, request.body.id);
        if (outcome === 'unknown_order') throw new HttpError(404, 'unknown_payment', 'No order has this payment');
        return { ok: true as const };
      },
    });
  });
};

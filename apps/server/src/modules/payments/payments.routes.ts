import {
  packagesQuerySchema,
  packagesResponseSchema,
  paymentMethodsQuerySchema,
  paymentMethodsResponseSchema,
  paymentWebhookSchema,
  pricingQuerySchema,
  pricingResponseSchema,
  repeatOrderSchema,
  startPaymentResponseSchema,
  startPaymentSchema,
  transactionResponseSchema,
  transactionsQuerySchema,
  transactionsResponseSchema,
} from '@amora/contracts';
import type { FastifyRequest } from 'fastify';
import type { FastifyPluginAsyncZod, ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { HttpError } from '../../lib/errors';
import { requireAuth } from '../../plugins/auth';
import { geoipCountry, selectedCountry } from '../settings/settings.service';
import {
  handleWebhook,
  methodsFor,
  packagesFor,
  pricingFor,
  registerPaymentJobs,
  repeatOrder,
  startOrder,
  transactionOf,
  transactionsOf,
  WEBHOOK_PATH,
} from './payments.service';

/** Form bodies of at most this size (the provider posts `id=tr_…`). */
const WEBHOOK_BODY_LIMIT = 1024;

/**
 * Buying credits (spec §2 credits, credits-id-paymentmethod, credits-repeat-order, pricing, transactions-id):
 * packages.php, paymentmethods.php, payments.php, repeat-order.php, transactions.php, pricing.php and the
 * provider's webhook.
 */
export const paymentsRoutes: FastifyPluginAsyncZod = async (app) => {
  const { ctx } = app;
  const tag = (summary: string) => ({ tags: ['payments'], summary });
  registerPaymentJobs(ctx);
  /** The visitor's country by the geo header: a member's payment country until their first purchase fixes it. */
  const visitorCountryOf = (request: FastifyRequest) => geoipCountry(request, ctx.config);

  app.get(
    '/api/packages.php',
    {
      schema: {
        ...tag('The credit packages of my payment country, priced with the active discount (or the code asked for), and my last order'),
        querystring: packagesQuerySchema,
        response: { 200: packagesResponseSchema },
      },
    },
    async (request, reply) => {
      reply.header('cache-control', 'private, no-store');
      return packagesFor(ctx, request.site, requireAuth(request), request.query.discountcode, visitorCountryOf(request));
    },
  );

  app.get(
    '/api/paymentmethods.php',
    {
      schema: {
        ...tag('The payment methods the provider offers now for a package, with their fees and what I would pay'),
        querystring: paymentMethodsQuerySchema,
        response: { 200: paymentMethodsResponseSchema },
      },
    },
    async (request, reply) => {
      reply.header('cache-control', 'private, no-store');
      return methodsFor(ctx, request.site, requireAuth(request), {
        packageId: request.query.package,
        code: request.query.discountcode,
        visitorCountry: visitorCountryOf(request),
      });
    },
  );

  app.get(
    '/api/pricing.php',
    {
      schema: {
        ...tag('Public prices: credits per message, gift and photo, the packages and the fee of each payment method'),
        querystring: pricingQuerySchema,
        response: { 200: pricingResponseSchema },
      },
    },
    async (request, reply) => {
      reply.header('cache-control', 'private, max-age=60');
      const { site } = request;
      return pricingFor(ctx, site, {
        userId: request.auth?.user.id ?? null,
        country: request.query.country ?? null,
        visitorCountry: selectedCountry(site, geoipCountry(request, ctx.config)),
      });
    },
  );

  app.post(
    '/api/payments.php',
    {
      schema: {
        ...tag(
          'Buy a package: the order is stored, then the provider gives its checkout (or, for direct debit, collects with the mandate). The same request_id answers the same order.',
        ),
        body: startPaymentSchema,
        response: { 200: startPaymentResponseSchema, 201: startPaymentResponseSchema },
      },
    },
    async (request, reply) => {
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
  );

  app.post(
    '/api/repeat-order.php',
    {
      schema: {
        ...tag('Buy the last paid package again with the same method (with a mandate, without a checkout)'),
        body: repeatOrderSchema,
        response: { 200: startPaymentResponseSchema, 201: startPaymentResponseSchema },
      },
    },
    async (request, reply) => {
      const { created, ...answer } = await repeatOrder(
        ctx,
        request.site,
        requireAuth(request),
        request.body.request_id,
        visitorCountryOf(request),
      );
      return reply.status(created ? 201 : 200).send(answer);
    },
  );

  app.get(
    '/api/transactions.php',
    {
      schema: {
        ...tag('My orders and credit movements; with id, one order of mine (checked with the provider while open) and its receipt'),
        querystring: transactionsQuerySchema,
        response: { 200: z.union([transactionResponseSchema, transactionsResponseSchema]) },
      },
    },
    async (request, reply) => {
      reply.header('cache-control', 'private, no-store');
      const auth = requireAuth(request);
      const { id } = request.query;
      return id === undefined ? transactionsOf(ctx, auth) : transactionOf(ctx, request.site, auth, id);
    },
  );

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
    scope.post(
      WEBHOOK_PATH,
      {
        config: { anyHost: true },
        schema: {
          ...tag('The payment provider says a payment changed (form body id=tr_…): 200 once handled, 404 for a payment of no order'),
          consumes: ['application/x-www-form-urlencoded'],
          body: paymentWebhookSchema,
          response: { 200: z.object({ ok: z.literal(true) }) },
        },
      },
      async (request) => {
        const outcome = await handleWebhook(ctx, request.body.id);
        if (outcome === 'unknown_order') throw new HttpError(404, 'unknown_payment', 'No order has this payment');
        return { ok: true as const };
      },
    );
  });
};

import { DISCOUNT_ERROR_STATUS, type DiscountError } from '@amora/contracts';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { HttpError } from '../../lib/errors';
import { requireAuth } from '../../plugins/auth';
import { endpoint } from '../../plugins/endpoints';
import { lookUpCode, timeBonusFor, welcomeDiscountFor } from './discounts.service';

const MESSAGES: Record<DiscountError | 'package_not_found', string> = {
  discount_not_found: 'Discount code not found',
  discount_used: 'You have already used this discount code',
  discount_expired: 'This discount code has expired',
  discount_minimum: 'The order is below the minimum value of this discount code',
  discount_country: 'This discount code is not valid in your country',
  discount_method: 'This discount code is not valid for this payment method',
  discount_currency: 'This discount code is not valid for this currency',
  package_not_found: 'Package not found',
};

/** Discount codes, the welcome discount and the time bonus (spec §3, §4, §7 discountcode.php, §9). */
export const discountsRoutes: FastifyPluginAsyncZod = async (app) => {
  const { ctx } = app;

  app.route({
    ...endpoint('GET /api/discountcode.php'),
    handler: async (request) => {
      const auth = requireAuth(request);
      const q = request.query;
      const base = { siteId: request.site.id, userId: auth.user.id, now: ctx.now() };
      if (q.welcome) return { discount: await welcomeDiscountFor(ctx, base) };
      const result = await lookUpCode(ctx, {
        ...base,
        code: q.code as string,
        packageId: q.package ?? null,
        method: q.method ?? null,
        country: q.country?.toUpperCase() ?? null,
      });
      if (!result.ok) {
        const status = result.error === 'package_not_found' ? 404 : DISCOUNT_ERROR_STATUS[result.error];
        throw new HttpError(status, result.error, MESSAGES[result.error], {
          field: result.error === 'package_not_found' ? 'package' : 'code',
        });
      }
      return { discount: result.discount };
    },
  });

  app.route({
    ...endpoint('GET /api/timebonus.php'),
    handler: async (request) => {
      const auth = requireAuth(request);
      return timeBonusFor(ctx, { siteId: request.site.id, userId: auth.user.id, now: ctx.now() });
    },
  });
};

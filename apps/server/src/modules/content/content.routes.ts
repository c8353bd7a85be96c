import { readFileSync } from 'node:fs';
import { type CompanyInfo, dialablePhone, PAYMENT_METHODS } from '@amora/contracts';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { badRequest } from '../../lib/errors';
import { endpoint } from '../../plugins/endpoints';
import { regionsOf } from './content.service';

/** A badge for each payment method of spec §9 (drawn for this site: a wordmark on a card shape). */
const logos = Object.fromEntries(PAYMENT_METHODS.map((name) => [name, readFileSync(new URL(`./assets/${name}.svg`, import.meta.url))]));

/** Read-only site content the web app loads once and caches: interests, regions, company info, payment logos. */
export const contentRoutes: FastifyPluginAsyncZod = async (app) => {
  app.route({
    ...endpoint('GET /api/interests.php'),
    handler: async (request, reply) => {
      reply.header('cache-control', 'public, max-age=3600');
      return { interests: request.site.interests };
    },
  });

  app.route({
    ...endpoint('GET /api/regions.php'),
    handler: async (request, reply) => {
      const { site } = request;
      const { country } = request.query;
      if (country && !site.countries.includes(country)) {
        throw badRequest('country', `Country ${country} is not served by this site`);
      }
      const countries = country ? [country] : site.countries;
      reply.header('cache-control', 'public, max-age=86400');
      return { regions: Object.fromEntries(countries.map((c) => [c, regionsOf(c)])) };
    },
  });

  app.route({
    ...endpoint('GET /api/companyinfo.php'),
    handler: async (request, reply): Promise<CompanyInfo> => {
      const { site } = request;
      const c = site.company;
      reply.header('cache-control', 'public, max-age=3600');
      return {
        company_id: c.id,
        name: c.name,
        address: c.address,
        city: c.city,
        country: c.country,
        kvk: c.kvk,
        vat_numbers: c.vatNumbers,
        tradenames: c.tradenames,
        added: c.added,
        support_email: site.supportEmail,
        support_phone: site.supportPhone,
        support_phone_dial: dialablePhone(site.supportPhone),
      };
    },
  });

  app.route({
    ...endpoint('GET /api/assets/paymentmethod/:name.svg'),
    handler: async (request, reply) => {
      reply.header('cache-control', 'public, max-age=604800').type('image/svg+xml');
      return logos[request.params.name];
    },
  });
};

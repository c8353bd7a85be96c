import { type GeocodeResult, geocodeQuerySchema, geocodeResponseSchema } from '@amora/contracts';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { HttpError } from '../../lib/errors';
import { requireAuth } from '../../plugins/auth';
import { cityRegion, nearestCity } from './cities';

/**
 * Reverse geocoding for a logged-in member (spec §7). The coordinates are used for the lookup only:
 * never stored, never logged (the request log line carries the path without its query).
 */
export const geoRoutes: FastifyPluginAsyncZod = async (app) => {
  app.get(
    '/api/geocode.php',
    {
      schema: {
        tags: ['geo'],
        summary: 'The city (and region) nearest a position, within 50 km, in a served country',
        querystring: geocodeQuerySchema,
        response: { 200: geocodeResponseSchema },
      },
      // Each call answers "which city is at this point": limited so it cannot be used to map the index.
      config: { floodGuard: { max: 30 } },
    },
    async (request, reply): Promise<GeocodeResult> => {
      requireAuth(request);
      const city = nearestCity(request.query.lat, request.query.lon);
      if (!city) throw new HttpError(404, 'no_city', 'No city found near this position');
      const region = cityRegion(city);
      reply.header('cache-control', 'private, no-store');
      return { city_id: city.id, city: city.name, country: city.country, region: region?.code ?? null, region_name: region?.name ?? null };
    },
  );
};

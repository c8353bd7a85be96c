import type { GeocodeResult } from '@amora/contracts';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { HttpError } from '../../lib/errors';
import { requireAuth } from '../../plugins/auth';
import { endpoint } from '../../plugins/endpoints';
import { cityRegion, nearestCity } from './cities';

/**
 * Reverse geocoding for a logged-in member (spec §7). The coordinates are used for the lookup only:
 * never stored, never logged (the request log line carries the path without its query).
 */
export const geoRoutes: FastifyPluginAsyncZod = async (app) => {
  app.route({
    ...endpoint('GET /api/geocode.php'),
    // Each call answers "which city is at this point": limited so it cannot be used to map the index.
    config: { floodGuard: { max: 30 } },
    handler: async (request, reply): Promise<GeocodeResult> => {
      requireAuth(request);
      const city = nearestCity(request.query.lat, request.query.lon);
      if (!city) throw new HttpError(404, 'no_city', 'No city found near this position');
      const region = cityRegion(city);
      reply.header('cache-control', 'private, no-store');
      return { city_id: city.id, city: city.name, country: city.country, region: region?.code ?? null, region_name: region?.name ?? null };
    },
  });
};

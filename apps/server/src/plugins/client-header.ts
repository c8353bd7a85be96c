import { CLIENT_HEADER, CLIENT_HEADER_VALUE } from '@amora/contracts';
import type { FastifyInstance } from 'fastify';

const STATE_CHANGING = new Set(['POST', 'PUT', 'PATCH', 'DELETE']);
/** navigator.sendBeacon cannot set headers; the beacon route checks the browser's Sec-Fetch-Site instead. */
const BEACON_PATHS = new Set(['/api/page-hidden.php']);

/**
 * Every state-changing API call must carry `X-Request-Type: client` (spec §7). A cross-site form or
 * image cannot set a custom header, so together with SameSite cookies this is the CSRF guard.
 */
export function registerClientHeaderRule(app: FastifyInstance): void {
  app.addHook('onRequest', (request, reply, done) => {
    if (!STATE_CHANGING.has(request.method) || !request.url.startsWith('/api/')) return done();
    const path = request.url.split('?')[0];
    if (BEACON_PATHS.has(path)) {
      const fetchSite = request.headers['sec-fetch-site'];
      if (fetchSite && fetchSite !== 'same-origin' && fetchSite !== 'none') {
        return reply.status(403).send({ error: 'forbidden', message: 'Cross-site beacons are not accepted' });
      }
      return done();
    }
    if (request.headers[CLIENT_HEADER] !== CLIENT_HEADER_VALUE) {
      return reply.status(403).send({
        error: 'client_header_required',
        message: 'State-changing calls need the header X-Request-Type: client',
      });
    }
    done();
  });
}

import { CLIENT_HEADER, CLIENT_HEADER_VALUE } from '@amora/contracts';
import type { FastifyReply, FastifyRequest } from 'fastify';

const STATE_CHANGING = new Set(['POST', 'PUT', 'PATCH', 'DELETE']);
/** navigator.sendBeacon cannot set headers; the beacon route checks the browser's Sec-Fetch-Site instead. */
const BEACON_PATHS = new Set(['/api/page-hidden.php']);

/**
 * Every state-changing API call must carry `X-Request-Type: client` (spec §7). A cross-site form or
 * image cannot set a custom header, so together with SameSite cookies this is the CSRF guard.
 * Answers a call that breaks the rule with a 403 and returns true; returns false for every other request.
 */
export function rejectedWithoutClientHeader(request: FastifyRequest, reply: FastifyReply): boolean {
  if (!STATE_CHANGING.has(request.method) || !request.url.startsWith('/api/')) return false;
  const path = request.url.split('?')[0];
  if (BEACON_PATHS.has(path)) {
    const fetchSite = request.headers['sec-fetch-site'];
    if (fetchSite && fetchSite !== 'same-origin' && fetchSite !== 'none') {
      reply.status(403).send({ error: 'forbidden', message: 'Cross-site beacons are not accepted' });
      return true;
    }
    return false;
  }
  if (request.headers[CLIENT_HEADER] !== CLIENT_HEADER_VALUE) {
    reply.status(403).send({
      error: 'client_header_required',
      message: 'State-changing calls need the header X-Request-Type: client',
    });
    return true;
  }
  return false;
}

import { CLIENT_HEADER, CLIENT_HEADER_VALUE } from '@amora/contracts';
import type { FastifyReply, FastifyRequest } from 'fastify';

const STATE_CHANGING = new Set(['POST', 'PUT', 'PATCH', 'DELETE']);
/** GET calls of spec §7 that change something: they follow the rule of every other change. */
export const STATE_CHANGING_GETS = new Set(['/api/logout.php', '/api/auto-like.php']);
/** navigator.sendBeacon cannot set headers; the beacon route checks the browser's Sec-Fetch-Site instead. */
const BEACON_PATHS = new Set(['/api/page-hidden.php']);
/**
 * RFC 8058 one-click unsubscribe: a mail client POSTs to the List-Unsubscribe URL from its own servers or the
 * member's browser, without our header; it acts only by the link's signed token (modules/notifications).
 */
const ONE_CLICK_UNSUBSCRIBE_PATH = '/api/unsubscribe.php';
/**
 * Calls a payment provider's or a mail system's servers make (no browser, no member, no cookie): they cannot send
 * our header, and act on nobody's session; the payment webhook trusts only what it fetches from the provider
 * itself, the mail reports only the Bearer token.
 */
const PROVIDER_CALLBACK_PATHS = new Set(['/api/payments/webhook', '/api/mail-reports', ONE_CLICK_UNSUBSCRIBE_PATH]);

function refuse(reply: FastifyReply, error: string, message: string): true {
  reply.status(403).send({ error, message });
  return true;
}

const DEFAULT_PORT = /:(?:80|443)$/;

/** Whether an Origin header names the host the request was sent to (scheme's default port or not). */
function isSameHost(origin: string, host: string): boolean {
  let originHost: string;
  try {
    originHost = new URL(origin).host;
  } catch {
    return false; // 'null' (sandboxed frames, opaque origins) and anything unparsable
  }
  return originHost.toLowerCase() === host.toLowerCase().replace(DEFAULT_PORT, '');
}

/**
 * Whether an Origin header names exactly the origin the request was sent to: the same scheme (`protocol`, the
 * request's, which follows the proxy's X-Forwarded-Proto under TRUST_PROXY) and the same host, each scheme's
 * default port written or not. The live channel asks this: a page of http://host must not open the socket of
 * https://host.
 */
export function isSameOrigin(origin: string, protocol: string, host: string): boolean {
  try {
    const from = new URL(origin);
    const to = new URL(`${protocol}://${host}`);
    return from.protocol === to.protocol && from.host.toLowerCase() === to.host.toLowerCase();
  } catch {
    return false; // 'null' (sandboxed frames, opaque origins) and anything unparsable
  }
}

/**
 * Every state-changing API call must carry `X-Request-Type: client` (spec §7). A cross-site form or image
 * cannot set a custom header, so together with SameSite cookies this is the CSRF guard. As a second guard, a
 * call the browser marks as cross-site (`Sec-Fetch-Site`), or, from a browser that does not send that header,
 * whose `Origin` is another host, is refused; clients that send neither (scripts, apps) are not browsers
 * acting for someone else and pass. `path` is the path the router decoded (see the request gate).
 * Answers a call that breaks the rule with a 403 and returns true; returns false for every other request.
 */
export function rejectedWithoutClientHeader(request: FastifyRequest, reply: FastifyReply, routedPath: string): boolean {
  if (!routedPath.startsWith('/api/')) return false;
  // The router ignores a trailing slash.
  const path = routedPath.length > 5 && routedPath.endsWith('/') ? routedPath.slice(0, -1) : routedPath;
  if (!STATE_CHANGING.has(request.method) && !(request.method === 'GET' && STATE_CHANGING_GETS.has(path))) return false;
  if (request.method === 'POST' && PROVIDER_CALLBACK_PATHS.has(path)) return false;
  const fetchSite = request.headers['sec-fetch-site'];
  if (BEACON_PATHS.has(path)) {
    if (fetchSite && fetchSite !== 'same-origin' && fetchSite !== 'none') {
      return refuse(reply, 'forbidden', 'Cross-site beacons are not accepted');
    }
    return false;
  }
  if (request.headers[CLIENT_HEADER] !== CLIENT_HEADER_VALUE) {
    return refuse(reply, 'client_header_required', 'State-changing calls need the header X-Request-Type: client');
  }
  if (fetchSite === 'cross-site') return refuse(reply, 'cross_site', 'Calls from other sites are not accepted');
  const origin = request.headers.origin;
  if (origin !== undefined && fetchSite !== 'same-origin' && !isSameHost(origin, request.host)) {
    return refuse(reply, 'cross_site', 'Calls from other sites are not accepted');
  }
  return false;
}

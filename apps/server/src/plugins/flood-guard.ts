import type { FastifyReply, FastifyRequest } from 'fastify';
import { addressKey } from '../lib/addresses';

declare module 'fastify' {
  interface FastifyContextConfig {
    /** A route's own per-address limit within the same window, or false for routes outside the guard. */
    floodGuard?: { max: number } | false;
  }
}

export interface FloodGuardOptions {
  /** API requests one address may make per window. */
  max: number;
  windowMs?: number;
  now?: () => number;
}

const MAX_KEYS = 1_000_000;

/**
 * The guard's check for one request: answers an API call over its limit with a 429 and returns true. `path` is
 * the request's path as the router decoded it (the request gate works it out once); the raw URL by default.
 */
export type FloodGuard = (request: FastifyRequest, reply: FastifyReply, path?: string) => boolean;

/**
 * Per-address flood guard in front of the whole API: fixed windows counted in this process's memory, checked
 * without waiting on anything, so the guard costs less than the cheapest route it protects. Each server
 * process guards itself; limits that protect accounts or inboxes live in the services (lib/limiter.ts) and
 * hold across processes.
 */
export function createFloodGuard(options: FloodGuardOptions): FloodGuard {
  const { max, windowMs = 60_000, now = Date.now } = options;
  let windowStart = now();
  let counts = new Map<string, number>();
  // An IPv6 address is parsed once a window, not on each of its calls.
  let keys = new Map<string, string>();
  const keyOf = (ip: string) => {
    if (!ip.includes(':')) return ip;
    let key = keys.get(ip);
    if (key === undefined) {
      key = addressKey(ip);
      keys.set(ip, key);
    }
    return key;
  };
  const over = (key: string, limit: number) => {
    const count = (counts.get(key) ?? 0) + 1;
    counts.set(key, count);
    return count > limit;
  };
  return (request, reply, path = request.url) => {
    if (!path.startsWith('/api/')) return false;
    const own = request.routeOptions.config?.floodGuard;
    if (own === false) return false;
    const at = now();
    // A new window, or (under a flood of distinct addresses) a map grown past a sane size, starts afresh.
    if (at - windowStart >= windowMs || counts.size > MAX_KEYS) {
      counts = new Map();
      keys = new Map();
      windowStart = at;
    }
    const address = keyOf(request.ip);
    const overAll = over(address, max);
    const overRoute = !overAll && own ? over(`${request.routeOptions.url} ${address}`, own.max) : false;
    if (!overAll && !overRoute) return false;
    const limit = overAll || !own ? max : own.max;
    const retryAfter = Math.max(1, Math.ceil((windowStart + windowMs - at) / 1000));
    reply
      .status(429)
      .headers({ 'retry-after': retryAfter, 'x-ratelimit-limit': limit, 'x-ratelimit-remaining': 0, 'x-ratelimit-reset': retryAfter })
      .send({ error: 'rate_limited', message: 'Too many requests, please slow down' });
    return true;
  };
}

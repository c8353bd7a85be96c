import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';

/** A read that answers within this time is counted, not written out one by one. */
export const SLOW_MS = 500;
const SUMMARY_EVERY_MS = 60_000;

interface RouteTally {
  count: number;
  totalMs: number;
  maxMs: number;
}

/** Whether a finished request gets its own log line. */
export function logsOnItsOwn(method: string, status: number, ms: number): boolean {
  return (method !== 'GET' && method !== 'HEAD') || status >= 400 || ms >= SLOW_MS;
}

/**
 * Structured request logs. Every call that changes something, every error and every slow request gets its
 * own JSON line (method, path without the query — it may hold one-time tokens —, status, time). Fast,
 * successful reads are counted per route and written as one summary line a minute, so the busiest calls
 * (settings, counters, photos) neither flood the log nor pay for a line each.
 */
export function registerRequestLog(app: FastifyInstance): void {
  let tallies = new Map<string, RouteTally>();
  let since = Date.now();

  const flush = () => {
    if (tallies.size === 0) return;
    const routes: Record<string, { count: number; avgMs: number; maxMs: number }> = {};
    for (const [route, t] of tallies) {
      routes[route] = { count: t.count, avgMs: Math.round((t.totalMs / t.count) * 10) / 10, maxMs: Math.round(t.maxMs * 10) / 10 };
    }
    app.log.info({ seconds: Math.round((Date.now() - since) / 1000), routes }, 'reads');
    tallies = new Map();
    since = Date.now();
  };
  const timer = setInterval(flush, SUMMARY_EVERY_MS);
  timer.unref();
  app.addHook('onClose', (_instance, done) => {
    clearInterval(timer);
    flush();
    done();
  });

  app.addHook('onResponse', (request: FastifyRequest, reply: FastifyReply, done) => {
    const ms = reply.elapsedTime;
    const status = reply.statusCode;
    if (logsOnItsOwn(request.method, status, ms)) {
      request.log.info({ method: request.method, path: request.url.split('?')[0], status, ms: Math.round(ms * 10) / 10 }, 'request');
      return done();
    }
    const route = `${request.method} ${request.routeOptions.url ?? '(web app page)'}`;
    const tally = tallies.get(route);
    if (tally) {
      tally.count++;
      tally.totalMs += ms;
      if (ms > tally.maxMs) tally.maxMs = ms;
    } else {
      tallies.set(route, { count: 1, totalMs: ms, maxMs: ms });
    }
    done();
  });
}

import { type FastifyInstance, type FastifyReply, type FastifyRequest, LogController } from 'fastify';

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
 *
 * It is Fastify's log controller, which Fastify calls once for every finished request anyway, so the log
 * costs no hook of its own. Fastify's own request lines (incoming, completed, not found) stay off.
 */
export class RequestLog extends LogController {
  /** Per method, per route pattern: no key is built for a request. */
  private tallies = new Map<string, Map<string, RouteTally>>();
  private since = Date.now();

  constructor() {
    super({ disableRequestLogging: true });
  }

  /** Writes the summary every minute on this app's log, and a last one when the app closes. */
  attach(app: FastifyInstance): void {
    const timer = setInterval(() => this.flush(app), SUMMARY_EVERY_MS);
    timer.unref();
    app.addHook('onClose', (_instance, done) => {
      clearInterval(timer);
      this.flush(app);
      done();
    });
  }

  override requestCompleted(_error: Error | null | undefined, request: FastifyRequest, reply: FastifyReply): void {
    const ms = reply.elapsedTime;
    const status = reply.statusCode;
    if (logsOnItsOwn(request.method, status, ms)) {
      request.log.info({ method: request.method, path: request.url.split('?')[0], status, ms: Math.round(ms * 10) / 10 }, 'request');
      return;
    }
    const route = request.routeOptions.url ?? '(web app page)';
    let routes = this.tallies.get(request.method);
    if (!routes) {
      routes = new Map();
      this.tallies.set(request.method, routes);
    }
    const tally = routes.get(route);
    if (tally) {
      tally.count++;
      tally.totalMs += ms;
      if (ms > tally.maxMs) tally.maxMs = ms;
    } else {
      routes.set(route, { count: 1, totalMs: ms, maxMs: ms });
    }
  }

  private flush(app: FastifyInstance): void {
    if (this.tallies.size === 0) return;
    const routes: Record<string, { count: number; avgMs: number; maxMs: number }> = {};
    for (const [method, perRoute] of this.tallies) {
      for (const [route, t] of perRoute) {
        routes[`${method} ${route}`] = {
          count: t.count,
          avgMs: Math.round((t.totalMs / t.count) * 10) / 10,
          maxMs: Math.round(t.maxMs * 10) / 10,
        };
      }
    }
    app.log.info({ seconds: Math.round((Date.now() - this.since) / 1000), routes }, 'reads');
    this.tallies = new Map();
    this.since = Date.now();
  }
}

import { channel } from 'node:diagnostics_channel';
import type { IncomingMessage, Server, ServerResponse } from 'node:http';
import { performance } from 'node:perf_hooks';
import { type FastifyBaseLogger, type FastifyInstance, type FastifyRequest, type FastifyServerOptions, LogController } from 'fastify';

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

declare module 'fastify' {
  interface FastifyRequest {
    /** When the request gate took the request (performance.now()), for the request log. */
    startedAt: number;
  }
}

/** Gives every request its start time (0 until the request gate stamps it). */
export function decorateStartTime(app: FastifyInstance): void {
  app.decorateRequest('startedAt', 0);
}

/** The Fastify request behind a raw one, set by the request gate. */
const FASTIFY_REQUEST = Symbol('amora.request');
type StampedRaw = IncomingMessage & { [FASTIFY_REQUEST]?: FastifyRequest };

/** The request gate's first step: the request log learns when the request started and finds it again. */
export function stampRequest(request: FastifyRequest): void {
  request.startedAt = performance.now();
  (request.raw as StampedRaw)[FASTIFY_REQUEST] = request;
}

/** The Fastify request behind a raw one the request gate stamped (undefined: answered before any hook ran). */
export function fastifyRequestOf(raw: IncomingMessage): FastifyRequest | undefined {
  return (raw as StampedRaw)[FASTIFY_REQUEST];
}

interface ResponseFinished {
  request: StampedRaw;
  response: ServerResponse;
  server: Server;
}

/** Node publishes every answer its HTTP server finishes here (a built-in diagnostics channel). */
const responseFinished = channel('http.server.response.finish');

/**
 * Structured request logs. Every call that changes something, every error and every slow request gets its
 * own JSON line (method, path without the query — it may hold one-time tokens —, status, time). Fast,
 * successful reads are counted per route and written as one summary line a minute, so the busiest calls
 * (settings, counters, photos) neither flood the log nor pay for a line each.
 *
 * It learns of finished answers from Node's `http.server.response.finish` diagnostics channel, which Node
 * publishes for every answer anyway. Fastify's own way (a 'finish' and an 'error' listener on every answer,
 * which it adds whenever it has a logger) costs a busy read about a tenth of its throughput, so Fastify runs
 * without a logger of its own and hands each request a child of ours (`requestLogging`). The log therefore
 * sees answers of a listening server, not of `app.inject`.
 */
class RequestLog {
  /** Per method, per route pattern: no key is built for a request. */
  private tallies = new Map<string, Map<string, RouteTally>>();
  private since = Date.now();

  /** Follows the app's answers; writes the summary every minute on the app's log, and a last one when it closes. */
  attach(app: FastifyInstance): void {
    const onFinish = (message: unknown) => {
      const { request: raw, response, server } = message as ResponseFinished;
      if (server === app.server) this.finished(app.log, raw, response);
    };
    responseFinished.subscribe(onFinish);
    const timer = setInterval(() => this.flush(app), SUMMARY_EVERY_MS);
    timer.unref();
    app.addHook('onClose', (_instance, done) => {
      responseFinished.unsubscribe(onFinish);
      clearInterval(timer);
      this.flush(app);
      done();
    });
  }

  private finished(log: FastifyBaseLogger, raw: StampedRaw, response: ServerResponse): void {
    const request = raw[FASTIFY_REQUEST];
    const status = response.statusCode;
    const method = raw.method ?? '';
    if (request === undefined) {
      // Answered by Fastify before any hook ran (a malformed address): no route, no time.
      log.info({ method, path: (raw.url ?? '').split('?')[0], status }, 'request');
      return;
    }
    const ms = performance.now() - request.startedAt;
    if (logsOnItsOwn(method, status, ms)) {
      request.log.info({ method, path: request.url.split('?')[0], status, ms: Math.round(ms * 10) / 10 }, 'request');
      return;
    }
    const route = request.routeOptions.url ?? '(web app page)';
    let routes = this.tallies.get(method);
    if (!routes) {
      routes = new Map();
      this.tallies.set(method, routes);
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

type ChildLoggerFactory = NonNullable<FastifyServerOptions['childLoggerFactory']>;

/**
 * The Fastify options that log through `logger`: Fastify itself has no logger (so it adds no listeners to
 * every answer), each request gets a child of `logger` with its id, and the request log counts the answers.
 * `useLogger` gives the app `logger` as its `app.log` and starts the request log; call it right after
 * Fastify(), before any plugin is registered, so that every plugin's instance inherits the log.
 */
export function requestLogging(logger: FastifyBaseLogger) {
  const requestLog = new RequestLog();
  return {
    options: {
      logger: false,
      // Fastify's own request lines (incoming, completed, not found) stay off: the request log writes ours.
      logController: new LogController({ disableRequestLogging: true }),
      childLoggerFactory: ((_none, bindings, options) => logger.child(bindings, options)) as ChildLoggerFactory,
    },
    useLogger(app: FastifyInstance): void {
      (app as { log: FastifyBaseLogger }).log = logger;
      requestLog.attach(app);
    },
  };
}

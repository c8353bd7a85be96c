import { createHash, timingSafeEqual } from 'node:crypto';
import { channel } from 'node:diagnostics_channel';
import type { IncomingMessage, Server, ServerResponse } from 'node:http';
import { performance } from 'node:perf_hooks';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { ScrapeSources } from '../lib/metrics';
import { routeNameOf } from './page-routes';
import { fastifyRequestOf } from './request-log';

interface ResponseFinished {
  request: IncomingMessage;
  response: ServerResponse;
  server: Server;
}

/** Node publishes every answer its HTTP server finishes here (the channel plugins/request-log.ts reads too). */
const responseFinished = channel('http.server.response.finish');

/**
 * The route a request is counted under: its route pattern (`/api/members/:id`), never the path itself; a page of
 * the web app (answered by plugins/web.ts's not-found handler) by its page's route name, else `(not found)`.
 */
function routeLabel(request: FastifyRequest): string {
  const route = request.routeOptions.url;
  if (route !== undefined) return route;
  const end = request.url.indexOf('?');
  const path = end === -1 ? request.url : request.url.slice(0, end);
  if (path.startsWith('/api/') || request.method !== 'GET') return '(not found)';
  const page = routeNameOf(path);
  return page ? `(page) ${page}` : '(not found)';
}

/** Whether the Authorization header carries the token: `Bearer <token>`, compared in constant time. */
function bearerMatches(header: string | undefined, token: string): boolean {
  const given = /^bearer +(.+)$/i.exec(header ?? '')?.[1] ?? '';
  const digest = (text: string) => createHash('sha256').update(text).digest();
  return timingSafeEqual(digest(given), digest(token)) && given.length > 0;
}

/**
 * `GET /metrics`: this process's Prometheus metrics (lib/metrics.ts), only when METRICS_TOKEN is set (else no
 * route: 404), for a scraper that sends it as a bearer token (else 401). Each process answers for itself: a
 * scrape config lists every process as a target (docs/operations.md, "Metrics and health").
 *
 * HTTP requests are counted from Node's response-finish diagnostics channel, as the request log does: no hook
 * on any request, and nothing at all while the token is unset. The request gate's start time gives the latency.
 */
export function registerMetrics(app: FastifyInstance, sources: Pick<ScrapeSources, 'databasePools'>): void {
  const { ctx } = app;
  const token = ctx.config.metricsToken;
  const options = { schema: { hide: true }, config: { anyHost: true } };
  if (!token) {
    // Off: a 404 of its own, the same whether the web app is built or not (its pages would answer otherwise).
    app.get('/metrics', options, async (_request, reply) =>
      reply.code(404).send({ error: 'not_found', message: 'This page could not be found' }),
    );
    return;
  }

  ctx.metrics.expose({
    jobQueues: () => ctx.jobs.queues(),
    liveConnections: () => ({ member: app.live.count(), console: app.consoleLive.count() }),
    databasePools: sources.databasePools,
    databaseKind: ctx.dbKind,
  });

  const onFinish = (message: unknown) => {
    const { request: raw, response, server } = message as ResponseFinished;
    if (server !== app.server) return;
    const request = fastifyRequestOf(raw);
    // Answered by Fastify before any hook ran (a malformed address): no route, no start time.
    if (request === undefined) return ctx.metrics.request(raw.method ?? '', '(malformed)', response.statusCode, 0);
    ctx.metrics.request(request.method, routeLabel(request), response.statusCode, performance.now() - request.startedAt);
  };
  responseFinished.subscribe(onFinish);
  app.addHook('onClose', (_instance, done) => {
    responseFinished.unsubscribe(onFinish);
    done();
  });

  // Prometheus scrapes by address: any host. Not under /api, so no flood guard, and not in the API's document.
  app.get('/metrics', options, async (request, reply) => {
    reply.header('cache-control', 'no-store');
    if (!bearerMatches(request.headers.authorization, token)) {
      reply.header('www-authenticate', 'Bearer realm="metrics"');
      return reply.code(401).send({ error: 'unauthorized', message: 'The metrics need their bearer token' });
    }
    const { body, contentType } = await ctx.metrics.scrape();
    return reply.type(contentType).send(body);
  });
}

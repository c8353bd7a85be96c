import type { FastifyInstance, FastifyReply, FastifyRequest, HookHandlerDoneFunction } from 'fastify';
import type { Site } from '../modules/sites/sites.service';
import { authenticate, forgetAfterChange, isChange, sessionToken } from './auth';
import { rejectedWithoutClientHeader } from './client-header';
import { readCookies } from './cookies';
import { createFloodGuard, type FloodGuardOptions } from './flood-guard';
import { decorateStartTime, stampRequest } from './request-log';
import { securityHeadersFor } from './security-headers';
import { noSite, resolveSite, siteNow } from './site';
import { isConsoleApi } from './staff-auth';

/**
 * The path a request is decided on, as the router saw it. A path without percent-escapes is what the router
 * matched (up to a trailing slash); one with them is the matched route's own path (the router decodes, so
 * `/%61pi/user.php` is the route `/api/user.php`), else the path decoded once. Every step of the gate decides
 * on this one value, never on the raw URL.
 */
function routedPath(request: FastifyRequest): string {
  const raw = request.url;
  const end = raw.indexOf('?');
  const path = end === -1 ? raw : raw.slice(0, end);
  if (!path.includes('%')) return path;
  const route = request.routeOptions.url;
  if (route !== undefined) return route;
  try {
    return decodeURIComponent(path);
  } catch {
    return path;
  }
}

/**
 * What every request passes before its route, in this order, as one onRequest hook:
 * 0. its start time, for the request log (plugins/request-log.ts), and the path every step decides on
 *    (`routedPath`: decoded as the router decoded it);
 * 1. the security headers of its answer (plugins/security-headers.ts);
 * 2. its cookies, parsed (plugins/cookies.ts);
 * 3. the flood guard, for API calls (plugins/flood-guard.ts);
 * 4. its site, by host (plugins/site.ts); in production a host that names no site ends here (421);
 * 5. the `X-Request-Type: client` and same-site rule for state-changing API calls (plugins/client-header.ts);
 * 6. the member behind the session cookie, for API calls (plugins/auth.ts); a read may find it in the cache of
 *    sessions found lately (plugins/session-cache.ts), and a change forgets what it may have changed. Not for the
 *    console's calls (/api/console/): those know staff only, by their own cookie (plugins/staff-auth.ts).
 * A step that answers (429, 403) or fails (421, 503) ends the request there. On the common path nothing waits:
 * only a forced host, sites not loaded yet or a session cookie make the gate wait for the database.
 * One hook rather than one per step, because Fastify's cost per hook is more than most of these steps cost.
 */
export function registerRequestGate(app: FastifyInstance, options: { floodGuard: FloodGuardOptions }): void {
  app.decorateRequest('site', null as never);
  app.decorateRequest('auth', null);
  decorateStartTime(app);
  const headersFor = securityHeadersFor(app.ctx.config.isProduction);
  const floodGuard = createFloodGuard(options.floodGuard);

  const afterSite = (request: FastifyRequest, reply: FastifyReply, path: string, site: Site | null, done: HookHandlerDoneFunction) => {
    if (!site) return request.routeOptions.config?.anyHost ? done() : done(noSite(app));
    request.site = site;
    if (!path.startsWith('/api/')) return done();
    if (rejectedWithoutClientHeader(request, reply, path)) return;
    // The console's calls know staff only (plugins/staff-auth.ts): a member's cookie means nothing there.
    if (isConsoleApi(path)) return done();
    const token = sessionToken(request);
    if (!token) return done();
    authenticate(app, request, token, isChange(request.method, path)).then(() => done(), done);
  };

  // After a change, before its answer leaves, the sessions it may have changed are read again (plugins/auth.ts).
  // Only the routes that can change something carry this hook, so reads pay nothing for it.
  const forgetOnSend = (request: FastifyRequest, reply: FastifyReply, payload: unknown, done: (error: null, payload: unknown) => void) => {
    if (isChange(request.method, routedPath(request))) forgetAfterChange(request, reply.statusCode);
    done(null, payload);
  };
  app.addHook('onRoute', (route) => {
    const methods = Array.isArray(route.method) ? route.method : [route.method];
    if (!route.url.startsWith('/api/') || !methods.some((method) => isChange(method, route.url))) return;
    const existing = route.onSend ? (Array.isArray(route.onSend) ? route.onSend : [route.onSend]) : [];
    route.onSend = [...existing, forgetOnSend] as typeof route.onSend;
  });

  app.addHook('onRequest', (request, reply, done) => {
    stampRequest(request);
    const path = routedPath(request);
    reply.headers(headersFor(path));
    readCookies(request);
    if (floodGuard(request, reply, path)) return;
    const site = siteNow(app, request);
    if (site !== undefined) return afterSite(request, reply, path, site, done);
    resolveSite(app, request, reply).then((found) => afterSite(request, reply, path, found, done), done);
  });
}

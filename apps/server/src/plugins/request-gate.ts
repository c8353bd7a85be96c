import type { FastifyInstance, FastifyReply, FastifyRequest, HookHandlerDoneFunction } from 'fastify';
import type { Site } from '../modules/sites/sites.repository';
import { authenticate, sessionToken } from './auth';
import { rejectedWithoutClientHeader } from './client-header';
import { readCookies } from './cookies';
import { createFloodGuard, type FloodGuardOptions } from './flood-guard';
import { decorateStartTime, stampRequest } from './request-log';
import { securityHeadersFor } from './security-headers';
import { noSite, resolveSite, siteNow } from './site';

/**
 * What every request passes before its route, in this order, as one onRequest hook:
 * 0. its start time, for the request log (plugins/request-log.ts);
 * 1. the security headers of its answer (plugins/security-headers.ts);
 * 2. its cookies, parsed (plugins/cookies.ts);
 * 3. the flood guard, for API calls (plugins/flood-guard.ts);
 * 4. its site, by host (plugins/site.ts);
 * 5. the `X-Request-Type: client` rule for state-changing API calls (plugins/client-header.ts);
 * 6. the member behind the session cookie, for API calls (plugins/auth.ts).
 * A step that answers (429, 403) or fails (503) ends the request there. On the common path nothing waits:
 * only a forced host, sites not loaded yet or a session cookie make the gate wait for the database.
 * One hook rather than one per step, because Fastify's cost per hook is more than most of these steps cost.
 */
export function registerRequestGate(app: FastifyInstance, options: { floodGuard: FloodGuardOptions }): void {
  app.decorateRequest('site', null as never);
  app.decorateRequest('auth', null);
  decorateStartTime(app);
  const headersFor = securityHeadersFor(app.ctx.config.isProduction);
  const floodGuard = createFloodGuard(options.floodGuard);

  const afterSite = (request: FastifyRequest, reply: FastifyReply, site: Site | null, done: HookHandlerDoneFunction) => {
    if (!site) return done(noSite());
    request.site = site;
    if (!request.url.startsWith('/api/')) return done();
    if (rejectedWithoutClientHeader(request, reply)) return;
    const token = sessionToken(request);
    if (!token) return done();
    authenticate(app, request, token).then(() => done(), done);
  };

  app.addHook('onRequest', (request, reply, done) => {
    stampRequest(request);
    reply.headers(headersFor(request.url));
    readCookies(request);
    if (floodGuard(request, reply)) return;
    const site = siteNow(app, request);
    if (site !== undefined) return afterSite(request, reply, site, done);
    resolveSite(app, request, reply).then((found) => afterSite(request, reply, found, done), done);
  });
}

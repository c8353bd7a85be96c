import { FORCED_HOST_COOKIE, FORCED_HOST_PARAM } from '@amora/contracts';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { HttpError } from '../lib/errors';

/**
 * Picks the site for every request by its host. Outside production a forced host (query parameter,
 * then remembered in a session cookie) selects another site, so several brands can be tried on localhost.
 */
export function registerSiteResolution(app: FastifyInstance): void {
  app.decorateRequest('site', null as never);
  const noSite = () => new HttpError(503, 'no_site', 'No site is configured on this server');
  // Callback style: on the common path (sites in memory, no forced host) nothing here waits.
  app.addHook('onRequest', (request, reply, done) => {
    const forcing = !app.ctx.config.isProduction && (request.url.includes(FORCED_HOST_PARAM) || request.cookies[FORCED_HOST_COOKIE]);
    const now = forcing ? undefined : app.ctx.sites.forHostNow(request.hostname);
    if (now !== undefined) {
      if (!now) return done(noSite());
      request.site = now;
      return done();
    }
    resolveSite(app, request, (host) => {
      reply.setCookie(FORCED_HOST_COOKIE, host, { path: '/', httpOnly: true, sameSite: 'lax' });
    }).then(
      (site) => {
        if (!site) return done(noSite());
        request.site = site;
        done();
      },
      (error: Error) => done(error),
    );
  });
}

async function resolveSite(app: FastifyInstance, request: FastifyRequest, remember: (host: string) => void) {
  const { sites, config } = app.ctx;
  if (!config.isProduction) {
    const query = request.query as Record<string, unknown> | undefined;
    const forced = typeof query?.[FORCED_HOST_PARAM] === 'string' ? (query[FORCED_HOST_PARAM] as string) : undefined;
    if (forced) {
      const site = await sites.byKnownHost(forced);
      if (site) {
        if (request.cookies[FORCED_HOST_COOKIE] !== forced) remember(forced);
        return site;
      }
    }
    const remembered = request.cookies[FORCED_HOST_COOKIE];
    if (remembered) {
      const site = await sites.byKnownHost(remembered);
      if (site) return site;
    }
  }
  return sites.forHost(request.hostname);
}

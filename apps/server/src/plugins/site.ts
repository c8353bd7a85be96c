import { FORCED_HOST_COOKIE, FORCED_HOST_PARAM } from '@amora/contracts';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { HttpError } from '../lib/errors';
import type { Site } from '../modules/sites/sites.service';

declare module 'fastify' {
  interface FastifyContextConfig {
    /** A route that answers on any host, with no site (the health check load balancers call by address). */
    anyHost?: boolean;
  }
}

/**
 * The answer when the request's host names no site: outside production only when no site exists at all
 * (503); in production also for a host that is not a site's (421 Misdirected Request, RFC 9110 §15.5.20: this
 * server does not answer for that name), so nothing is served, and no link is made, under a name the client chose.
 */
export function noSite(app: FastifyInstance): HttpError {
  if (!app.ctx.config.isProduction || !app.ctx.sites.hasSites) {
    return new HttpError(503, 'no_site', 'No site is configured on this server');
  }
  return new HttpError(421, 'unknown_host', 'No site of this server answers at this address');
}

/**
 * The site of a request, picked by its host, when that is known without waiting: the site (or null, no site)
 * on the common path, undefined when `resolveSite` must look further (a forced host, or sites not loaded yet).
 * In production only a site's own domain and hosts count; elsewhere an unknown host gets the default site.
 */
export function siteNow(app: FastifyInstance, request: FastifyRequest): Site | null | undefined {
  const { isProduction } = app.ctx.config;
  const forcing = !isProduction && Boolean(request.url.includes(FORCED_HOST_PARAM) || request.cookies[FORCED_HOST_COOKIE]);
  // The Host header as sent (port included): the site directory remembers what each one resolved to.
  return forcing ? undefined : app.ctx.sites.forHostNow(request.host, isProduction);
}

/**
 * The site by host, waiting for the site directory if it must. Outside production a forced host (query
 * parameter, then remembered in a session cookie) selects another site, so several brands can be tried on
 * localhost.
 */
export async function resolveSite(app: FastifyInstance, request: FastifyRequest, reply: FastifyReply): Promise<Site | null> {
  const { sites, config } = app.ctx;
  if (!config.isProduction) {
    const query = request.query as Record<string, unknown> | undefined;
    const forced = typeof query?.[FORCED_HOST_PARAM] === 'string' ? (query[FORCED_HOST_PARAM] as string) : undefined;
    if (forced) {
      const site = await sites.byKnownHost(forced);
      if (site) {
        if (request.cookies[FORCED_HOST_COOKIE] !== forced) {
          reply.setCookie(FORCED_HOST_COOKIE, forced, { path: '/', httpOnly: true, sameSite: 'lax' });
        }
        return site;
      }
    }
    const remembered = request.cookies[FORCED_HOST_COOKIE];
    if (remembered) {
      const site = await sites.byKnownHost(remembered);
      if (site) return site;
    }
  }
  return sites.forHost(request.host, config.isProduction);
}

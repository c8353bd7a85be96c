import { parseCookie, type SetCookie, stringifySetCookie } from 'cookie';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';

/** Attributes of a cookie the server sets (the `cookie` package's, without name and value). */
type CookieOptions = Omit<SetCookie, 'name' | 'value'>;

declare module 'fastify' {
  interface FastifyRequest {
    /** The request's cookies, parsed by the request gate. */
    cookies: Record<string, string | undefined>;
  }
  interface FastifyReply {
    /** Adds a Set-Cookie header; SameSite=Lax unless the options say otherwise. */
    setCookie(name: string, value: string, options?: CookieOptions): FastifyReply;
    /** Adds a Set-Cookie header that removes the cookie (path `/` unless given). */
    clearCookie(name: string, options?: CookieOptions): FastifyReply;
  }
}

/** Parses the request's Cookie header into `request.cookies`; the request gate calls it for every request. */
export function readCookies(request: FastifyRequest): void {
  const header = request.raw.headers.cookie;
  request.cookies = header ? parseCookie(header) : {};
}

/**
 * Cookies on requests and replies, with the `cookie` package doing the parsing and serializing. Setting a
 * cookie writes its Set-Cookie header at once (Fastify keeps several as a list), so no hook has to run on
 * every answer to write the cookies a request may have set. A cookie set twice is sent twice; the browser
 * keeps the last.
 */
export function registerCookies(app: FastifyInstance): void {
  app.decorateRequest('cookies', null as never);
  app.decorateReply('setCookie', function (this: FastifyReply, name: string, value: string, options?: CookieOptions) {
    return this.header('set-cookie', stringifySetCookie({ sameSite: 'lax', ...options, name, value }));
  });
  app.decorateReply('clearCookie', function (this: FastifyReply, name: string, options?: CookieOptions) {
    return this.setCookie(name, '', { path: '/', ...options, expires: new Date(0), maxAge: 0 });
  });
}

import { SESSION_COOKIE } from '@amora/contracts';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { authenticationRequired } from '../lib/errors';
import { type Auth, findAuth, forgetAllCachedSessions, forgetCachedSessions } from '../modules/sessions/sessions.service';
import { STATE_CHANGING_GETS } from './client-header';

declare module 'fastify' {
  interface FastifyRequest {
    auth: Auth | null;
  }
}

/** The session token of a request (its cookie), if it has one. */
export function sessionToken(request: FastifyRequest): string | undefined {
  return request.cookies[SESSION_COOKIE];
}

/** GET calls that change something: those of client-header.ts and the activation link of the signup mail. */
const CHANGING_GETS = new Set([...STATE_CHANGING_GETS, '/api/activate.php']);

/**
 * Whether the API call may change something (`path` as the request gate decides on it): it never takes its
 * session from the cache, and forgets what it may have changed.
 */
export function isChange(method: string, path: string): boolean {
  if (method !== 'GET' && method !== 'HEAD') return method !== 'OPTIONS';
  // The router ignores a trailing slash.
  return CHANGING_GETS.has(path.length > 5 && path.endsWith('/') ? path.slice(0, -1) : path);
}

/**
 * Sets `request.auth` from the session cookie of an API call (the sessions service's findAuth): a read may take
 * the session from the cache of sessions found lately (modules/sessions/session-cache.ts); a change always asks
 * the database. An unknown, expired or foreign session leaves the request anonymous.
 */
export async function authenticate(app: FastifyInstance, request: FastifyRequest, token: string, change: boolean): Promise<void> {
  const auth = await findAuth(app.ctx, token, request.site.id, change);
  if (auth) request.auth = auth;
}

/**
 * After a change has been handled, before its answer leaves: this process reads the member's sessions from the
 * database again, so their next call here sees what the change did. A change made without a session (a link
 * from a mail, a login) may have changed any member: every session this process keeps is read again. Other
 * processes hear of what matters by the events the services raise (`session.ended`, `account.changed`,
 * `profile.changed`; apps/server/src/listeners.ts) and see the rest within SESSION_CACHE_TTL_MS.
 */
export function forgetAfterChange(request: FastifyRequest, statusCode: number): void {
  const { auth } = request;
  if (!auth) {
    // A refused call changed nothing (bad input, no client header, a wrong password): the cache stays.
    if (statusCode < 400) forgetAllCachedSessions();
    return;
  }
  forgetCachedSessions(auth.user.id);
}

/** The logged-in member, or a 403 with authentication_required (spec §8). */
export function requireAuth(request: FastifyRequest): Auth {
  if (!request.auth) throw authenticationRequired();
  return request.auth;
}

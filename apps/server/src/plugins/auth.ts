import { SESSION_COOKIE } from '@amora/contracts';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { authenticationRequired } from '../lib/errors';
import { hashToken } from '../lib/tokens';
import { sessionCache } from '../modules/sessions/session-cache';
import { findSessionAccount, type ProfileRow, touchSession, type UserRow } from '../modules/sessions/sessions.repository';
import { STATE_CHANGING_GETS } from './client-header';

export interface Auth {
  sessionId: number;
  tokenHash: string;
  user: UserRow;
  profile: ProfileRow;
}

declare module 'fastify' {
  interface FastifyRequest {
    auth: Auth | null;
  }
}

const TOUCH_EVERY_MS = 3_600_000;

/** The session token of a request (its cookie), if it has one. */
export function sessionToken(request: FastifyRequest): string | undefined {
  return request.cookies[SESSION_COOKIE];
}

type Found = NonNullable<Awaited<ReturnType<typeof findSessionAccount>>>;

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
 * Sets `request.auth` from the session cookie of an API call; a session belongs to one site and only counts
 * there. An unknown, expired or foreign session leaves the request anonymous. A read may take the session from
 * the cache of sessions found lately (plugins/session-cache.ts); a change always asks the database.
 */
export async function authenticate(app: FastifyInstance, request: FastifyRequest, token: string, change: boolean): Promise<void> {
  const tokenHash = hashToken(token);
  const now = app.ctx.now();
  const { db } = app.ctx;
  let found = change ? undefined : sessionCache.get<Found['session'], Found['user'], Found['profile']>(db, tokenHash);
  // Stale for this request's clock (the cache keeps real time): asked again, which also touches the session.
  if (found && (found.session.expiresAt <= now || now.getTime() - found.session.lastSeenAt.getTime() > TOUCH_EVERY_MS)) found = undefined;
  if (!found) {
    const generation = sessionCache.begin();
    found = await findSessionAccount(db, tokenHash, now);
    if (!found || found.user.siteId !== request.site.id || found.user.status === 'deleted') return;
    if (now.getTime() - found.session.lastSeenAt.getTime() > TOUCH_EVERY_MS) {
      await touchSession(db, found.session.id, now);
      found = { ...found, session: { ...found.session, lastSeenAt: now } };
    }
    if (!change) sessionCache.set(db, tokenHash, found.user.id, found, generation);
  } else if (found.user.siteId !== request.site.id || found.user.status === 'deleted') {
    return;
  }
  request.auth = { sessionId: found.session.id, tokenHash, user: found.user, profile: found.profile };
}

/**
 * After a change has been handled, before its answer leaves: the member's sessions are read from the database
 * again, here and (through the `session.revoked` event) in every other process, so the next call sees what the
 * change did (their own rows, a logout, a deletion). A change made without a session (a link from a mail, a
 * login) may have changed any member: every session this process keeps is read again; other processes see it
 * within SESSION_CACHE_TTL_MS.
 */
export function forgetAfterChange(app: FastifyInstance, request: FastifyRequest, statusCode: number): void {
  const { auth } = request;
  if (!auth) {
    // A refused call changed nothing (bad input, no client header, a wrong password): the cache stays.
    if (statusCode < 400) sessionCache.forgetAll();
    return;
  }
  sessionCache.forgetMember(auth.user.id);
  app.ctx.events.publish({ type: 'session.revoked', siteId: auth.user.siteId, userId: auth.user.id });
}

/** Keeps this process's session cache in step with the changes other processes make. */
export function followSessionChanges(app: FastifyInstance): void {
  app.ctx.events.subscribe('session.revoked', (event) => sessionCache.forgetMember(event.userId));
  // Events missed while the connection to Redis was down: nothing kept may be trusted.
  app.ctx.events.onMissed(() => sessionCache.forgetAll());
}

/** The logged-in member, or a 403 with authentication_required (spec §8). */
export function requireAuth(request: FastifyRequest): Auth {
  if (!request.auth) throw authenticationRequired();
  return request.auth;
}

import { SESSION_COOKIE } from '@amora/contracts';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { authenticationRequired } from '../lib/errors';
import { hashToken } from '../lib/tokens';
import { findSessionAccount, type ProfileRow, touchSession, type UserRow } from '../modules/sessions/sessions.repository';

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

/**
 * Sets `request.auth` from the session cookie of an API call; a session belongs to one site and only counts
 * there. An unknown, expired or foreign session leaves the request anonymous.
 */
export async function authenticate(app: FastifyInstance, request: FastifyRequest, token: string): Promise<void> {
  const tokenHash = hashToken(token);
  const now = app.ctx.now();
  const found = await findSessionAccount(app.ctx.db, tokenHash, now);
  if (!found || found.user.siteId !== request.site.id || found.user.status === 'deleted') return;
  if (now.getTime() - found.session.lastSeenAt.getTime() > TOUCH_EVERY_MS) {
    await touchSession(app.ctx.db, found.session.id, now);
  }
  request.auth = { sessionId: found.session.id, tokenHash, user: found.user, profile: found.profile };
}

/** The logged-in member, or a 403 with authentication_required (spec §8). */
export function requireAuth(request: FastifyRequest): Auth {
  if (!request.auth) throw authenticationRequired();
  return request.auth;
}

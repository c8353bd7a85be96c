import { SESSION_COOKIE, SESSION_DAYS } from '@amora/contracts';
import type { Executor } from '@amora/db';
import type { FastifyReply } from 'fastify';
import type { AppContext } from '../../context';
import { hashToken, newToken } from '../../lib/tokens';
import { sessionCache } from './session-cache';
import { deleteSessionByHash, deleteSessionsOf, findSessionAccount, insertSession } from './sessions.repository';

/**
 * Sessions: a 256-bit token in the member's cookie, its SHA-256 in the database. plugins/auth.ts looks the
 * cookie up on every API call (sessions.repository's findSessionAccount and touchSession); this module makes
 * and ends them.
 */

export type { ProfileRow, UserRow } from './sessions.repository';

const DAY_MS = 86_400_000;

/** A new session of 30 days. */
export async function startSession(ctx: AppContext, userId: number, userAgent: string): Promise<{ token: string; expires: Date }> {
  const token = newToken();
  const expires = new Date(ctx.now().getTime() + SESSION_DAYS * DAY_MS);
  await insertSession(ctx.db, { userId, tokenHash: hashToken(token), userAgent, expiresAt: expires, lastSeenAt: ctx.now() });
  return { token, expires };
}

/** The session cookie of an answer that logs the member in: the browser's scripts cannot read it. */
export function setSessionCookie(reply: FastifyReply, token: string, secure: boolean): void {
  reply.setCookie(SESSION_COOKIE, token, { path: '/', httpOnly: true, sameSite: 'lax', secure, maxAge: SESSION_DAYS * 86_400 });
}

export function clearSessionCookie(reply: FastifyReply): void {
  reply.clearCookie(SESSION_COOKIE, { path: '/' });
}

/** Logs the session of this cookie token out (nothing happens for an unknown one). */
export async function endSession(ctx: AppContext, token: string): Promise<void> {
  const tokenHash = hashToken(token);
  await deleteSessionByHash(ctx.db, tokenHash);
  sessionCache.forgetToken(tokenHash);
}

/**
 * Whether the session of this token hash is still open for its member (not logged out, expired or deleted):
 * for a connection that outlives the request that opened it (the chat's live channel).
 */
export async function sessionIsOpen(ctx: Pick<AppContext, 'db' | 'now'>, tokenHash: string): Promise<boolean> {
  const found = await findSessionAccount(ctx.db, tokenHash, ctx.now());
  return found !== undefined && found.user.status !== 'deleted';
}

/** Ends every session of the member (a new password, a deleted account); `db` may be the caller's transaction. */
export async function endAllSessions(db: Executor, userId: number): Promise<void> {
  await deleteSessionsOf(db, userId);
  // Ended at once in this process, also when the transaction commits later (plugins/session-cache.ts).
  sessionCache.forgetMember(userId, true);
}

/** The account purge: the member's sessions go with the account. */
export async function purgeMember(db: Executor, member: { userId: number }): Promise<void> {
  await deleteSessionsOf(db, member.userId);
  sessionCache.forgetMember(member.userId, true);
}

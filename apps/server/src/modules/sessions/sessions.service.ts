import { ACCOUNT_ERRORS, SESSION_COOKIE, SESSION_DAYS } from '@amora/contracts';
import type { Executor } from '@amora/db';
import type { FastifyReply } from 'fastify';
import type { AppContext } from '../../context';
import { type Batches, createBatches } from '../../lib/batches';
import { HttpError } from '../../lib/errors';
import { hashToken, newToken } from '../../lib/tokens';
import { type DbContext, dbOf, inUnitOfWork } from '../../lib/transaction';
import { sessionCache } from './session-cache';
import {
  deleteSessionByHash,
  deleteSessionsOf,
  findLoginBlock,
  findSessionAccount,
  findSessionAccounts,
  insertSession,
  type ProfileRow,
  touchSession,
  type UserRow,
} from './sessions.repository';

/**
 * Sessions: a 256-bit token in the member's cookie, its SHA-256 in the database. plugins/auth.ts looks the
 * cookie up on every API call (findAuth); this module makes, finds and ends them.
 */

/** The member a request's session stands for (`request.auth`, set by plugins/auth.ts; what services are given). */
export interface Auth {
  sessionId: number;
  tokenHash: string;
  user: UserRow;
  profile: ProfileRow;
}

const DAY_MS = 86_400_000;
const TOUCH_EVERY_MS = 3_600_000;

type Found = NonNullable<Awaited<ReturnType<typeof findSessionAccount>>>;

/**
 * The session of a cookie's token, when it is open on this site: a session belongs to one site and only counts
 * there; an unknown, expired or foreign session, or a deleted account's, is null. A read (`change` false) may take
 * the session from the cache of sessions found lately (session-cache.ts); a change always asks the database. A
 * session last seen over an hour ago is touched.
 */
export async function findAuth(ctx: Pick<AppContext, 'db' | 'now'>, token: string, siteId: number, change: boolean): Promise<Auth | null> {
  const tokenHash = hashToken(token);
  const now = ctx.now();
  // Outside a unit of work (plugins/auth.ts) the database itself, which is also the cache's key.
  const db = dbOf(ctx);
  let found = change ? undefined : sessionCache.get<Found['session'], Found['user'], Found['profile']>(db, tokenHash);
  // Stale for this request's clock (the cache keeps real time): asked again, which also touches the session.
  if (found && (found.session.expiresAt <= now || now.getTime() - found.session.lastSeenAt.getTime() > TOUCH_EVERY_MS)) found = undefined;
  if (!found) {
    const generation = sessionCache.begin();
    found = await lookUp(ctx, db, tokenHash, now);
    if (!found || found.user.siteId !== siteId || found.user.status === 'deleted') return null;
    if (now.getTime() - found.session.lastSeenAt.getTime() > TOUCH_EVERY_MS) {
      await touchSession(db, found.session.id, now);
      found = { ...found, session: { ...found.session, lastSeenAt: now } };
    }
    if (!change) sessionCache.set(db, tokenHash, found.user.id, found, generation);
  } else if (found.user.siteId !== siteId || found.user.status === 'deleted') {
    return null;
  }
  return { sessionId: found.session.id, tokenHash, user: found.user, profile: found.profile };
}

/** A session looked up in a batch of lookups: what it is answered with. */
interface Lookup {
  tokenHash: string;
  now: Date;
  resolve: (found: Found | undefined) => void;
  reject: (error: unknown) => void;
}

const lookups = new WeakMap<Executor, Batches<Lookup>>();
/** Sessions looked up together at most; two batches under way at once. */
const LOOKUP_LIMIT = 200;

/**
 * The session of a token, from the database: outside a unit of work in a batch of the lookups that wait
 * (lib/batches.ts), one statement for all the calls that arrive while one is under way, whose round trips cost
 * a busy process more than the statement itself; inside one, on its own.
 */
function lookUp(ctx: DbContext, db: Executor, tokenHash: string, now: Date): Promise<Found | undefined> {
  if (inUnitOfWork(ctx)) return findSessionAccount(db, tokenHash, now);
  let batches = lookups.get(db);
  if (!batches) {
    batches = createBatches<Lookup>({
      limit: LOOKUP_LIMIT,
      atOnce: 2,
      run: async (batch) => {
        const found = await findSessionAccounts(db, batch);
        for (const [i, lookup] of batch.entries()) lookup.resolve(found[i]);
      },
    });
    lookups.set(db, batches);
  }
  const queue = batches;
  return new Promise((resolve, reject) => queue.add({ tokenHash, now, resolve, reject }));
}

/** The member's sessions are read from the database again at their next call in this process (their data changed). */
export function forgetCachedSessions(userId: number): void {
  sessionCache.forgetMember(userId);
}

/** The sessions of the member whose profile this is are read again at their next call in this process. */
export function forgetCachedSessionsOfProfile(profileId: number): void {
  sessionCache.forgetProfile(profileId);
}

/** Every session is read from the database again at its next call in this process (anything may have changed). */
export function forgetAllCachedSessions(): void {
  sessionCache.forgetAll();
}

/**
 * The refusal of a new session to a banned or suspended member (moderation): 403 `banned`, or `suspended` with
 * its end; every way in (login, a password reset, a reactivation) ends here.
 */
export function sanctionRefusal(block: { kind: string; until: Date | null }): HttpError {
  if (block.kind === 'ban') return new HttpError(403, 'banned', 'This account has been banned', { message_key: ACCOUNT_ERRORS.banned });
  const until = block.until?.toISOString() ?? '';
  return new HttpError(403, 'suspended', `This account is suspended until ${until}`, { message_key: ACCOUNT_ERRORS.suspended, until });
}

/** A new session of 30 days; none for a member who is banned or suspended. */
export async function startSession(ctx: AppContext, userId: number, userAgent: string): Promise<{ token: string; expires: Date }> {
  const block = await findLoginBlock(dbOf(ctx), userId, ctx.now());
  if (block) throw sanctionRefusal(block);
  const token = newToken();
  const expires = new Date(ctx.now().getTime() + SESSION_DAYS * DAY_MS);
  await insertSession(dbOf(ctx), { userId, tokenHash: hashToken(token), userAgent, expiresAt: expires, lastSeenAt: ctx.now() });
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
  const ended = await deleteSessionByHash(dbOf(ctx), tokenHash);
  sessionCache.forgetToken(tokenHash);
  if (ended) ctx.events.publish({ type: 'session.ended', ...ended });
}

/**
 * Whether the session of this token hash is still open for its member (not logged out, expired or deleted):
 * for a connection that outlives the request that opened it (the chat's live channel).
 */
export async function sessionIsOpen(ctx: Pick<AppContext, 'db' | 'now'>, tokenHash: string): Promise<boolean> {
  const found = await findSessionAccount(dbOf(ctx), tokenHash, ctx.now());
  return found !== undefined && found.user.status !== 'deleted';
}

/**
 * Ends every session of the member (a new password, a deleted account), in the caller's unit of work when one is
 * open. Every process hears of it once it is committed (`session.ended`).
 */
export async function endAllSessions(ctx: Pick<AppContext, 'db' | 'events'>, member: { siteId: number; userId: number }): Promise<void> {
  await deleteSessionsOf(dbOf(ctx), member.userId);
  // Ended at once in this process, also when the transaction commits later (plugins/session-cache.ts).
  sessionCache.forgetMember(member.userId, true);
  ctx.events.publish({ type: 'session.ended', siteId: member.siteId, userId: member.userId });
}

/** The account purge: the member's sessions go with the account. */
export async function purgeMember(ctx: DbContext, member: { userId: number }): Promise<void> {
  await deleteSessionsOf(dbOf(ctx), member.userId);
  sessionCache.forgetMember(member.userId, true);
}

import type { Executor } from '@amora/db';
import { LRUCache } from 'lru-cache';

/** What a session lookup found: the session and the member's account and profile rows. */
interface CachedSession<S, U, P> {
  session: S;
  user: U;
  profile: P;
}

/** How long a found session answers reads without asking the database again (real time). */
const SESSION_CACHE_TTL_MS = 5_000;
/** Sessions remembered at once (a few hundred bytes each). */
const SESSION_CACHE_SIZE = 10_000;

interface Entry {
  db: Executor;
  userId: number;
  found: CachedSession<unknown, unknown, unknown>;
}

/**
 * The sessions found lately, by token hash, for reads (GET) only: every logged-in call looked its session up
 * with a join of three rows, which cost more than most routes' own work (on PGlite it runs on the server's
 * only thread). Kept in process memory, for SESSION_CACHE_TTL_MS at most.
 *
 * Nothing is served that this process knows to be stale:
 * - a change (any call that is not a read, and the GET changes of client-header.ts) reads its session from the
 *   database, and once it has been handled, before its answer leaves, the member's sessions are forgotten, or
 *   every session when a visitor made it (a link from a mail, a login): `forgetAfterChange` in auth.ts;
 * - ending sessions (logout, a new password, a deletion) forgets them in the sessions service, whoever
 *   asks for it, and raises `session.ended`;
 * - other processes forget a member on `session.ended`, `account.changed` and `profile.changed`
 *   (apps/server/src/listeners.ts), and everything after a lost Redis connection;
 * - a lookup that began before a forget is not kept (the generation), however long it took; what a
 *   transaction forgets before its commit is not cached again for SESSION_CACHE_TTL_MS, so a read between the
 *   forget and the commit cannot put the old rows back.
 * Other processes see any other change (a balance spent on a message, a direct SQL change) within
 * SESSION_CACHE_TTL_MS.
 */
class SessionCache {
  /** Token hashes by member, for forgetting a member's sessions at once. */
  private readonly byMember = new Map<number, Set<string>>();
  private readonly entries = new LRUCache<string, Entry>({
    max: SESSION_CACHE_SIZE,
    ttl: SESSION_CACHE_TTL_MS,
    dispose: (entry, tokenHash) => {
      const tokens = this.byMember.get(entry.userId);
      tokens?.delete(tokenHash);
      if (tokens?.size === 0) this.byMember.delete(entry.userId);
    },
  });
  /** Members and tokens forgotten lately: not cached again until SESSION_CACHE_TTL_MS has passed. */
  private readonly heldMembers = new LRUCache<number, true>({ max: SESSION_CACHE_SIZE, ttl: SESSION_CACHE_TTL_MS });
  private readonly heldTokens = new LRUCache<string, true>({ max: SESSION_CACHE_SIZE, ttl: SESSION_CACHE_TTL_MS });
  /** The member of each profile cached lately, for `profile.changed`, which names the profile. */
  private readonly memberOfProfile = new LRUCache<number, number>({ max: SESSION_CACHE_SIZE });
  /** Moves on at every forget; a lookup that started under an older generation is not kept. */
  private generation = 0;

  get<S, U, P>(db: Executor, tokenHash: string): CachedSession<S, U, P> | undefined {
    const entry = this.entries.get(tokenHash);
    return entry && entry.db === db ? (entry.found as CachedSession<S, U, P>) : undefined;
  }

  /** The generation to hand back to `set` with what a lookup starting now finds. */
  begin(): number {
    return this.generation;
  }

  set(db: Executor, tokenHash: string, userId: number, found: CachedSession<unknown, unknown, unknown>, generation: number): void {
    if (generation !== this.generation) return;
    if (this.heldMembers.has(userId) || this.heldTokens.has(tokenHash)) return;
    this.entries.set(tokenHash, { db, userId, found });
    const profileId = (found.profile as { id?: unknown } | null)?.id;
    if (typeof profileId === 'number') this.memberOfProfile.set(profileId, userId);
    let tokens = this.byMember.get(userId);
    if (!tokens) {
      tokens = new Set();
      this.byMember.set(userId, tokens);
    }
    tokens.add(tokenHash);
  }

  /**
   * `inTransaction`: called before the change is committed, so the old rows stay readable for a while; the
   * token is not cached again for SESSION_CACHE_TTL_MS.
   */
  forgetToken(tokenHash: string, inTransaction = false): void {
    this.generation++;
    if (inTransaction) this.heldTokens.set(tokenHash, true);
    this.entries.delete(tokenHash);
  }

  /** See forgetToken for `inTransaction`. */
  forgetMember(userId: number, inTransaction = false): void {
    this.generation++;
    if (inTransaction) this.heldMembers.set(userId, true);
    const tokens = this.byMember.get(userId);
    if (tokens) for (const tokenHash of [...tokens]) this.entries.delete(tokenHash);
  }

  /** The sessions of the member whose profile this is (once its change is committed). */
  forgetProfile(profileId: number): void {
    const userId = this.memberOfProfile.get(profileId);
    if (userId !== undefined) this.forgetMember(userId);
  }

  /** Once a change is committed. */
  forgetAll(): void {
    this.generation++;
    this.entries.clear();
  }

  get size(): number {
    return this.entries.size;
  }
}

export const sessionCache = new SessionCache();

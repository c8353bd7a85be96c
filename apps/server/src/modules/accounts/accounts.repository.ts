import { accountTokens, type Executor, likes, profiles, sessions, users } from '@amora/db';
import { and, eq, gt, isNull, lt, sql } from 'drizzle-orm';

export type UserRow = typeof users.$inferSelect;
export type ProfileRow = typeof profiles.$inferSelect;
export type TokenKind = 'activation' | 'reset' | 'mail_change' | 'reactivation';

export async function findUserByEmail(db: Executor, siteId: number, email: string): Promise<UserRow | undefined> {
  const [row] = await db
    .select()
    .from(users)
    .where(and(eq(users.siteId, siteId), sql`lower(${users.email}) = ${email.toLowerCase()}`));
  return row;
}

export async function findAccount(db: Executor, userId: number): Promise<{ user: UserRow; profile: ProfileRow } | undefined> {
  const [row] = await db.select().from(users).innerJoin(profiles, eq(profiles.userId, users.id)).where(eq(users.id, userId));
  return row ? { user: row.users, profile: row.profiles } : undefined;
}

export async function insertSession(db: Executor, session: typeof sessions.$inferInsert): Promise<void> {
  await db.insert(sessions).values(session);
}

/** The session's account, when the token is known and not expired. */
export async function findSessionAccount(db: Executor, tokenHash: string, now: Date) {
  const [row] = await db
    .select()
    .from(sessions)
    .innerJoin(users, eq(users.id, sessions.userId))
    .innerJoin(profiles, eq(profiles.userId, users.id))
    .where(and(eq(sessions.tokenHash, tokenHash), gt(sessions.expiresAt, now)));
  return row ? { session: row.sessions, user: row.users, profile: row.profiles } : undefined;
}

export async function touchSession(db: Executor, id: number, now: Date): Promise<void> {
  await db.update(sessions).set({ lastSeenAt: now }).where(eq(sessions.id, id));
}

export async function deleteSessionByHash(db: Executor, tokenHash: string): Promise<void> {
  await db.delete(sessions).where(eq(sessions.tokenHash, tokenHash));
}

export async function deleteSessionsOf(db: Executor, userId: number): Promise<void> {
  await db.delete(sessions).where(eq(sessions.userId, userId));
}

export async function insertToken(db: Executor, token: typeof accountTokens.$inferInsert): Promise<void> {
  await db.insert(accountTokens).values(token);
}

/** Locks the member's row until the transaction ends, so work on their links runs one at a time. */
async function lockUser(tx: Executor, userId: number): Promise<void> {
  await tx.select({ id: users.id }).from(users).where(eq(users.id, userId)).for('update');
}

/**
 * Stores a link that replaces every other open link of its kind for the member (they end as used), in one
 * transaction with the member's row locked, so two issued at once cannot both stay open.
 */
export async function replaceToken(db: Executor, token: typeof accountTokens.$inferInsert, now: Date): Promise<void> {
  await db.transaction(async (tx) => {
    await lockUser(tx, token.userId);
    await tx
      .update(accountTokens)
      .set({ usedAt: now })
      .where(and(eq(accountTokens.userId, token.userId), eq(accountTokens.kind, token.kind), isNull(accountTokens.usedAt)));
    await tx.insert(accountTokens).values(token);
  });
}

/**
 * Uses a valid link and ends every other open link of its kind for the same member, as one step: with the
 * member's row locked, of two links used at once only the first counts. Undefined for a used, ended, expired
 * or unknown link.
 */
export async function consumeTokenEndingOthers(db: Executor, kind: TokenKind, tokenHash: string, now: Date) {
  return db.transaction(async (tx) => {
    const [found] = await tx
      .select({ userId: accountTokens.userId })
      .from(accountTokens)
      .where(
        and(
          eq(accountTokens.tokenHash, tokenHash),
          eq(accountTokens.kind, kind),
          isNull(accountTokens.usedAt),
          gt(accountTokens.expiresAt, now),
        ),
      );
    if (!found) return undefined;
    await lockUser(tx, found.userId);
    // Read after the lock: a link used or ended meanwhile by another transaction is no longer open here.
    const ended = await tx
      .update(accountTokens)
      .set({ usedAt: now })
      .where(and(eq(accountTokens.userId, found.userId), eq(accountTokens.kind, kind), isNull(accountTokens.usedAt)))
      .returning();
    return ended.find((row) => row.tokenHash === tokenHash && row.expiresAt > now);
  });
}

/** Marks a valid token used and returns it; a used, expired or unknown token gives undefined. */
export async function consumeToken(db: Executor, kind: TokenKind, tokenHash: string, now: Date) {
  const [row] = await db
    .update(accountTokens)
    .set({ usedAt: now })
    .where(
      and(
        eq(accountTokens.tokenHash, tokenHash),
        eq(accountTokens.kind, kind),
        isNull(accountTokens.usedAt),
        gt(accountTokens.expiresAt, now),
      ),
    )
    .returning();
  return row;
}

export async function findToken(db: Executor, kind: TokenKind, tokenHash: string) {
  const [row] = await db
    .select()
    .from(accountTokens)
    .where(and(eq(accountTokens.tokenHash, tokenHash), eq(accountTokens.kind, kind)));
  return row;
}

export async function usersDeletedBefore(db: Executor, cutoff: Date): Promise<{ id: number }[]> {
  return db
    .select({ id: users.id })
    .from(users)
    .where(and(eq(users.status, 'deleted'), lt(users.deletedAt, cutoff)));
}

/** How many likes the profile has not looked at yet (the user object's profile.like_new). */
export async function countNewLikes(db: Executor, profileId: number): Promise<number> {
  const [row] = await db
    .select({ n: sql<number>`count(*)` })
    .from(likes)
    .where(and(eq(likes.likedProfileId, profileId), eq(likes.isNew, true)));
  return Number(row?.n ?? 0);
}

import { accountTokens, type Database, likes, profiles, sessions, users } from '@amora/db';
import { and, eq, gt, isNull, lt, sql } from 'drizzle-orm';

export type UserRow = typeof users.$inferSelect;
export type ProfileRow = typeof profiles.$inferSelect;
export type TokenKind = 'activation' | 'reset' | 'mail_change' | 'reactivation';
type Tx = Parameters<Parameters<Database['transaction']>[0]>[0];
type Db = Database | Tx;

export async function findUserByEmail(db: Db, siteId: number, email: string): Promise<UserRow | undefined> {
  const [row] = await db
    .select()
    .from(users)
    .where(and(eq(users.siteId, siteId), sql`lower(${users.email}) = ${email.toLowerCase()}`));
  return row;
}

export async function findAccount(db: Db, userId: number): Promise<{ user: UserRow; profile: ProfileRow } | undefined> {
  const [row] = await db.select().from(users).innerJoin(profiles, eq(profiles.userId, users.id)).where(eq(users.id, userId));
  return row ? { user: row.users, profile: row.profiles } : undefined;
}

export async function insertSession(db: Db, session: typeof sessions.$inferInsert): Promise<void> {
  await db.insert(sessions).values(session);
}

/** The session's account, when the token is known and not expired. */
export async function findSessionAccount(db: Database, tokenHash: string, now: Date) {
  const [row] = await db
    .select()
    .from(sessions)
    .innerJoin(users, eq(users.id, sessions.userId))
    .innerJoin(profiles, eq(profiles.userId, users.id))
    .where(and(eq(sessions.tokenHash, tokenHash), gt(sessions.expiresAt, now)));
  return row ? { session: row.sessions, user: row.users, profile: row.profiles } : undefined;
}

export async function touchSession(db: Database, id: number, now: Date): Promise<void> {
  await db.update(sessions).set({ lastSeenAt: now }).where(eq(sessions.id, id));
}

export async function deleteSessionByHash(db: Db, tokenHash: string): Promise<void> {
  await db.delete(sessions).where(eq(sessions.tokenHash, tokenHash));
}

export async function deleteSessionsOf(db: Db, userId: number): Promise<void> {
  await db.delete(sessions).where(eq(sessions.userId, userId));
}

export async function insertToken(db: Db, token: typeof accountTokens.$inferInsert): Promise<void> {
  await db.insert(accountTokens).values(token);
}

/** Marks a valid token used and returns it; a used, expired or unknown token gives undefined. */
export async function consumeToken(db: Db, kind: TokenKind, tokenHash: string, now: Date) {
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

export async function findToken(db: Db, kind: TokenKind, tokenHash: string) {
  const [row] = await db
    .select()
    .from(accountTokens)
    .where(and(eq(accountTokens.tokenHash, tokenHash), eq(accountTokens.kind, kind)));
  return row;
}

export async function usersDeletedBefore(db: Database, cutoff: Date): Promise<{ id: number }[]> {
  return db
    .select({ id: users.id })
    .from(users)
    .where(and(eq(users.status, 'deleted'), lt(users.deletedAt, cutoff)));
}

/** How many likes the profile has not looked at yet (the user object's profile.like_new). */
export async function countNewLikes(db: Database, profileId: number): Promise<number> {
  const [row] = await db
    .select({ n: sql<number>`count(*)` })
    .from(likes)
    .where(and(eq(likes.likedProfileId, profileId), eq(likes.isNew, true)));
  return Number(row?.n ?? 0);
}

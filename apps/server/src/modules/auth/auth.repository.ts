import { accountTokens, type Executor, profiles, signupMessages, users } from '@amora/db';
import { and, asc, eq, gt, isNull, sql } from 'drizzle-orm';

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

/** The id of the profile when it is one of the site's, else undefined. */
export async function findProfileIdOnSite(db: Executor, profileId: number, siteId: number): Promise<number | undefined> {
  const [row] = await db
    .select({ id: profiles.id })
    .from(profiles)
    .where(and(eq(profiles.id, profileId), eq(profiles.siteId, siteId)));
  return row?.id;
}

export async function insertSignupMessage(db: Executor, message: typeof signupMessages.$inferInsert): Promise<void> {
  await db.insert(signupMessages).values(message);
}

export async function insertToken(db: Executor, token: typeof accountTokens.$inferInsert): Promise<void> {
  await db.insert(accountTokens).values(token);
}

/**
 * Locks the member's row until the transaction ends, so work on their links runs one at a time (NO KEY UPDATE: the
 * row's key is not changed, and FOR UPDATE would deadlock with a transaction that inserted a row pointing at the
 * member and then updates it; payments.repository.ts lockBuyer).
 */
async function lockUser(tx: Executor, userId: number): Promise<void> {
  await tx.select({ id: users.id }).from(users).where(eq(users.id, userId)).for('no key update');
}

/**
 * Stores a link that replaces every other open link of its kind for the member (they end as used), with the
 * member's row locked, so two issued at once cannot both stay open. `tx`: the transaction of a unit of work.
 */
export async function replaceToken(tx: Executor, token: typeof accountTokens.$inferInsert, now: Date): Promise<void> {
  await lockUser(tx, token.userId);
  await tx
    .update(accountTokens)
    .set({ usedAt: now })
    .where(and(eq(accountTokens.userId, token.userId), eq(accountTokens.kind, token.kind), isNull(accountTokens.usedAt)));
  await tx.insert(accountTokens).values(token);
}
/**
 * Uses a valid link and ends every other open link of its kind for the same member, as one step: with the
 * member's row locked, of two links used at once only the first counts. Undefined for a used, ended, expired
 * or unknown link. `tx`: the transaction of a unit of work.
 */
export async function consumeTokenEndingOthers(tx: Executor, kind: TokenKind, tokenHash: string, now: Date) {
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

/** The account purge: the member's links and the message written at signup (the account row goes after them). */
export async function deleteAccountRows(tx: Executor, userId: number): Promise<void> {
  await tx.delete(accountTokens).where(eq(accountTokens.userId, userId));
  await tx.delete(signupMessages).where(eq(signupMessages.userId, userId));
}

/** The messages written while signing up that are not in a chat yet. */
export async function findUndeliveredSignupMessages(db: Executor, userId: number) {
  return db
    .select()
    .from(signupMessages)
    .where(and(eq(signupMessages.userId, userId), isNull(signupMessages.deliveredAt)))
    .orderBy(asc(signupMessages.id));
}

export async function markSignupMessageDelivered(db: Executor, id: number, at: Date): Promise<void> {
  await db.update(signupMessages).set({ deliveredAt: at }).where(eq(signupMessages.id, id));
}

import { type Executor, memberSanctions, profiles, sessions, users } from '@amora/db';
import { and, eq, gt, isNull, notExists, or, type SQL, sql } from 'drizzle-orm';

/** The member a session stands for: their account row and their profile row. */
export type UserRow = typeof users.$inferSelect;
export type ProfileRow = typeof profiles.$inferSelect;

export async function insertSession(db: Executor, session: typeof sessions.$inferInsert): Promise<void> {
  await db.insert(sessions).values(session);
}

/** A ban, or a suspension not over, of the member, not lifted. */
function inForce(userId: number | typeof sessions.userId, now: Date | SQL) {
  return and(
    eq(memberSanctions.userId, userId),
    isNull(memberSanctions.liftedAt),
    or(eq(memberSanctions.kind, 'ban'), and(eq(memberSanctions.kind, 'suspension'), gt(memberSanctions.until, now))),
  );
}

/** The ban or suspension in force that keeps the member from a new session (a ban first), if any. */
export async function findLoginBlock(db: Executor, userId: number, now: Date) {
  const rows = await db
    .select({ kind: memberSanctions.kind, until: memberSanctions.until })
    .from(memberSanctions)
    .where(inForce(userId, now));
  return rows.find((r) => r.kind === 'ban') ?? rows.sort((a, b) => (b.until?.getTime() ?? 0) - (a.until?.getTime() ?? 0))[0];
}

/**
 * The session's account, when the token is known and not expired, and the member is neither banned nor
 * suspended (moderation ends their sessions too; this holds on every process at once, whatever it missed).
 */
export async function findSessionAccount(db: Executor, tokenHash: string, now: Date) {
  return (await findSessionAccounts(db, [{ tokenHash, now }]))[0];
}

/**
 * findSessionAccount for several tokens in one statement, each at its own moment (the clock of its request): the
 * answers in the order asked, undefined where a token has no such session (the same token twice, at two moments,
 * gets each moment's answer).
 */
export async function findSessionAccounts(db: Executor, wanted: { tokenHash: string; now: Date }[]) {
  const list = sql`unnest(${sql.param(wanted.map((w) => w.tokenHash))}::text[], ${sql.param(wanted.map((w) => w.now.toISOString()))}::timestamptz[]) with ordinality as wanted(token_hash, now, i)`;
  const now = sql`wanted.now`;
  const sanctioned = db.select({ id: memberSanctions.id }).from(memberSanctions).where(inForce(sessions.userId, now));
  const rows = await db
    .select({ i: sql<number>`wanted.i`.mapWith(Number), session: sessions, user: users, profile: profiles })
    .from(sessions)
    .innerJoin(list, sql`wanted.token_hash = ${sessions.tokenHash} and ${sessions.expiresAt} > ${now}`)
    .innerJoin(users, eq(users.id, sessions.userId))
    .innerJoin(profiles, eq(profiles.userId, users.id))
    .where(notExists(sanctioned));
  const answers: ({ session: typeof sessions.$inferSelect; user: UserRow; profile: ProfileRow } | undefined)[] = wanted.map(
    () => undefined,
  );
  for (const { i, ...found } of rows) answers[i - 1] = found;
  return answers;
}

export async function touchSession(db: Executor, id: number, now: Date): Promise<void> {
  await db.update(sessions).set({ lastSeenAt: now }).where(eq(sessions.id, id));
}

/** Deletes the session of this token hash; answers whose it was, if it existed. */
export async function deleteSessionByHash(db: Executor, tokenHash: string): Promise<{ siteId: number; userId: number } | undefined> {
  const [ended] = await db.delete(sessions).where(eq(sessions.tokenHash, tokenHash)).returning({ userId: sessions.userId });
  if (!ended) return undefined;
  const [user] = await db.select({ siteId: users.siteId }).from(users).where(eq(users.id, ended.userId));
  return user ? { siteId: user.siteId, userId: ended.userId } : undefined;
}

export async function deleteSessionsOf(db: Executor, userId: number): Promise<void> {
  await db.delete(sessions).where(eq(sessions.userId, userId));
}

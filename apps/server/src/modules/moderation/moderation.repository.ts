import { type Executor, memberSanctions, profiles, staffUsers } from '@amora/db';
import { and, desc, eq, gt, isNull, or, sql } from 'drizzle-orm';

export type SanctionRow = typeof memberSanctions.$inferSelect;

export async function insertSanction(tx: Executor, sanction: typeof memberSanctions.$inferInsert): Promise<SanctionRow> {
  const [row] = await tx.insert(memberSanctions).values(sanction).returning();
  return row;
}

/** The member's sanctions, newest first, with the name of the staff member who gave each. */
export async function listSanctionsOf(db: Executor, userId: number) {
  return db
    .select({ sanction: memberSanctions, staffName: staffUsers.name })
    .from(memberSanctions)
    .leftJoin(staffUsers, eq(staffUsers.id, memberSanctions.staffId))
    .where(eq(memberSanctions.userId, userId))
    .orderBy(desc(memberSanctions.createdAt), desc(memberSanctions.id))
    .limit(50);
}

export async function findSanction(db: Executor, id: number) {
  const [row] = await db
    .select({ sanction: memberSanctions, staffName: staffUsers.name })
    .from(memberSanctions)
    .leftJoin(staffUsers, eq(staffUsers.id, memberSanctions.staffId))
    .where(eq(memberSanctions.id, id));
  return row;
}

/** The ban or suspension in force for the member now (a ban first, then the suspension lasting longest). */
export async function findBlockingSanction(db: Executor, userId: number, now: Date): Promise<SanctionRow | undefined> {
  const rows = await db
    .select()
    .from(memberSanctions)
    .where(
      and(
        eq(memberSanctions.userId, userId),
        isNull(memberSanctions.liftedAt),
        or(eq(memberSanctions.kind, 'ban'), and(eq(memberSanctions.kind, 'suspension'), gt(memberSanctions.until, now))),
      ),
    );
  return rows.sort((a, b) => (a.kind === 'ban' ? -1 : b.kind === 'ban' ? 1 : (b.until?.getTime() ?? 0) - (a.until?.getTime() ?? 0)))[0];
}

/** The member's newest warning not lifted and not yet seen. */
export async function findUnseenWarning(db: Executor, userId: number): Promise<SanctionRow | undefined> {
  const [row] = await db
    .select()
    .from(memberSanctions)
    .where(
      and(
        eq(memberSanctions.userId, userId),
        eq(memberSanctions.kind, 'warning'),
        isNull(memberSanctions.liftedAt),
        isNull(memberSanctions.seenAt),
      ),
    )
    .orderBy(desc(memberSanctions.createdAt), desc(memberSanctions.id))
    .limit(1);
  return row;
}

export async function setWarningSeen(db: Executor, userId: number, id: number, at: Date): Promise<void> {
  await db
    .update(memberSanctions)
    .set({ seenAt: at })
    .where(and(eq(memberSanctions.id, id), eq(memberSanctions.userId, userId), eq(memberSanctions.kind, 'warning')));
}

/** Lifts the sanction when it is not lifted yet; answers the row lifted. */
export async function liftSanction(tx: Executor, id: number, staffId: number, at: Date): Promise<SanctionRow | undefined> {
  const [row] = await tx
    .update(memberSanctions)
    .set({ liftedAt: at, liftedBy: staffId })
    .where(and(eq(memberSanctions.id, id), isNull(memberSanctions.liftedAt)))
    .returning();
  return row;
}

/**
 * Members whose last suspension ran out (before `now`, not lifted by hand) and who have no ban or suspension in
 * force: their profile is to show again. At most `limit`, those whose suspension ended first.
 */
export async function findRunOutSuspensions(db: Executor, now: Date, limit: number): Promise<number[]> {
  const result = await db.execute(sql`
    select s.user_id, max(s.until) as ended
    from ${memberSanctions} s
    join ${profiles} p on p.user_id = s.user_id and p.status = 'suspended'
    where s.kind = 'suspension' and s.lifted_at is null and s.until <= ${now.toISOString()}
      and not exists (
        select 1 from ${memberSanctions} b
        where b.user_id = s.user_id and b.lifted_at is null
          and (b.kind = 'ban' or (b.kind = 'suspension' and b.until > ${now.toISOString()})))
    group by s.user_id
    order by ended
    limit ${limit}`);
  return (result as unknown as { rows: { user_id: number | string }[] }).rows.map((row) => Number(row.user_id));
}

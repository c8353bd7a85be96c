import { type Executor, users } from '@amora/db';
import { and, eq, gte, sql } from 'drizzle-orm';

export type UserRow = typeof users.$inferSelect;

/** A new account (a unique index refuses a second account with the address on the site). */
export async function insertUser(tx: Executor, user: typeof users.$inferInsert): Promise<UserRow> {
  const [created] = await tx.insert(users).values(user).returning();
  return created;
}

/** The address is confirmed by its link. */
export async function confirmUser(tx: Executor, userId: number, now: Date): Promise<void> {
  await tx.update(users).set({ status: 'confirmed', confirmedAt: now }).where(eq(users.id, userId));
}

export async function setPasswordHash(db: Executor, userId: number, passwordHash: string): Promise<void> {
  await db.update(users).set({ passwordHash }).where(eq(users.id, userId));
}

export async function setLanguage(db: Executor, userId: number, language: string): Promise<void> {
  await db.update(users).set({ language }).where(eq(users.id, userId));
}

/** The new address, confirmed by its link: the account counts as confirmed. */
export async function setConfirmedEmail(tx: Executor, userId: number, email: string, confirmedAt: Date): Promise<void> {
  await tx.update(users).set({ email, status: 'confirmed', confirmedAt }).where(eq(users.id, userId));
}

/** Turns a member's read receipts on or off (their own setting, apart from notifications_disabled). */
export async function setReadReceipts(db: Executor, userId: number, enabled: boolean): Promise<void> {
  await db.update(users).set({ readReceipts: enabled }).where(eq(users.id, userId));
}

/**
 * Adds a reason to the member's notifications_disabled (spec §3) unless it is there: one statement, so reports
 * arriving together add it once. Answers whether it was added.
 */
export async function addNotificationsDisabled(db: Executor, userId: number, reason: string): Promise<boolean> {
  const changed = await db
    .update(users)
    .set({ notificationsDisabled: sql`${users.notificationsDisabled} || ${JSON.stringify([reason])}::jsonb` })
    .where(and(eq(users.id, userId), sql`not (${users.notificationsDisabled} ? ${reason})`))
    .returning({ id: users.id });
  return changed.length > 0;
}

/** Takes reasons out of the member's notifications_disabled (mail resumes once none is left). */
export async function removeNotificationsDisabled(db: Executor, userId: number, reasons: readonly string[]): Promise<void> {
  await db
    .update(users)
    .set({
      notificationsDisabled: sql`${users.notificationsDisabled} - array[${sql.join(
        reasons.map((reason) => sql`${reason}`),
        sql`, `,
      )}]::text[]`,
    })
    .where(eq(users.id, userId));
}

/**
 * Adds `delta` to the balance in one conditional statement: it only matches while the balance stays at or above
 * zero, and the row lock makes concurrent changes take turns, so they can never take it below. The new balance,
 * or null (nothing changed) when there were not enough credits or there is no such user.
 */
export async function addToBalance(tx: Executor, userId: number, delta: number): Promise<number | null> {
  const [row] = await tx
    .update(users)
    .set({ credits: sql`${users.credits} + ${delta}` })
    .where(and(eq(users.id, userId), gte(sql`${users.credits} + ${delta}`, 0)))
    .returning({ credits: users.credits });
  return row?.credits ?? null;
}

/**
 * addToBalance for several members in one statement: their rows locked in the order of their ids (two batches of
 * the same members never wait on each other in a circle), then each balance changed by its delta unless it would
 * go below zero. The new balances of those changed, by user id; a member left out was not changed.
 */
export async function addToBalances(tx: Executor, changes: { userId: number; delta: number }[]): Promise<Map<number, number>> {
  if (changes.length === 0) return new Map();
  const changed = (await tx.execute(sql`
    with change as (
      select * from unnest(${sql.param(changes.map((c) => c.userId))}::bigint[], ${sql.param(changes.map((c) => c.delta))}::int[]) as c(id, delta)
    ), locked as materialized (
      select ${users.id} as id from ${users} where ${users.id} in (select id from change) order by ${users.id} for update
    )
    update ${users} set credits = ${users.credits} + change.delta
    from change join locked using (id)
    where ${users.id} = change.id and ${users.credits} + change.delta >= 0
    returning ${users.id} as id, ${users.credits} as credits`)) as unknown as { rows: { id: string | number; credits: string | number }[] };
  return new Map(changed.rows.map((row) => [Number(row.id), Number(row.credits)]));
}

/** Buying any package makes a member premium for good (spec §4); the dev switch turns it off again. */
export async function setPaidUser(db: Executor, userId: number, paid: boolean): Promise<void> {
  await db.update(users).set({ paidUser: paid }).where(eq(users.id, userId));
}

export async function setCreditDebt(tx: Executor, userId: number, creditDebt: number): Promise<void> {
  await tx.update(users).set({ creditDebt }).where(eq(users.id, userId));
}

/** After a chargeback: the rest of the credits owed, and no more direct debit. */
export async function addDebtAndBlock(tx: Executor, userId: number, debt: number): Promise<void> {
  await tx
    .update(users)
    .set({ creditDebt: sql`${users.creditDebt} + ${debt}`, directDebitBlocked: true })
    .where(eq(users.id, userId));
}

/** Direct debit allowed again (support, after a chargeback blocked it); the debt stays. */
export async function unblockDirectDebit(tx: Executor, userId: number): Promise<void> {
  await tx.update(users).set({ directDebitBlocked: false }).where(eq(users.id, userId));
}

/** The account is deleted, with the reason given. */
export async function markUserDeleted(
  tx: Executor,
  userId: number,
  deletion: { deletedAt: Date; reason: string; reasonText: string | null },
): Promise<void> {
  await tx
    .update(users)
    .set({ status: 'deleted', deletedAt: deletion.deletedAt, deletionReason: deletion.reason, deletionReasonText: deletion.reasonText })
    .where(eq(users.id, userId));
}

/** A deleted account comes back with the status it had. */
export async function restoreUser(tx: Executor, userId: number, status: 'confirmed' | 'not_confirmed'): Promise<void> {
  await tx.update(users).set({ status, deletedAt: null, deletionReason: null, deletionReasonText: null }).where(eq(users.id, userId));
}

/** The account purge: the account row itself, last. */
export async function deleteUser(tx: Executor, userId: number): Promise<void> {
  await tx.delete(users).where(eq(users.id, userId));
}

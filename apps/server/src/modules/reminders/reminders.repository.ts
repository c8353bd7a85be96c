import { type Executor, memberReminders, photos, profiles, users } from '@amora/db';
import { and, sql } from 'drizzle-orm';

export type ReminderKind = 'confirm_address' | 'complete_profile' | 'weekly_update';

export interface DueMember {
  userId: number;
  siteId: number;
  email: string;
  language: string;
  notificationsDisabled: string[];
  profileId: number;
  /** The member's profile name, which the mail greets them with. */
  name: string;
}

/**
 * Members due a mail of `kind`: accounts signed up between `signedUpAfter` and `signedUpBefore` in `status`, whose
 * last mail of the kind is older than `lastBefore` and who got fewer than `maxCount`; with no photo, for
 * `withoutPhoto`. Oldest accounts first.
 */
export async function findDue(
  db: Executor,
  kind: ReminderKind,
  options: {
    status: 'not_confirmed' | 'confirmed';
    signedUpAfter: Date;
    signedUpBefore: Date;
    lastBefore: Date;
    maxCount: number;
    withoutPhoto?: boolean;
    limit: number;
  },
): Promise<DueMember[]> {
  const result = await db.execute(sql`
    select u.id as user_id, u.site_id, u.email, u.language, u.notifications_disabled, p.id as profile_id, p.name
    from ${users} u
    join ${profiles} p on p.user_id = u.id
    left join ${memberReminders} r on r.user_id = u.id and r.kind = ${kind}
    where u.status = ${options.status}
      and u.signup_date > ${options.signedUpAfter.toISOString()} and u.signup_date <= ${options.signedUpBefore.toISOString()}
      and (r.user_id is null or (r.sent_at < ${options.lastBefore.toISOString()} and r.count < ${options.maxCount}))
      ${options.withoutPhoto ? sql`and not exists (select 1 from ${photos} ph where ph.profile_id = p.id and ph.status <> 'rejected')` : sql``}
    order by u.signup_date, u.id
    limit ${options.limit}`);
  type Row = {
    user_id: number | string;
    site_id: number | string;
    email: string;
    language: string;
    notifications_disabled: string[] | string | null;
    profile_id: number | string;
    name: string;
  };
  return (result as unknown as { rows: Row[] }).rows.map((row) => ({
    userId: Number(row.user_id),
    siteId: Number(row.site_id),
    email: row.email,
    language: row.language,
    notificationsDisabled:
      typeof row.notifications_disabled === 'string' ? JSON.parse(row.notifications_disabled) : (row.notifications_disabled ?? []),
    profileId: Number(row.profile_id),
    name: row.name,
  }));
}

/**
 * Takes the member's next mail of `kind` in one statement: true when it is theirs to send (none yet, or the last
 * before `lastBefore` and fewer than `maxCount`), so two runs at once never send it twice. In the unit of work
 * that queues the mail, so a mail that is not queued is not counted.
 */
export async function claim(
  db: Executor,
  userId: number,
  kind: ReminderKind,
  options: { now: Date; lastBefore: Date; maxCount: number },
): Promise<boolean> {
  const claimed = await db
    .insert(memberReminders)
    .values({ userId, kind, sentAt: options.now, count: 1 })
    .onConflictDoUpdate({
      target: [memberReminders.userId, memberReminders.kind],
      set: { sentAt: options.now, count: sql`${memberReminders.count} + 1` },
      setWhere: and(
        sql`${memberReminders.sentAt} < ${options.lastBefore.toISOString()}`,
        sql`${memberReminders.count} < ${options.maxCount}`,
      ),
    })
    .returning({ userId: memberReminders.userId });
  return claimed.length > 0;
}

/** A member looked at and left without a mail of `kind` (nothing to tell, or not wanted): looked at again a period later, with the count as it was. */
export async function skip(db: Executor, userId: number, kind: ReminderKind, now: Date): Promise<void> {
  await db
    .insert(memberReminders)
    .values({ userId, kind, sentAt: now, count: 0 })
    .onConflictDoUpdate({ target: [memberReminders.userId, memberReminders.kind], set: { sentAt: now } });
}

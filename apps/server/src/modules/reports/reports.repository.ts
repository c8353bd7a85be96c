import { type Executor, likes, messages, paymentEvents, paymentOrders, profiles, users } from '@amora/db';
import { type SQL, sql } from 'drizzle-orm';

/**
 * The business reports' SQL: each figure counted per day (UTC) straight from the tables that record it, on the
 * indexes of migration 0018 (docs/decisions.md, "Business reports"). `from` inclusive, `until` exclusive.
 */
export interface Period {
  from: Date;
  until: Date;
  /** One site, or null for every site. */
  siteId: number | null;
}

export interface DayCount {
  day: string;
  count: number;
}

export interface DayMoney {
  day: string;
  currency: string;
  count: number;
  amountMinor: number;
}

type Row = Record<string, unknown>;

async function rowsOf(db: Executor, query: SQL): Promise<Row[]> {
  const result = await db.execute(query);
  return (result as unknown as { rows: Row[] }).rows;
}

const dayOf = (column: SQL) => sql`to_char((${column} at time zone 'UTC')::date, 'YYYY-MM-DD')`;
const siteIs = (column: SQL, siteId: number | null) => (siteId === null ? sql`true` : sql`${column} = ${siteId}`);
const inPeriod = (column: SQL, p: Period) => sql`${column} >= ${p.from.toISOString()} and ${column} < ${p.until.toISOString()}`;

const counts = (rows: Row[]): DayCount[] => rows.map((r) => ({ day: String(r.day), count: Number(r.count) }));
const money = (rows: Row[]): DayMoney[] =>
  rows.map((r) => ({ day: String(r.day), currency: String(r.currency), count: Number(r.count), amountMinor: Number(r.amount) }));

/** Accounts made per day (users.signup_date), whatever became of them since. */
export async function signupsPerDay(db: Executor, p: Period): Promise<DayCount[]> {
  return counts(
    await rowsOf(
      db,
      sql`select ${dayOf(sql`u.signup_date`)} as day, count(*) as count from ${users} u
        where ${inPeriod(sql`u.signup_date`, p)} and ${siteIs(sql`u.site_id`, p.siteId)} group by 1 order by 1`,
    ),
  );
}

/** Accounts confirmed per day (users.confirmed_at: the activation link followed). */
export async function activationsPerDay(db: Executor, p: Period): Promise<DayCount[]> {
  return counts(
    await rowsOf(
      db,
      sql`select ${dayOf(sql`u.confirmed_at`)} as day, count(*) as count from ${users} u
        where u.confirmed_at is not null and ${inPeriod(sql`u.confirmed_at`, p)} and ${siteIs(sql`u.site_id`, p.siteId)}
        group by 1 order by 1`,
    ),
  );
}

/** Orders paid per day and currency (paid_at; a later chargeback or refund does not undo the payment here). */
export async function revenuePerDay(db: Executor, p: Period): Promise<DayMoney[]> {
  return money(
    await rowsOf(
      db,
      sql`select ${dayOf(sql`o.paid_at`)} as day, o.currency, count(*) as count, sum(o.amount_minor) as amount
        from ${paymentOrders} o
        where o.paid_at is not null and ${inPeriod(sql`o.paid_at`, p)} and ${siteIs(sql`o.site_id`, p.siteId)}
        group by 1, 2 order by 1, 2`,
    ),
  );
}

/** Members whose first paid order (by paid_at, then id) was paid that day. */
export async function firstPurchasesPerDay(db: Executor, p: Period): Promise<DayCount[]> {
  return counts(
    await rowsOf(
      db,
      sql`select ${dayOf(sql`o.paid_at`)} as day, count(*) as count from ${paymentOrders} o
        where o.paid_at is not null and o.user_id is not null and ${inPeriod(sql`o.paid_at`, p)}
          and ${siteIs(sql`o.site_id`, p.siteId)}
          and not exists (
            select 1 from ${paymentOrders} e
            where e.user_id = o.user_id and e.paid_at is not null
              and (e.paid_at < o.paid_at or (e.paid_at = o.paid_at and e.id < o.id)))
        group by 1 order by 1`,
    ),
  );
}

/**
 * Refunds per day and currency: each `refunded:<total>` event of an order (payments records the provider's
 * refunded total so far), its amount what it adds to the order's earlier refunded total.
 */
export async function refundsPerDay(db: Executor, p: Period): Promise<DayMoney[]> {
  return money(
    await rowsOf(
      db,
      sql`select ${dayOf(sql`e.created_at`)} as day, o.currency, count(*) as count,
          sum(split_part(e.status, ':', 2)::bigint - coalesce((
            select max(split_part(b.status, ':', 2)::bigint) from ${paymentEvents} b
            where b.order_id = e.order_id and b.status like 'refunded:%' and b.id < e.id), 0)) as amount
        from ${paymentEvents} e join ${paymentOrders} o on o.id = e.order_id
        where e.status like 'refunded:%' and ${inPeriod(sql`e.created_at`, p)} and ${siteIs(sql`o.site_id`, p.siteId)}
        group by 1, 2 order by 1, 2`,
    ),
  );
}

/** Orders charged back per day and currency (charged_back_at), with the order's whole amount. */
export async function chargebacksPerDay(db: Executor, p: Period): Promise<DayMoney[]> {
  return money(
    await rowsOf(
      db,
      sql`select ${dayOf(sql`o.charged_back_at`)} as day, o.currency, count(*) as count, sum(o.amount_minor) as amount
        from ${paymentOrders} o
        where o.charged_back_at is not null and ${inPeriod(sql`o.charged_back_at`, p)} and ${siteIs(sql`o.site_id`, p.siteId)}
        group by 1, 2 order by 1, 2`,
    ),
  );
}

export interface DayMessages {
  day: string;
  members: number;
  fictional: number;
}

/** Messages stored per day (rejected ones too: they were sent), by members and by fictional profiles apart. */
export async function messagesPerDay(db: Executor, p: Period): Promise<DayMessages[]> {
  const rows = await rowsOf(
    db,
    sql`select ${dayOf(sql`m.created_at`)} as day,
        count(*) filter (where not s.is_fictional) as members, count(*) filter (where s.is_fictional) as fictional
      from ${messages} m join ${profiles} s on s.id = m.sender_profile_id
      where ${inPeriod(sql`m.created_at`, p)} and ${siteIs(sql`s.site_id`, p.siteId)}
      group by 1 order by 1`,
  );
  return rows.map((r) => ({ day: String(r.day), members: Number(r.members), fictional: Number(r.fictional) }));
}

const activity = (p: Period) => sql`
  select m.created_at as at, s.user_id from ${messages} m join ${profiles} s on s.id = m.sender_profile_id
    where ${inPeriod(sql`m.created_at`, p)} and not s.is_fictional and s.user_id is not null and ${siteIs(sql`s.site_id`, p.siteId)}
  union all
  select l.created_at as at, s.user_id from ${likes} l join ${profiles} s on s.id = l.liker_profile_id
    where ${inPeriod(sql`l.created_at`, p)} and not s.is_fictional and s.user_id is not null and ${siteIs(sql`s.site_id`, p.siteId)}`;

/** Distinct members per day who sent a message or liked a profile (likes still stored: an undone like is gone). */
export async function activeMembersPerDay(db: Executor, p: Period): Promise<{ days: DayCount[]; total: number }> {
  const rows = await rowsOf(
    db,
    sql`with a as (select distinct ${dayOf(sql`at`)} as day, user_id from (${activity(p)}) x)
      select day, count(*) as count from a group by day
      union all select null, count(distinct user_id) from a`,
  );
  const total = rows.find((r) => r.day === null);
  return { days: counts(rows.filter((r) => r.day !== null)), total: Number(total?.count ?? 0) };
}

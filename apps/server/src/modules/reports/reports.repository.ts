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

/** The UTC day of a moment: grouped on as a date (cheap to hash), shown as YYYY-MM-DD. */
const dateOf = (column: SQL) => sql`(${column} at time zone 'UTC')::date`;
const dayOf = (column: SQL) => sql`to_char(${dateOf(column)}, 'YYYY-MM-DD')`;
/** The fictional profiles (a few thousand): messages and likes are split against this small set, not all profiles. */
const fictionalIds = (siteId: number | null) =>
  sql`(select f.id from ${profiles} f where f.is_fictional and ${siteIs(sql`f.site_id`, siteId)})`;
const siteIs = (column: SQL, siteId: number | null) => (siteId === null ? sql`true` : sql`${column} = ${siteId}`);
const inPeriod = (column: SQL, p: Period) => sql`${column} >= ${p.from.toISOString()} and ${column} < ${p.until.toISOString()}`;

const counts = (rows: Row[]): DayCount[] => rows.map((r) => ({ day: String(r.day), count: Number(r.count) }));
const money = (rows: Row[]): DayMoney[] =>
  rows.map((r) => ({ day: String(r.day), currency: String(r.currency), count: Number(r.count), amountMinor: Number(r.amount) }));

/**
 * The report's own transaction, first: every statement of it reads the same snapshot (the rollup's days and the
 * live ones from one moment), with memory enough to count a month of messages and likes per day without spilling
 * to disk, and no JIT compilation (it costs more than it saves on these short aggregates).
 */
export async function readAsOneSnapshot(tx: Executor): Promise<void> {
  await tx.execute(sql`set transaction isolation level repeatable read, read only`);
  await tx.execute(sql`select set_config('work_mem', '64MB', true), set_config('jit', 'off', true)`);
}

/** Accounts made per day (users.signup_date), whatever became of them since. */
export async function signupsPerDay(db: Executor, p: Period): Promise<DayCount[]> {
  return counts(
    await rowsOf(
      db,
      sql`select ${dayOf(sql`u.signup_date`)} as day, count(*) as count from ${users} u
        where ${inPeriod(sql`u.signup_date`, p)} and ${siteIs(sql`u.site_id`, p.siteId)} group by ${dateOf(sql`u.signup_date`)} order by ${dateOf(sql`u.signup_date`)}`,
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
        group by ${dateOf(sql`u.confirmed_at`)} order by ${dateOf(sql`u.confirmed_at`)}`,
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
        group by ${dateOf(sql`o.paid_at`)}, 2 order by ${dateOf(sql`o.paid_at`)}, 2`,
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
        group by ${dateOf(sql`o.paid_at`)} order by ${dateOf(sql`o.paid_at`)}`,
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
        group by ${dateOf(sql`e.created_at`)}, 2 order by ${dateOf(sql`e.created_at`)}, 2`,
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
        group by ${dateOf(sql`o.charged_back_at`)}, 2 order by ${dateOf(sql`o.charged_back_at`)}, 2`,
    ),
  );
}

export interface DayMessages {
  day: string;
  members: number;
  fictional: number;
}

/**
 * Messages stored per day (rejected ones too: they were sent), by members and by fictional profiles apart. Every
 * site: no join with the profiles but with the small set of fictional ones; one site: through the sender's profile.
 * Unordered, so that a year's 365 days are hashed rather than millions of rows sorted.
 */
export async function messagesPerDay(db: Executor, p: Period): Promise<DayMessages[]> {
  const day = dateOf(sql`m.created_at`);
  const rows = await rowsOf(
    db,
    p.siteId === null
      ? sql`select to_char(${day}, 'YYYY-MM-DD') as day, count(*) - count(f.id) as members, count(f.id) as fictional
          from ${messages} m left join ${fictionalIds(null)} f on f.id = m.sender_profile_id
          where ${inPeriod(sql`m.created_at`, p)}
          group by ${day}`
      : sql`select to_char(${day}, 'YYYY-MM-DD') as day,
            count(*) filter (where not s.is_fictional) as members, count(*) filter (where s.is_fictional) as fictional
          from ${messages} m join ${profiles} s on s.id = m.sender_profile_id
          where ${inPeriod(sql`m.created_at`, p)} and s.site_id = ${p.siteId}
          group by ${day}`,
  );
  return rows.map((r) => ({ day: String(r.day), members: Number(r.members), fictional: Number(r.fictional) }));
}

/** Who did something when: member profiles (one per member) that sent a message or liked a profile. */
function activity(p: Period): SQL {
  const mine = (column: SQL) =>
    p.siteId === null
      ? sql`${column} not in ${fictionalIds(null)}`
      : sql`${column} in (select s.id from ${profiles} s where s.site_id = ${p.siteId} and not s.is_fictional)`;
  return sql`
    select ${dateOf(sql`m.created_at`)} as day, m.sender_profile_id as who from ${messages} m
      where ${inPeriod(sql`m.created_at`, p)} and ${mine(sql`m.sender_profile_id`)}
    union all
    select ${dateOf(sql`l.created_at`)} as day, l.liker_profile_id as who from ${likes} l
      where ${inPeriod(sql`l.created_at`, p)} and ${mine(sql`l.liker_profile_id`)}`;
}

/**
 * Distinct members per day who sent a message or liked a profile (likes still stored: an undone like is gone);
 * with `total`, also distinct members over the whole period, in the same pass.
 */
export async function activeMembersPerDay(
  db: Executor,
  p: Period,
  { total }: { total: boolean },
): Promise<{ days: DayCount[]; total: number | null }> {
  const rows = await rowsOf(
    db,
    sql`select to_char(day, 'YYYY-MM-DD') as day, count(distinct who) as count
      from (${activity(p)}) a group by ${total ? sql`grouping sets ((day), ())` : sql`day`}`,
  );
  const all = rows.find((r) => r.day === null);
  return { days: counts(rows.filter((r) => r.day !== null)), total: total ? Number(all?.count ?? 0) : null };
}

/** Distinct members over the whole period who sent a message or liked a profile. */
export async function activeMembersInPeriod(db: Executor, p: Period): Promise<number> {
  const [row] = await rowsOf(db, sql`select count(distinct who) as count from (${activity(p)}) a`);
  return Number(row?.count ?? 0);
}

/** A member's source: the lander, slug and traffic network they signed up through (users.tracking), '' for none. */
export interface SourceFunnel {
  lander: string;
  slug: string;
  network: string;
  signups: number;
  activations: number;
  firstPurchases: number;
}

/**
 * The acquisition funnel's rows, one per event, with the member's source: an account made (signup_date), confirmed
 * (confirmed_at), a first purchase (as firstPurchasesPerDay counts it), each on its own moment `at` and with the
 * account's site. `within` says which moments count (a period, or the rollup's days).
 */
export function sourceFunnelEvents(within: (column: SQL) => SQL, siteId: number | null): SQL {
  const source = sql`coalesce(u.tracking->>'lander', '') as lander, coalesce(u.tracking->>'slug', '') as slug,
    coalesce(u.tracking->>'network', '') as network`;
  return sql`
    select u.site_id, u.signup_date as at, ${source}, 1 as signups, 0 as activations, 0 as first_purchases
      from ${users} u where ${within(sql`u.signup_date`)} and ${siteIs(sql`u.site_id`, siteId)}
    union all
    select u.site_id, u.confirmed_at, ${source}, 0, 1, 0
      from ${users} u where u.confirmed_at is not null and ${within(sql`u.confirmed_at`)} and ${siteIs(sql`u.site_id`, siteId)}
    union all
    select o.site_id, o.paid_at, ${source}, 0, 0, 1
      from ${paymentOrders} o join ${users} u on u.id = o.user_id
      where o.paid_at is not null and ${within(sql`o.paid_at`)} and ${siteIs(sql`o.site_id`, siteId)}
        and not exists (
          select 1 from ${paymentOrders} e
          where e.user_id = o.user_id and e.paid_at is not null
            and (e.paid_at < o.paid_at or (e.paid_at = o.paid_at and e.id < o.id)))`;
}

/** Signups, activations and first purchases of the period per source (lander, slug, network). */
export async function funnelPerSource(db: Executor, p: Period): Promise<SourceFunnel[]> {
  const rows = await rowsOf(
    db,
    sql`select lander, slug, network, sum(signups) as signups, sum(activations) as activations,
        sum(first_purchases) as first_purchases
      from (${sourceFunnelEvents((column) => inPeriod(column, p), p.siteId)}) f group by 1, 2, 3`,
  );
  return sourceRows(rows);
}

export const sourceRows = (rows: Record<string, unknown>[]): SourceFunnel[] =>
  rows.map((r) => ({
    lander: String(r.lander),
    slug: String(r.slug),
    network: String(r.network),
    signups: Number(r.signups),
    activations: Number(r.activations),
    firstPurchases: Number(r.first_purchases),
  }));

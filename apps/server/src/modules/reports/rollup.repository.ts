import {
  type Executor,
  likes,
  messages,
  paymentEvents,
  paymentOrders,
  profiles,
  reportDayMoney,
  reportDaySources,
  reportDays,
  reportRollup,
  users,
} from '@amora/db';
import { type SQL, sql } from 'drizzle-orm';
import { type DayCount, type DayMessages, type DayMoney, type SourceFunnel, sourceFunnelEvents, sourceRows } from './reports.repository';

/**
 * The business reports' rollup (docs/decisions.md, "Business reports"): per site and closed UTC day, every figure
 * of the report computed from the tables that record it, as reports.repository.ts counts it live, and read back
 * for a period. Only the `reports.rollup` job writes it, rebuilding it whole in one transaction.
 */

type Row = Record<string, unknown>;

async function rowsOf(db: Executor, query: SQL): Promise<Row[]> {
  const result = await db.execute(query);
  return (result as unknown as { rows: Row[] }).rows;
}

export interface RollupState {
  /** The first day it holds (YYYY-MM-DD). */
  computedFrom: string;
  /** The day after the last it holds: the day it was rebuilt on. */
  computedThrough: string;
  rebuiltAt: Date;
  durationMs: number;
}

/** The days (YYYY-MM-DD) from `from` (included) to `until` (not included), one site or every site (null). */
export interface DayRange {
  from: string;
  until: string;
  siteId: number | null;
}

/** What the rollup holds, or null before its first build. */
export async function rollupState(db: Executor): Promise<RollupState | null> {
  const [row] = await db.select().from(reportRollup);
  return row
    ? { computedFrom: row.computedFrom, computedThrough: row.computedThrough, rebuiltAt: row.rebuiltAt, durationMs: row.durationMs }
    : null;
}

/**
 * Waits for any other rebuild to commit, then holds the rollup until this transaction ends: one rebuild at a
 * time (reports still read it meanwhile).
 */
export async function lockRollup(tx: Executor): Promise<void> {
  await tx.execute(sql`lock table ${reportRollup} in exclusive mode`);
}

/** For the rebuild's transaction: memory to count a year of messages and likes per site and day, and no JIT. */
export async function tuneForRollup(tx: Executor): Promise<void> {
  await tx.execute(sql`select set_config('work_mem', '256MB', true), set_config('jit', 'off', true)`);
}

/**
 * Rebuilds the rollup of the days `from` (included) to `until` (not included), YYYY-MM-DD: every row removed, then
 * each figure counted per site and day from its table, as the live report counts it (reports.repository.ts).
 */
export async function rebuildDays(tx: Executor, from: string, until: string): Promise<void> {
  const start = `${from}T00:00:00Z`;
  const end = `${until}T00:00:00Z`;
  const inPeriod = (column: SQL) => sql`${column} >= ${start}::timestamptz and ${column} < ${end}::timestamptz`;
  const dateOf = (column: SQL) => sql`(${column} at time zone 'UTC')::date`;
  await tx.delete(reportDays);
  await tx.delete(reportDayMoney);
  await tx.delete(reportDaySources);

  const days = (columns: string[], select: SQL) =>
    tx.execute(
      sql`insert into ${reportDays} (site_id, day, ${sql.raw(columns.join(', '))}) ${select}
        on conflict (day, site_id) do update set ${sql.raw(columns.map((c) => `${c} = excluded.${c}`).join(', '))}`,
    );
  await days(
    ['signups'],
    sql`select u.site_id, ${dateOf(sql`u.signup_date`)}, count(*) from ${users} u where ${inPeriod(sql`u.signup_date`)} group by 1, 2`,
  );
  await days(
    ['activations'],
    sql`select u.site_id, ${dateOf(sql`u.confirmed_at`)}, count(*) from ${users} u
      where u.confirmed_at is not null and ${inPeriod(sql`u.confirmed_at`)} group by 1, 2`,
  );
  await days(
    ['first_purchases'],
    sql`select o.site_id, ${dateOf(sql`o.paid_at`)}, count(*) from ${paymentOrders} o
      where o.paid_at is not null and o.user_id is not null and ${inPeriod(sql`o.paid_at`)}
        and not exists (
          select 1 from ${paymentOrders} e
          where e.user_id = o.user_id and e.paid_at is not null
            and (e.paid_at < o.paid_at or (e.paid_at = o.paid_at and e.id < o.id)))
      group by 1, 2`,
  );
  await days(
    ['messages_members', 'messages_fictional'],
    sql`select s.site_id, ${dateOf(sql`m.created_at`)}, count(*) filter (where not s.is_fictional), count(*) filter (where s.is_fictional)
      from ${messages} m join ${profiles} s on s.id = m.sender_profile_id
      where ${inPeriod(sql`m.created_at`)} group by 1, 2`,
  );
  await days(
    ['active_members'],
    sql`select p.site_id, a.day, count(*) from (
        select ${dateOf(sql`m.created_at`)} as day, m.sender_profile_id as who from ${messages} m where ${inPeriod(sql`m.created_at`)}
        union
        select ${dateOf(sql`l.created_at`)} as day, l.liker_profile_id as who from ${likes} l where ${inPeriod(sql`l.created_at`)}
      ) a join ${profiles} p on p.id = a.who and not p.is_fictional
      group by 1, 2`,
  );

  await tx.execute(
    sql`insert into ${reportDaySources} (site_id, day, lander, slug, network, signups, activations, first_purchases)
      select site_id, ${dateOf(sql`at`)}, lander, slug, network, sum(signups), sum(activations), sum(first_purchases)
      from (${sourceFunnelEvents(inPeriod, null)}) f group by 1, 2, 3, 4, 5`,
  );

  const money = (kind: 'revenue' | 'refund' | 'chargeback', select: SQL) =>
    tx.execute(sql`insert into ${reportDayMoney} (site_id, day, kind, currency, count, amount_minor)
      select site_id, day, ${kind}, currency, count, amount from (${select}) m`);
  await money(
    'revenue',
    sql`select o.site_id, ${dateOf(sql`o.paid_at`)} as day, o.currency, count(*) as count, sum(o.amount_minor) as amount
      from ${paymentOrders} o where o.paid_at is not null and ${inPeriod(sql`o.paid_at`)} group by 1, 2, 3`,
  );
  await money(
    'refund',
    sql`select o.site_id, ${dateOf(sql`e.created_at`)} as day, o.currency, count(*) as count,
        sum(split_part(e.status, ':', 2)::bigint - coalesce((
          select max(split_part(b.status, ':', 2)::bigint) from ${paymentEvents} b
          where b.order_id = e.order_id and b.status like 'refunded:%' and b.id < e.id), 0)) as amount
      from ${paymentEvents} e join ${paymentOrders} o on o.id = e.order_id
      where e.status like 'refunded:%' and ${inPeriod(sql`e.created_at`)} group by 1, 2, 3`,
  );
  await money(
    'chargeback',
    sql`select o.site_id, ${dateOf(sql`o.charged_back_at`)} as day, o.currency, count(*) as count, sum(o.amount_minor) as amount
      from ${paymentOrders} o where o.charged_back_at is not null and ${inPeriod(sql`o.charged_back_at`)} group by 1, 2, 3`,
  );
}

/** Writes what the rollup now holds (its one row). */
export async function saveRollupState(tx: Executor, state: RollupState): Promise<void> {
  await tx
    .insert(reportRollup)
    .values({ id: 1, ...state })
    .onConflictDoUpdate({ target: reportRollup.id, set: { ...state } });
}

const siteIs = (siteId: number | null) => (siteId === null ? sql`true` : sql`site_id = ${siteId}`);

/** The rollup's counts per day of a range (every site added up when none is given; days without a row left out). */
export async function rolledDays(
  db: Executor,
  r: DayRange,
): Promise<{ signups: DayCount[]; activations: DayCount[]; firstPurchases: DayCount[]; messages: DayMessages[]; active: DayCount[] }> {
  const rows = await rowsOf(
    db,
    sql`select to_char(day, 'YYYY-MM-DD') as day, sum(signups) as signups, sum(activations) as activations,
        sum(first_purchases) as first_purchases, sum(messages_members) as messages_members,
        sum(messages_fictional) as messages_fictional, sum(active_members) as active_members
      from ${reportDays} where day >= ${r.from}::date and day < ${r.until}::date and ${siteIs(r.siteId)}
      group by day`,
  );
  const count = (key: string) => rows.map((row) => ({ day: String(row.day), count: Number(row[key]) }));
  return {
    signups: count('signups'),
    activations: count('activations'),
    firstPurchases: count('first_purchases'),
    messages: rows.map((row) => ({
      day: String(row.day),
      members: Number(row.messages_members),
      fictional: Number(row.messages_fictional),
    })),
    active: count('active_members'),
  };
}

/** The rollup's money per day, kind and currency of a range. */
export async function rolledMoney(
  db: Executor,
  r: DayRange,
): Promise<{ revenue: DayMoney[]; refunds: DayMoney[]; chargebacks: DayMoney[] }> {
  const rows = await rowsOf(
    db,
    sql`select to_char(day, 'YYYY-MM-DD') as day, kind, currency, sum(count) as count, sum(amount_minor) as amount
      from ${reportDayMoney} where day >= ${r.from}::date and day < ${r.until}::date and ${siteIs(r.siteId)}
      group by day, kind, currency`,
  );
  const of = (kind: string): DayMoney[] =>
    rows
      .filter((row) => row.kind === kind)
      .map((row) => ({ day: String(row.day), currency: String(row.currency), count: Number(row.count), amountMinor: Number(row.amount) }));
  return { revenue: of('revenue'), refunds: of('refund'), chargebacks: of('chargeback') };
}

/** The rollup's signups, activations and first purchases of a range per source (lander, slug, network). */
export async function rolledSources(db: Executor, r: DayRange): Promise<SourceFunnel[]> {
  const rows = await rowsOf(
    db,
    sql`select lander, slug, network, sum(signups) as signups, sum(activations) as activations,
        sum(first_purchases) as first_purchases
      from ${reportDaySources} where day >= ${r.from}::date and day < ${r.until}::date and ${siteIs(r.siteId)}
      group by 1, 2, 3`,
  );
  return sourceRows(rows);
}

import {
  REPORT_DEFAULT_DAYS,
  REPORT_DISTINCT_ACTIVE_MAX_DAYS,
  REPORT_MAX_SOURCES,
  type Report,
  type ReportFigures,
  type ReportMoney,
  type ReportQuery,
  type ReportSource,
  type ReportTotals,
} from '@amora/contracts';
import type { AppContext } from '../../context';
import { notFound } from '../../lib/errors';
import { withTransaction } from '../../lib/transaction';
import { visitsOf } from '../telemetry/telemetry.service';
import * as rows from './reports.repository';
import { rolledDays, rolledMoney, rolledSources, rollupState } from './rollup.repository';

/**
 * Business reports (docs/decisions.md, "Business reports"): per site and day (UTC), every figure counted from the
 * table that records it: the closed days the nightly rollup holds (rollup.service.ts, rebuilt from those tables)
 * read from it, the others live; visits from their counter (modules/telemetry).
 */

const DAY_MS = 86_400_000;

const dayString = (date: Date) => date.toISOString().slice(0, 10);
const dayStart = (day: string) => new Date(`${day}T00:00:00Z`);

/** The period asked for: both ends given, or the last 30 days up to today (UTC), or 30 days from `from` / to `to`. */
function periodOf(now: Date, query: Pick<ReportQuery, 'from' | 'to'>): { from: string; to: string } {
  const span = (REPORT_DEFAULT_DAYS - 1) * DAY_MS;
  if (query.from && query.to) return { from: query.from, to: query.to };
  if (query.from) return { from: query.from, to: dayString(new Date(dayStart(query.from).getTime() + span)) };
  const to = query.to ?? dayString(now);
  return { from: dayString(new Date(dayStart(to).getTime() - span)), to };
}

const emptyFigures = (): ReportFigures => ({
  visits: 0,
  signups: 0,
  activations: 0,
  first_purchases: 0,
  revenue: [],
  refunds: [],
  chargebacks: [],
  messages_members: 0,
  messages_fictional: 0,
  active_members: 0,
});

function addMoney(list: ReportMoney[], currency: string, count: number, amount: number): void {
  const found = list.find((m) => m.currency === currency);
  if (found) {
    found.count += count;
    found.amount_minor += amount;
  } else {
    list.push({ currency, count, amount_minor: amount });
    list.sort((a, b) => a.currency.localeCompare(b.currency));
  }
}

/** What a period's figures are made of, per day: from the live counts and the rollup alike. */
interface DayFigures {
  signups: rows.DayCount[];
  activations: rows.DayCount[];
  firstPurchases: rows.DayCount[];
  revenue: rows.DayMoney[];
  refunds: rows.DayMoney[];
  chargebacks: rows.DayMoney[];
  messages: rows.DayMessages[];
  active: rows.DayCount[];
  sources: rows.SourceFunnel[];
}

/**
 * The period split by what the rollup holds: its days (`rolled`) and the days before and after them (`live`),
 * each a period of its own, empty ones left out.
 */
function splitPeriod(period: rows.Period, held: { from: Date; until: Date } | null): { rolled: rows.Period | null; live: rows.Period[] } {
  if (!held) return { rolled: null, live: [period] };
  const from = new Date(Math.max(period.from.getTime(), held.from.getTime()));
  const until = new Date(Math.min(period.until.getTime(), held.until.getTime()));
  if (from >= until) return { rolled: null, live: [period] };
  const live = [
    { ...period, until: from },
    { ...period, from: until },
  ].filter((p) => p.from < p.until);
  return { rolled: { ...period, from, until }, live };
}

/**
 * The funnel per source: each lander, slug and network with visits or signups, activations or first purchases in
 * the period, its figures added up over the parts read; the most visits first, then the most signups.
 */
function sourcesOf(
  visits: { lander: string; slug: string; network: string; visits: number }[],
  funnel: rows.SourceFunnel[],
): ReportSource[] {
  const bySource = new Map<string, ReportSource>();
  const at = (s: { lander: string; slug: string; network: string }) => {
    const key = JSON.stringify([s.lander, s.slug, s.network]);
    let found = bySource.get(key);
    if (!found) {
      found = { lander: s.lander, slug: s.slug, network: s.network, visits: 0, signups: 0, activations: 0, first_purchases: 0 };
      bySource.set(key, found);
    }
    return found;
  };
  for (const v of visits) at(v).visits += v.visits;
  for (const f of funnel) {
    const source = at(f);
    source.signups += f.signups;
    source.activations += f.activations;
    source.first_purchases += f.firstPurchases;
  }
  return [...bySource.values()].sort(
    (a, b) =>
      b.visits - a.visits ||
      b.signups - a.signups ||
      a.lander.localeCompare(b.lander) ||
      a.slug.localeCompare(b.slug) ||
      a.network.localeCompare(b.network),
  );
}

export async function businessReport(ctx: AppContext, query: ReportQuery): Promise<Report> {
  const siteId = query.site ?? null;
  if (siteId !== null && !(await ctx.sites.get(siteId))) throw notFound('No such site');
  const { from, to } = periodOf(ctx.now(), query);
  const period: rows.Period = { from: dayStart(from), until: new Date(dayStart(to).getTime() + DAY_MS), siteId };
  const dayCount = Math.round((period.until.getTime() - period.from.getTime()) / DAY_MS);
  const distinctActive = dayCount <= REPORT_DISTINCT_ACTIVE_MAX_DAYS;

  // One read of one snapshot: the rollup's days and the live ones from the same moment (reports.repository).
  const read = await withTransaction(ctx, async (tx) => {
    await rows.readAsOneSnapshot(tx);
    const state = await rollupState(tx);
    const split = splitPeriod(period, state && { from: dayStart(state.computedFrom), until: dayStart(state.computedThrough) });
    const parts: DayFigures[] = [];
    let activeTotal: number | null = null;
    for (const live of split.live) {
      const wholePeriod = split.live.length === 1 && !split.rolled;
      const active = await rows.activeMembersPerDay(tx, live, { total: distinctActive && wholePeriod });
      if (active.total !== null) activeTotal = active.total;
      parts.push({
        signups: await rows.signupsPerDay(tx, live),
        activations: await rows.activationsPerDay(tx, live),
        firstPurchases: await rows.firstPurchasesPerDay(tx, live),
        revenue: await rows.revenuePerDay(tx, live),
        refunds: await rows.refundsPerDay(tx, live),
        chargebacks: await rows.chargebacksPerDay(tx, live),
        messages: await rows.messagesPerDay(tx, live),
        active: active.days,
        sources: await rows.funnelPerSource(tx, live),
      });
    }
    let rollup: Report['rollup'] = null;
    if (split.rolled && state) {
      const range = { from: dayString(split.rolled.from), until: dayString(split.rolled.until), siteId };
      parts.push({ ...(await rolledDays(tx, range)), ...(await rolledMoney(tx, range)), sources: await rolledSources(tx, range) });
      rollup = {
        from: range.from,
        to: dayString(new Date(split.rolled.until.getTime() - DAY_MS)),
        rebuilt_at: state.rebuiltAt.toISOString(),
      };
      if (distinctActive) activeTotal = await rows.activeMembersInPeriod(tx, period);
    }
    const visits = await visitsOf(ctx, { from, until: dayString(period.until), siteId });
    return { parts, activeTotal, rollup, visits };
  });

  const byDay = new Map<string, ReportFigures & { day: string }>();
  for (let t = period.from.getTime(); t < period.until.getTime(); t += DAY_MS) {
    const day = dayString(new Date(t));
    byDay.set(day, { day, ...emptyFigures() });
  }
  const at = (day: string) => byDay.get(day) ?? byDay.set(day, { day, ...emptyFigures() }).get(day)!;
  for (const part of read.parts) {
    for (const r of part.signups) at(r.day).signups += r.count;
    for (const r of part.activations) at(r.day).activations += r.count;
    for (const r of part.firstPurchases) at(r.day).first_purchases += r.count;
    for (const r of part.revenue) addMoney(at(r.day).revenue, r.currency, r.count, r.amountMinor);
    for (const r of part.refunds) addMoney(at(r.day).refunds, r.currency, r.count, r.amountMinor);
    for (const r of part.chargebacks) addMoney(at(r.day).chargebacks, r.currency, r.count, r.amountMinor);
    for (const r of part.messages) {
      at(r.day).messages_members += r.members;
      at(r.day).messages_fictional += r.fictional;
    }
    for (const r of part.active) at(r.day).active_members += r.count;
  }
  for (const r of read.visits.days) at(r.day).visits += r.count;

  const sources = sourcesOf(
    read.visits.sources,
    read.parts.flatMap((part) => part.sources),
  );

  const days = [...byDay.values()].sort((a, b) => a.day.localeCompare(b.day));
  const totals: ReportTotals = { ...emptyFigures(), active_members: read.activeTotal, active_members_average: 0, active_members_peak: 0 };
  let activeDays = 0;
  for (const d of days) {
    totals.visits += d.visits;
    totals.signups += d.signups;
    totals.activations += d.activations;
    totals.first_purchases += d.first_purchases;
    totals.messages_members += d.messages_members;
    totals.messages_fictional += d.messages_fictional;
    for (const m of d.revenue) addMoney(totals.revenue, m.currency, m.count, m.amount_minor);
    for (const m of d.refunds) addMoney(totals.refunds, m.currency, m.count, m.amount_minor);
    for (const m of d.chargebacks) addMoney(totals.chargebacks, m.currency, m.count, m.amount_minor);
    activeDays += d.active_members;
    totals.active_members_peak = Math.max(totals.active_members_peak, d.active_members);
  }
  totals.active_members_average = days.length > 0 ? Math.round((activeDays / days.length) * 10) / 10 : 0;

  return {
    site_id: siteId,
    from,
    to,
    days,
    totals,
    funnel: { visits: totals.visits, signups: totals.signups, activations: totals.activations, first_purchases: totals.first_purchases },
    sources: sources.slice(0, REPORT_MAX_SOURCES),
    sources_left_off: Math.max(0, sources.length - REPORT_MAX_SOURCES),
    rollup: read.rollup,
  };
}

const CSV_COLUMNS = [
  'day',
  'visits',
  'signups',
  'activations',
  'first_purchases',
  'currency',
  'orders_paid',
  'revenue_minor',
  'refunds',
  'refunds_minor',
  'chargebacks',
  'chargebacks_minor',
  'messages_members',
  'messages_fictional',
  'active_members',
  'active_members_daily_average',
  'active_members_daily_peak',
] as const;

/**
 * The report as CSV: one row per day and currency (a day without money has one row with an empty currency); the
 * day's counts repeat on each of its currency rows. The totals row has the day `total`; its active members are
 * the distinct members of the period up to 31 days (`not counted over 31 days` beyond), and only it has the daily
 * average and peak.
 */
export function reportCsv(report: Report): string {
  const lines = [CSV_COLUMNS.join(',')];
  const rowsOf = (day: string, f: ReportFigures | ReportTotals) => {
    const currencies = [...new Set([...f.revenue, ...f.refunds, ...f.chargebacks].map((m) => m.currency))].sort();
    const money = (list: ReportMoney[], currency: string) => list.find((m) => m.currency === currency);
    const daily = 'active_members_average' in f ? [f.active_members_average, f.active_members_peak] : ['', ''];
    for (const currency of currencies.length > 0 ? currencies : ['']) {
      const paid = money(f.revenue, currency);
      const refund = money(f.refunds, currency);
      const chargeback = money(f.chargebacks, currency);
      lines.push(
        [
          day,
          f.visits,
          f.signups,
          f.activations,
          f.first_purchases,
          currency,
          paid?.count ?? 0,
          paid?.amount_minor ?? 0,
          refund?.count ?? 0,
          refund?.amount_minor ?? 0,
          chargeback?.count ?? 0,
          chargeback?.amount_minor ?? 0,
          f.messages_members,
          f.messages_fictional,
          f.active_members ?? `not counted over ${REPORT_DISTINCT_ACTIVE_MAX_DAYS} days`,
          ...daily,
        ].join(','),
      );
    }
  };
  for (const d of report.days) rowsOf(d.day, d);
  rowsOf('total', report.totals);
  return `${lines.join('\r\n')}\r\n`;
}

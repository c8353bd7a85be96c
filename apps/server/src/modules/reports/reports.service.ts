import { REPORT_DEFAULT_DAYS, type Report, type ReportFigures, type ReportMoney, type ReportQuery } from '@amora/contracts';
import type { AppContext } from '../../context';
import { notFound } from '../../lib/errors';
import { withTransaction } from '../../lib/transaction';
import * as rows from './reports.repository';

/**
 * Business reports (docs/decisions.md, "Business reports"): per site and day (UTC), every figure counted from the
 * table that records it; nothing is kept twice. Visits are not recorded by the product, so they stay null.
 */

const DAY_MS = 86_400_000;
const NOT_RECORDED = ['visits', 'per_lander'];

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
  visits: null,
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

export async function businessReport(ctx: AppContext, query: ReportQuery): Promise<Report> {
  const siteId = query.site ?? null;
  if (siteId !== null && !(await ctx.sites.get(siteId))) throw notFound('No such site');
  const { from, to } = periodOf(ctx.now(), query);
  const period: rows.Period = { from: dayStart(from), until: new Date(dayStart(to).getTime() + DAY_MS), siteId };
  // One read: every figure from the same moment. Its settings hold for this read only (reports.repository).
  const [signups, activations, firstPurchases, revenue, refunds, chargebacks, messages, active] = await withTransaction(ctx, async (tx) => {
    await rows.tuneForReport(tx);
    return [
      await rows.signupsPerDay(tx, period),
      await rows.activationsPerDay(tx, period),
      await rows.firstPurchasesPerDay(tx, period),
      await rows.revenuePerDay(tx, period),
      await rows.refundsPerDay(tx, period),
      await rows.chargebacksPerDay(tx, period),
      await rows.messagesPerDay(tx, period),
      await rows.activeMembersPerDay(tx, period),
    ] as const;
  });

  const byDay = new Map<string, ReportFigures & { day: string }>();
  for (let t = period.from.getTime(); t < period.until.getTime(); t += DAY_MS) {
    const day = dayString(new Date(t));
    byDay.set(day, { day, ...emptyFigures() });
  }
  const totals = emptyFigures();
  const at = (day: string) => byDay.get(day) ?? byDay.set(day, { day, ...emptyFigures() }).get(day)!;
  for (const r of signups) at(r.day).signups = r.count;
  for (const r of activations) at(r.day).activations = r.count;
  for (const r of firstPurchases) at(r.day).first_purchases = r.count;
  for (const r of revenue) addMoney(at(r.day).revenue, r.currency, r.count, r.amountMinor);
  for (const r of refunds) addMoney(at(r.day).refunds, r.currency, r.count, r.amountMinor);
  for (const r of chargebacks) addMoney(at(r.day).chargebacks, r.currency, r.count, r.amountMinor);
  for (const r of messages) {
    at(r.day).messages_members = r.members;
    at(r.day).messages_fictional = r.fictional;
  }
  for (const r of active.days) at(r.day).active_members = r.count;

  const days = [...byDay.values()].sort((a, b) => a.day.localeCompare(b.day));
  for (const d of days) {
    totals.signups += d.signups;
    totals.activations += d.activations;
    totals.first_purchases += d.first_purchases;
    totals.messages_members += d.messages_members;
    totals.messages_fictional += d.messages_fictional;
    for (const m of d.revenue) addMoney(totals.revenue, m.currency, m.count, m.amount_minor);
    for (const m of d.refunds) addMoney(totals.refunds, m.currency, m.count, m.amount_minor);
    for (const m of d.chargebacks) addMoney(totals.chargebacks, m.currency, m.count, m.amount_minor);
  }
  totals.active_members = active.total;

  return {
    site_id: siteId,
    from,
    to,
    days,
    totals,
    funnel: { visits: null, signups: totals.signups, activations: totals.activations, first_purchases: totals.first_purchases },
    not_recorded: NOT_RECORDED,
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
] as const;

/**
 * The report as CSV: one row per day and currency (a day without money has one row with an empty currency); the
 * day's counts repeat on each of its currency rows. The totals row has the day `total`. Visits: "not recorded".
 */
export function reportCsv(report: Report): string {
  const lines = [CSV_COLUMNS.join(',')];
  const rowsOf = (day: string, f: ReportFigures) => {
    const currencies = [...new Set([...f.revenue, ...f.refunds, ...f.chargebacks].map((m) => m.currency))].sort();
    const money = (list: ReportMoney[], currency: string) => list.find((m) => m.currency === currency);
    for (const currency of currencies.length > 0 ? currencies : ['']) {
      const paid = money(f.revenue, currency);
      const refund = money(f.refunds, currency);
      const chargeback = money(f.chargebacks, currency);
      lines.push(
        [
          day,
          'not recorded',
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
          f.active_members,
        ].join(','),
      );
    }
  };
  for (const d of report.days) rowsOf(d.day, d);
  rowsOf('total', report.totals);
  return `${lines.join('\r\n')}\r\n`;
}

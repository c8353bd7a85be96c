import { z } from 'zod';
import { idSchema } from './fields';

/**
 * Business reports in the operator console (admins only): per site and day (UTC), figures counted from the stored
 * data alone (docs/decisions.md, "Business reports" defines each one).
 */

/** The longest period one report covers, in days (both ends included). */
export const REPORT_MAX_DAYS = 400;
/** The period when none is given: the last 30 days, today included. */
export const REPORT_DEFAULT_DAYS = 30;
/**
 * The longest period whose active members are counted once each over the whole period (distinct, read live);
 * a longer one gives the daily average and peak instead (docs/decisions.md, "Business reports").
 */
export const REPORT_DISTINCT_ACTIVE_MAX_DAYS = 31;
/** The most sources (lander, slug and network) one report lists, those with the most visits, then signups, first. */
export const REPORT_MAX_SOURCES = 100;

const daySchema = () =>
  z
    .string()
    .regex(/^\d{4}-\d{2}-\d{2}$/, 'A day as YYYY-MM-DD')
    .refine((day) => !Number.isNaN(Date.parse(`${day}T00:00:00Z`)) && new Date(`${day}T00:00:00Z`).toISOString().startsWith(day), {
      message: 'Not a day of the calendar',
    });

export const reportQuerySchema = z
  .object({
    /** One site; absent: every site together. */
    site: z.coerce.number().pipe(idSchema()).optional(),
    from: daySchema().optional(),
    to: daySchema().optional(),
  })
  .refine((q) => !q.from || !q.to || q.from <= q.to, { message: 'from is after to', path: ['from'] })
  .refine((q) => !q.from || !q.to || (Date.parse(q.to) - Date.parse(q.from)) / 86_400_000 + 1 <= REPORT_MAX_DAYS, {
    message: `At most ${REPORT_MAX_DAYS} days`,
    path: ['to'],
  });
export type ReportQuery = z.infer<typeof reportQuerySchema>;

/** Money per currency: amounts of different currencies are never added together. */
const moneySchema = z.object({ currency: z.string(), count: z.number().int(), amount_minor: z.number().int() });
export type ReportMoney = z.infer<typeof moneySchema>;

const figuresSchema = z.object({
  /** Visitors without a member session who loaded a page of the site, each browser once per UTC day. */
  visits: z.number().int(),
  signups: z.number().int(),
  activations: z.number().int(),
  first_purchases: z.number().int(),
  revenue: z.array(moneySchema),
  refunds: z.array(moneySchema),
  chargebacks: z.array(moneySchema),
  messages_members: z.number().int(),
  messages_fictional: z.number().int(),
  /** Members who sent a message or liked someone that day. */
  active_members: z.number().int(),
});
export type ReportFigures = z.infer<typeof figuresSchema>;

const totalsSchema = figuresSchema.extend({
  /**
   * Members who sent a message or liked someone in the period, each once: for periods up to
   * REPORT_DISTINCT_ACTIVE_MAX_DAYS days; null for a longer one (see the daily average and peak).
   */
  active_members: z.number().int().nullable(),
  /** The days' active members on average (one decimal) and on the busiest day. */
  active_members_average: z.number(),
  active_members_peak: z.number().int(),
});
export type ReportTotals = z.infer<typeof totalsSchema>;

/**
 * The acquisition funnel of the period per lander, slug and traffic network ('' where there is none): visits to
 * it, and signups, activations and first purchases of the members who signed up through it (each counted on its
 * own day, as in the days' figures).
 */
const sourceSchema = z.object({
  lander: z.string(),
  slug: z.string(),
  network: z.string(),
  visits: z.number().int(),
  signups: z.number().int(),
  activations: z.number().int(),
  first_purchases: z.number().int(),
});
export type ReportSource = z.infer<typeof sourceSchema>;

export const reportSchema = z.object({
  site_id: z.number().int().nullable(),
  from: z.string(),
  to: z.string(),
  days: z.array(figuresSchema.extend({ day: z.string() })),
  totals: totalsSchema,
  funnel: z.object({
    visits: z.number().int(),
    signups: z.number().int(),
    activations: z.number().int(),
    first_purchases: z.number().int(),
  }),
  /** The funnel per lander, slug and network, the most visits, then signups, first (at most REPORT_MAX_SOURCES). */
  sources: z.array(sourceSchema),
  /** How many more sources the period had than the list shows (their figures are in the totals). */
  sources_left_off: z.number().int(),
  /**
   * The days of the period read from the nightly rollup (`from` to `to`, both included) and when it was rebuilt
   * from the stored data; every other day is counted live. Null when no day came from it.
   */
  rollup: z.object({ from: z.string(), to: z.string(), rebuilt_at: z.string() }).nullable(),
});
export type Report = z.infer<typeof reportSchema>;

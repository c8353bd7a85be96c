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
  /** Not recorded: the product stores no visits (only bounces per landing path); always null for now. */
  visits: z.null(),
  signups: z.number().int(),
  activations: z.number().int(),
  first_purchases: z.number().int(),
  revenue: z.array(moneySchema),
  refunds: z.array(moneySchema),
  chargebacks: z.array(moneySchema),
  messages_members: z.number().int(),
  messages_fictional: z.number().int(),
  /** Members who sent a message or liked someone that day; over the period: distinct members. */
  active_members: z.number().int(),
});
export type ReportFigures = z.infer<typeof figuresSchema>;

export const reportSchema = z.object({
  site_id: z.number().int().nullable(),
  from: z.string(),
  to: z.string(),
  days: z.array(figuresSchema.extend({ day: z.string() })),
  totals: figuresSchema,
  funnel: z.object({
    visits: z.null(),
    signups: z.number().int(),
    activations: z.number().int(),
    first_purchases: z.number().int(),
  }),
  /** Figures the product does not record yet, by name. */
  not_recorded: z.array(z.string()),
});
export type Report = z.infer<typeof reportSchema>;

import { z } from 'zod';
import { idSchema, multilineTextSchema, textSchema } from './fields';
import { LOCALES } from './locales';

/**
 * News and promotions written by staff in the operator console (admins write and send; support may read): one
 * mailing per site and kind, a subject and text per locale the site offers (its default locale always), sent in
 * batches to the members of the site who opted in to that kind by email (docs/decisions.md, "News and
 * promotions").
 */

/** The notification types a mailing is (contracts' NOTIFICATION_TYPES): members opt in to each by email. */
export const MAILING_KINDS = ['news', 'promotions'] as const;
export type MailingKind = (typeof MAILING_KINDS)[number];

/**
 * Where a mailing stands: `draft` (being written; the only state it may change in), `scheduled` (goes out from
 * `send_at`), `sending`, `sent` (every member it goes to has their mail queued), `cancelled` (the rest not sent).
 */
const MAILING_STATUSES = ['draft', 'scheduled', 'sending', 'sent', 'cancelled'] as const;

export const MAILING_SUBJECT_MAX = 150;
export const MAILING_BODY_MAX = 10_000;

/** Catalogue keys (console namespace) of what the service refuses beyond a field's own shape. */
export const MAILING_ERRORS = {
  siteUnknown: 'console.mailings.errors.siteUnknown',
  defaultLocale: 'console.mailings.errors.defaultLocale',
  localeNotOffered: 'console.mailings.errors.localeNotOffered',
  notWritten: 'console.mailings.errors.notWritten',
  notDraft: 'console.mailings.errors.notDraft',
  notCancellable: 'console.mailings.errors.notCancellable',
  sendAtPast: 'console.mailings.errors.sendAtPast',
} as const;

const subjectSchema = () => textSchema().trim().min(1).max(MAILING_SUBJECT_MAX);
const bodySchema = () => multilineTextSchema().trim().min(1).max(MAILING_BODY_MAX);

/** A subject and its text (plain text: paragraphs by a blank line) in one locale. */
const mailingTextSchema = z.strictObject({ subject: subjectSchema(), body: bodySchema() });

/** A mailing as its author writes it; the service checks the locales against the site's (MAILING_ERRORS). */
export const mailingInputSchema = z.strictObject({
  site_id: idSchema(),
  kind: z.enum(MAILING_KINDS),
  texts: z.partialRecord(z.enum(LOCALES), mailingTextSchema),
});
export type MailingInput = z.infer<typeof mailingInputSchema>;

export const mailingParamsSchema = z.object({ id: z.coerce.number().pipe(idSchema()) });

export const mailingListQuerySchema = z.object({
  page: z.coerce.number().int().min(1).max(10_000).default(1),
  site: z.coerce.number().pipe(idSchema()).optional(),
});

/**
 * How far the sending got: members it went to (`recipients`), of whom the mail waits to leave (`queued`), left
 * (`sent`), failed so far (`failed`: retried, five attempts in all) or was not sent (`not_sent`: the mailing was
 * cancelled first, or the member's mail stopped).
 */
const mailingProgressSchema = z.object({
  recipients: z.number(),
  queued: z.number(),
  sent: z.number(),
  failed: z.number(),
  not_sent: z.number(),
});
export type MailingProgress = z.infer<typeof mailingProgressSchema>;

const mailingSummarySchema = z.object({
  id: z.number(),
  site_id: z.number(),
  site_name: z.string(),
  kind: z.enum(MAILING_KINDS),
  status: z.enum(MAILING_STATUSES),
  /** The subject in the site's default locale. */
  subject: z.string(),
  send_at: z.string().nullable(),
  created_at: z.string(),
  created_by: z.object({ id: z.number(), name: z.string() }).nullable(),
  progress: mailingProgressSchema,
});
export type MailingSummary = z.infer<typeof mailingSummarySchema>;

export const mailingListSchema = z.object({
  mailings: z.array(mailingSummarySchema),
  page: z.number(),
  pages: z.number(),
  total: z.number(),
});

export const mailingSchema = mailingSummarySchema.extend({
  texts: z.partialRecord(z.enum(LOCALES), z.object({ subject: z.string(), body: z.string() })),
  /** The site's default locale (always written) and every locale it offers. */
  default_locale: z.enum(LOCALES),
  locales: z.array(z.enum(LOCALES)),
  updated_at: z.string(),
  started_at: z.string().nullable(),
  finished_at: z.string().nullable(),
  cancelled_at: z.string().nullable(),
  /** Members of the site who would get it if it went now (opted in by email, address confirmed, mail not stopped). */
  opted_in: z.number(),
});
export type Mailing = z.infer<typeof mailingSchema>;

/** The mail one locale's text makes, before it is saved: the site's real mail template around it. */
export const mailingPreviewInputSchema = z.strictObject({
  site_id: idSchema(),
  kind: z.enum(MAILING_KINDS),
  locale: z.enum(LOCALES),
  subject: subjectSchema(),
  body: bodySchema(),
});
export const mailingPreviewSchema = z.object({ subject: z.string(), html: z.string(), text: z.string() });

/** A test of one locale's mail to the staff member's own address. */
export const mailingTestInputSchema = z.strictObject({ locale: z.enum(LOCALES) });
export const mailingTestSchema = z.object({ to: z.string() });

/** Send it now (`send_at` null) or from a moment on. */
export const mailingSendInputSchema = z.strictObject({ send_at: z.iso.datetime({ offset: true }).nullable() });

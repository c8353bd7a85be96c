/**
 * Running the sites: complaints, page bounces and visits, the business reports' daily rollup, rate limits, the mail
 * and SMS outboxes, and durable jobs.
 */
import { sql } from 'drizzle-orm';
import { bigint, check, date, index, integer, jsonb, pgTable, primaryKey, text, timestamp, uniqueIndex } from 'drizzle-orm/pg-core';
import { users } from './accounts';
import { createdAt } from './columns';
import { sites } from './sites';

export const complaints = pgTable(
  'complaints',
  {
    id: bigint('id', { mode: 'number' }).primaryKey().generatedByDefaultAsIdentity(),
    reference: text('reference').notNull(),
    siteId: integer('site_id')
      .notNull()
      .references(() => sites.id),
    userId: bigint('user_id', { mode: 'number' }).references(() => users.id, { onDelete: 'set null' }),
    name: text('name').notNull(),
    email: text('email').notNull(),
    category: text('category').notNull(),
    subject: text('subject').notNull(),
    message: text('message').notNull(),
    url: text('url').notNull().default(''),
    language: text('language').notNull(),
    status: text('status').notNull().default('open'),
    /** What it is: a complaint of the complaints page, or a member's report of a message or a profile. */
    kind: text('kind').$type<'complaint' | 'message_report' | 'profile_report'>().notNull().default('complaint'),
    /** A report's object: the profile reported, and for a message its conversation and the message. */
    reportedProfileId: bigint('reported_profile_id', { mode: 'number' }),
    conversationId: bigint('conversation_id', { mode: 'number' }),
    messageId: bigint('message_id', { mode: 'number' }),
    /** How moderation handled it (dismissed, message_removed, warned, suspended, banned, …), by whom and when. */
    resolution: text('resolution'),
    handledBy: bigint('handled_by', { mode: 'number' }),
    handledAt: timestamp('handled_at', { withTimezone: true }),
    /** When the reporter saw that it was handled. */
    reporterNotifiedAt: timestamp('reporter_notified_at', { withTimezone: true }),
    createdAt: createdAt(),
  },
  (t) => [
    uniqueIndex('complaints_reference_idx').on(t.reference),
    index('complaints_site_idx').on(t.siteId, t.createdAt),
    index('complaints_queue_idx').on(t.status, t.createdAt),
    check('complaints_kind_check', sql`${t.kind} in ('complaint', 'message_report', 'profile_report')`),
  ],
);

/** Page bounces (spec §9 `lb`): counted per site, landing path and day; nothing that identifies a visitor. */
export const pageBounces = pgTable(
  'page_bounces',
  {
    siteId: integer('site_id')
      .notNull()
      .references(() => sites.id),
    day: date('day', { mode: 'string' }).notNull(),
    path: text('path').notNull(),
    bounces: integer('bounces').notNull().default(0),
    totalVisibleMs: bigint('total_visible_ms', { mode: 'number' }).notNull().default(0),
  },
  (t) => [uniqueIndex('page_bounces_key_idx').on(t.siteId, t.day, t.path)],
);

/**
 * Visits (docs/decisions.md, "Business reports"): a visitor without a member session whose browser loaded a page of
 * the site, once per browser and UTC day (the `amora_visit` cookie), counted per site, day, lander, slug and traffic
 * network (`''` when there is none); nothing that identifies a visitor.
 */
export const siteVisits = pgTable(
  'site_visits',
  {
    day: date('day', { mode: 'string' }).notNull(),
    siteId: integer('site_id')
      .notNull()
      .references(() => sites.id),
    lander: text('lander').notNull().default(''),
    slug: text('slug').notNull().default(''),
    network: text('network').notNull().default(''),
    visits: integer('visits').notNull().default(0),
  },
  (t) => [primaryKey({ name: 'site_visits_pkey', columns: [t.day, t.siteId, t.lander, t.slug, t.network] })],
);

/**
 * The business reports' rollup of closed UTC days, per site: derived from the tables that record each figure by the
 * `reports.rollup` job (the last 400 days rebuilt in one transaction), never written by the app's write paths. The
 * report reads the days before `report_rollup.computed_through` from here and the rest live.
 */
export const reportDays = pgTable(
  'report_days',
  {
    siteId: integer('site_id')
      .notNull()
      .references(() => sites.id),
    day: date('day', { mode: 'string' }).notNull(),
    signups: integer('signups').notNull().default(0),
    activations: integer('activations').notNull().default(0),
    firstPurchases: integer('first_purchases').notNull().default(0),
    messagesMembers: integer('messages_members').notNull().default(0),
    messagesFictional: integer('messages_fictional').notNull().default(0),
    activeMembers: integer('active_members').notNull().default(0),
  },
  (t) => [primaryKey({ name: 'report_days_pkey', columns: [t.day, t.siteId] })],
);

/**
 * The rollup's acquisition funnel per site, closed day and source (lander, slug and traffic network the member
 * signed up through, '' where there was none): signups, activations and first purchases, each on its own day.
 */
export const reportDaySources = pgTable(
  'report_day_sources',
  {
    siteId: integer('site_id')
      .notNull()
      .references(() => sites.id),
    day: date('day', { mode: 'string' }).notNull(),
    lander: text('lander').notNull(),
    slug: text('slug').notNull(),
    network: text('network').notNull(),
    signups: integer('signups').notNull().default(0),
    activations: integer('activations').notNull().default(0),
    firstPurchases: integer('first_purchases').notNull().default(0),
  },
  (t) => [primaryKey({ name: 'report_day_sources_pkey', columns: [t.day, t.siteId, t.lander, t.slug, t.network] })],
);

/** The rollup's money per site, closed day, kind (revenue, refund, chargeback) and currency. */
export const reportDayMoney = pgTable(
  'report_day_money',
  {
    siteId: integer('site_id')
      .notNull()
      .references(() => sites.id),
    day: date('day', { mode: 'string' }).notNull(),
    kind: text('kind').$type<'revenue' | 'refund' | 'chargeback'>().notNull(),
    currency: text('currency').notNull(),
    count: integer('count').notNull(),
    amountMinor: bigint('amount_minor', { mode: 'number' }).notNull(),
  },
  (t) => [
    primaryKey({ name: 'report_day_money_pkey', columns: [t.day, t.siteId, t.kind, t.currency] }),
    check('report_day_money_kind_check', sql`${t.kind} in ('revenue', 'refund', 'chargeback')`),
  ],
);

/** The rollup's one row: the days it holds, `computed_from` up to `computed_through` (not included), and when. */
export const reportRollup = pgTable(
  'report_rollup',
  {
    id: integer('id').primaryKey().default(1),
    computedFrom: date('computed_from', { mode: 'string' }).notNull(),
    computedThrough: date('computed_through', { mode: 'string' }).notNull(),
    rebuiltAt: timestamp('rebuilt_at', { withTimezone: true }).notNull(),
    /** How long the last rebuild took. */
    durationMs: integer('duration_ms').notNull(),
  },
  (t) => [check('report_rollup_one_row', sql`${t.id} = 1`)],
);

/** Fixed-window counters for limits that must hold across server processes (when Redis is not configured). */
export const rateLimits = pgTable('rate_limits', {
  key: text('key').primaryKey(),
  count: integer('count').notNull(),
  resetAt: timestamp('reset_at', { withTimezone: true }).notNull(),
});

/** Every email, sent or waiting: the mail log, the retry queue, and the dev mailbox when no SMTP is set. */
export const outboxEmails = pgTable(
  'outbox_emails',
  {
    id: bigint('id', { mode: 'number' }).primaryKey().generatedByDefaultAsIdentity(),
    siteId: integer('site_id').references(() => sites.id),
    userId: bigint('user_id', { mode: 'number' }).references(() => users.id, { onDelete: 'set null' }),
    kind: text('kind').notNull(),
    toAddress: text('to_address').notNull(),
    fromAddress: text('from_address').notNull(),
    subject: text('subject').notNull(),
    html: text('html').notNull(),
    text: text('text').notNull(),
    status: text('status').notNull().default('pending'),
    attempts: integer('attempts').notNull().default(0),
    lastError: text('last_error'),
    sentAt: timestamp('sent_at', { withTimezone: true }),
    /** A mail that is not essential: the one-click unsubscribe URL of its List-Unsubscribe header (RFC 8058). */
    listUnsubscribe: text('list_unsubscribe'),
    createdAt: createdAt(),
  },
  (t) => [index('outbox_emails_status_idx').on(t.status, t.createdAt), index('outbox_emails_to_idx').on(t.toAddress)],
);

/** Every SMS, sent or waiting: the SMS log, the retry queue and the dev SMS page when no SMS provider is set. */
export const outboxSms = pgTable(
  'outbox_sms',
  {
    id: bigint('id', { mode: 'number' }).primaryKey().generatedByDefaultAsIdentity(),
    siteId: integer('site_id').references(() => sites.id),
    userId: bigint('user_id', { mode: 'number' }).references(() => users.id, { onDelete: 'set null' }),
    kind: text('kind').notNull(),
    toNumber: text('to_number').notNull(),
    text: text('text').notNull(),
    status: text('status').notNull().default('pending'),
    attempts: integer('attempts').notNull().default(0),
    lastError: text('last_error'),
    sentAt: timestamp('sent_at', { withTimezone: true }),
    createdAt: createdAt(),
  },
  (t) => [index('outbox_sms_to_idx').on(t.toNumber, t.createdAt)],
);

/**
 * Durable background work (apps/server/src/lib/jobs.ts), written in the same transaction as the change that causes
 * it. 'queued' waits for `run_at`; 'running' is leased to one worker until `locked_until` (a worker that dies
 * leaves it to be taken again after that); 'dead' is out of attempts and kept for an operator. A job that
 * succeeds is deleted. `locked_by` is the claim's own token, so only the worker holding the lease can finish it.
 */
export const jobs = pgTable(
  'jobs',
  {
    id: bigint('id', { mode: 'number' }).primaryKey().generatedByDefaultAsIdentity(),
    name: text('name').notNull(),
    payload: jsonb('payload').$type<unknown>().notNull().default({}),
    status: text('status').notNull().default('queued'),
    attempts: integer('attempts').notNull().default(0),
    maxAttempts: integer('max_attempts').notNull().default(5),
    runAt: timestamp('run_at', { withTimezone: true }).notNull().defaultNow(),
    lockedUntil: timestamp('locked_until', { withTimezone: true }),
    lockedBy: text('locked_by'),
    lastError: text('last_error'),
    /** At most one pending (queued or running) job holds a key: enqueueing with a key a pending job holds does nothing. */
    dedupeKey: text('dedupe_key'),
    createdAt: createdAt(),
  },
  (t) => [
    index('jobs_due_idx').on(t.status, t.runAt),
    uniqueIndex('jobs_dedupe_idx').on(t.dedupeKey).where(sql`${t.status} in ('queued', 'running')`),
    check('jobs_status_check', sql`${t.status} in ('queued', 'running', 'dead')`),
  ],
);

/** Recurring jobs: one row each; whichever worker moves `next_run_at` on first enqueues that period's job. */
export const jobSchedules = pgTable('job_schedules', {
  name: text('name').primaryKey(),
  nextRunAt: timestamp('next_run_at', { withTimezone: true }).notNull(),
  lastRunAt: timestamp('last_run_at', { withTimezone: true }),
});

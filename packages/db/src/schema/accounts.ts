/**
 * Accounts: members' logins, their sessions and the one-time links sent by email.
 */
import type { User } from '@amora/contracts';
import { sql } from 'drizzle-orm';
import { bigint, boolean, check, date, index, integer, jsonb, pgTable, text, timestamp, uniqueIndex } from 'drizzle-orm/pg-core';
import { createdAt } from './columns';
import { sites } from './sites';

export const users = pgTable(
  'users',
  {
    id: bigint('id', { mode: 'number' }).primaryKey().generatedByDefaultAsIdentity(),
    siteId: integer('site_id')
      .notNull()
      .references(() => sites.id),
    email: text('email').notNull(),
    passwordHash: text('password_hash').notNull(),
    status: text('status').$type<User['status']>().notNull().default('not_confirmed'),
    language: text('language').notNull().default('en'),
    dateOfBirth: date('date_of_birth', { mode: 'string' }).notNull(),
    credits: integer('credits').notNull().default(0),
    paidUser: boolean('paid_user').notNull().default(false),
    trafficsource: text('trafficsource'),
    tracking: jsonb('tracking').$type<Record<string, string>>().notNull().default({}),
    notificationsDisabled: jsonb('notifications_disabled').$type<string[]>().notNull().default([]),
    /** Whether the member's reading raises read receipts (and they see the partner's); a setting of its own. */
    readReceipts: boolean('read_receipts').notNull().default(true),
    signupDate: timestamp('signup_date', { withTimezone: true }).notNull().defaultNow(),
    confirmedAt: timestamp('confirmed_at', { withTimezone: true }),
    deletedAt: timestamp('deleted_at', { withTimezone: true }),
    deletionReason: text('deletion_reason'),
    deletionReasonText: text('deletion_reason_text'),
    /** Set by a chargeback: the member can no longer pay by direct debit (spec §8). */
    directDebitBlocked: boolean('direct_debit_blocked').notNull().default(false),
    /** Credits a chargeback took back that the balance could not cover; a later purchase pays them first. */
    creditDebt: integer('credit_debt').notNull().default(0),
    createdAt: createdAt(),
  },
  (t) => [
    uniqueIndex('users_site_email_idx').on(t.siteId, sql`lower(${t.email})`),
    check('users_credits_check', sql`${t.credits} >= 0`),
    check('users_credit_debt_check', sql`${t.creditDebt} >= 0`),
    check('users_status_check', sql`${t.status} in ('not_confirmed', 'confirmed', 'deleted')`),
    index('users_deleted_idx').on(t.deletedAt),
    // Business reports (modules/reports): signups and activations per day and site.
    index('users_signup_date_idx').on(t.signupDate, t.siteId),
    index('users_confirmed_at_idx').on(t.confirmedAt, t.siteId).where(sql`${t.confirmedAt} is not null`),
  ],
);

export const sessions = pgTable(
  'sessions',
  {
    id: bigint('id', { mode: 'number' }).primaryKey().generatedByDefaultAsIdentity(),
    userId: bigint('user_id', { mode: 'number' })
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    tokenHash: text('token_hash').notNull(),
    userAgent: text('user_agent').notNull().default(''),
    createdAt: createdAt(),
    lastSeenAt: timestamp('last_seen_at', { withTimezone: true }).notNull().defaultNow(),
    expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
  },
  (t) => [uniqueIndex('sessions_token_idx').on(t.tokenHash), index('sessions_user_idx').on(t.userId)],
);

/** One-time links sent by email. Only a hash of the token is stored; `usedAt` makes them single-use. */
export const accountTokens = pgTable(
  'account_tokens',
  {
    id: bigint('id', { mode: 'number' }).primaryKey().generatedByDefaultAsIdentity(),
    userId: bigint('user_id', { mode: 'number' })
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    kind: text('kind').notNull(),
    tokenHash: text('token_hash').notNull(),
    payload: jsonb('payload').$type<Record<string, string>>().notNull().default({}),
    expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
    usedAt: timestamp('used_at', { withTimezone: true }),
    createdAt: createdAt(),
  },
  (t) => [
    uniqueIndex('account_tokens_hash_idx').on(t.tokenHash),
    index('account_tokens_user_idx').on(t.userId, t.kind),
    check('account_tokens_kind_check', sql`${t.kind} in ('activation', 'reset', 'mail_change', 'reactivation')`),
  ],
);

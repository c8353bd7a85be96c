/**
 * Money: the credit ledger, credit packages and payment methods, orders and their provider events, discount
 * codes and their redemptions, direct-debit mandates and the SMS codes that confirm them.
 */
import type { PaymentMethodName, PaymentOrderStatus } from '@amora/contracts';
import { sql } from 'drizzle-orm';
import {
  bigint,
  boolean,
  check,
  index,
  integer,
  jsonb,
  pgTable,
  primaryKey,
  smallint,
  text,
  timestamp,
  uniqueIndex,
} from 'drizzle-orm/pg-core';
import { users } from './accounts';
import { createdAt } from './columns';
import { sites } from './sites';

/** Every change of a member's credits; written in the same transaction as the balance. Kept after a purge. */
export const creditLedger = pgTable(
  'credit_ledger',
  {
    id: bigint('id', { mode: 'number' }).primaryKey().generatedByDefaultAsIdentity(),
    userId: bigint('user_id', { mode: 'number' }).references(() => users.id, { onDelete: 'set null' }),
    siteId: integer('site_id')
      .notNull()
      .references(() => sites.id),
    delta: integer('delta').notNull(),
    balanceAfter: integer('balance_after').notNull(),
    reason: text('reason').notNull(),
    idempotencyKey: text('idempotency_key'),
    createdAt: createdAt(),
  },
  (t) => [uniqueIndex('credit_ledger_idempotency_idx').on(t.idempotencyKey), index('credit_ledger_user_idx').on(t.userId, t.createdAt)],
);

/** Credit packages per site and payment country (issue 17): prices are integers in minor units of `currency`. */
export const creditPackages = pgTable(
  'credit_packages',
  {
    id: integer('id').primaryKey().generatedByDefaultAsIdentity(),
    siteId: integer('site_id')
      .notNull()
      .references(() => sites.id),
    /** The payment country (ISO 3166-1 alpha-2) this package is sold in. */
    country: text('country').notNull(),
    currency: text('currency').notNull(),
    credits: integer('credits').notNull(),
    priceMinor: integer('price_minor').notNull(),
    bestValue: boolean('best_value').notNull().default(false),
    position: smallint('position').notNull().default(0),
    active: boolean('active').notNull().default(true),
    createdAt: createdAt(),
  },
  (t) => [
    index('credit_packages_site_country_idx').on(t.siteId, t.country, t.position),
    check('credit_packages_credits_check', sql`${t.credits} > 0`),
    check('credit_packages_price_check', sql`${t.priceMinor} > 0`),
  ],
);

/**
 * The payment methods a site offers in a payment country (our names, spec §9's list), in order, with the
 * transaction fee each adds to the price (minor units of the country's currency). What the provider really offers
 * for an amount filters this list when it is shown.
 */
export const paymentMethods = pgTable(
  'payment_methods',
  {
    siteId: integer('site_id')
      .notNull()
      .references(() => sites.id),
    country: text('country').notNull(),
    method: text('method').notNull(),
    feeMinor: integer('fee_minor').notNull().default(0),
    position: smallint('position').notNull().default(0),
  },
  (t) => [primaryKey({ columns: [t.siteId, t.country, t.method] }), check('payment_methods_fee_check', sql`${t.feeMinor} >= 0`)],
);

/** The provider's customer of a member (first and recurring payments, mandates). */
export const paymentCustomers = pgTable(
  'payment_customers',
  {
    userId: bigint('user_id', { mode: 'number' })
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    provider: text('provider').notNull(),
    customerId: text('customer_id').notNull(),
    createdAt: createdAt(),
  },
  (t) => [primaryKey({ columns: [t.userId, t.provider] })],
);

/**
 * A member's order of a credit package. Stored before the provider is called; `status` follows what the provider
 * says (webhooks carry only the payment id, so the payment is fetched). `creditedAt` is set in the transaction that
 * writes the purchase's ledger row (key `pay:{id}`), so credits go in once. Amounts in minor units of `currency`:
 * `amountMinor` = `listPriceMinor` - `discountMinor` + `feeMinor`.
 */
export const paymentOrders = pgTable(
  'payment_orders',
  {
    id: bigint('id', { mode: 'number' }).primaryKey().generatedByDefaultAsIdentity(),
    siteId: integer('site_id')
      .notNull()
      .references(() => sites.id),
    userId: bigint('user_id', { mode: 'number' }).references(() => users.id, { onDelete: 'set null' }),
    packageId: integer('package_id')
      .notNull()
      .references(() => creditPackages.id),
    country: text('country').notNull(),
    credits: integer('credits').notNull(),
    currency: text('currency').notNull(),
    listPriceMinor: integer('list_price_minor').notNull(),
    discountMinor: integer('discount_minor').notNull().default(0),
    feeMinor: integer('fee_minor').notNull().default(0),
    amountMinor: integer('amount_minor').notNull(),
    discountCodeId: bigint('discount_code_id', { mode: 'number' }).references(() => discountCodes.id, { onDelete: 'set null' }),
    /** Our method name (spec §9), e.g. 'visa', 'ideal', 'directdebit'. */
    method: text('method').$type<PaymentMethodName>().notNull(),
    /** 'sandbox' or 'mollie'. */
    provider: text('provider').notNull(),
    providerPaymentId: text('provider_payment_id'),
    /** 'oneoff', 'first' (sets up a mandate) or 'recurring' (paid with one, no checkout). */
    sequenceType: text('sequence_type').$type<'oneoff' | 'first' | 'recurring'>().notNull().default('oneoff'),
    mandateId: text('mandate_id'),
    /** created → open / pending → paid | failed | canceled | expired; paid → charged_back. */
    status: text('status').$type<PaymentOrderStatus>().notNull().default('created'),
    checkoutUrl: text('checkout_url'),
    /** The client's id for this attempt: a retried start answers the same order. */
    requestKey: text('request_key'),
    repeatOf: bigint('repeat_of', { mode: 'number' }),
    paidAt: timestamp('paid_at', { withTimezone: true }),
    creditedAt: timestamp('credited_at', { withTimezone: true }),
    chargedBackAt: timestamp('charged_back_at', { withTimezone: true }),
    createdAt: createdAt(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    uniqueIndex('payment_orders_provider_payment_idx').on(t.provider, t.providerPaymentId),
    uniqueIndex('payment_orders_request_idx').on(t.userId, t.requestKey),
    index('payment_orders_user_idx').on(t.userId, t.createdAt),
    // Business reports (modules/reports): revenue per day, each member's first paid order, chargebacks per day.
    index('payment_orders_paid_at_idx').on(t.paidAt, t.siteId).where(sql`${t.paidAt} is not null`),
    index('payment_orders_user_paid_idx').on(t.userId, t.paidAt).where(sql`${t.paidAt} is not null`),
    index('payment_orders_charged_back_idx').on(t.chargedBackAt).where(sql`${t.chargedBackAt} is not null`),
    check('payment_orders_amount_check', sql`${t.amountMinor} >= 0 and ${t.listPriceMinor} > 0 and ${t.credits} > 0`),
    check(
      'payment_orders_status_check',
      sql`${t.status} in ('created', 'open', 'pending', 'authorized', 'paid', 'failed', 'canceled', 'expired', 'charged_back')`,
    ),
    check('payment_orders_sequence_check', sql`${t.sequenceType} in ('oneoff', 'first', 'recurring')`),
  ],
);

/** Every (order, status) a webhook or a poll brought, once: the log that makes processing idempotent. */
export const paymentEvents = pgTable(
  'payment_events',
  {
    id: bigint('id', { mode: 'number' }).primaryKey().generatedByDefaultAsIdentity(),
    orderId: bigint('order_id', { mode: 'number' })
      .notNull()
      .references(() => paymentOrders.id, { onDelete: 'cascade' }),
    status: text('status').notNull(),
    detail: jsonb('detail').$type<Record<string, unknown>>().notNull().default({}),
    createdAt: createdAt(),
  },
  (t) => [
    uniqueIndex('payment_events_order_status_idx').on(t.orderId, t.status),
    // Business reports (modules/reports): refunds per day.
    index('payment_events_created_idx').on(t.createdAt),
  ],
);

/** Discount codes of spec §3 (the payments feature redeems them). */
export const discountCodes = pgTable(
  'discount_codes',
  {
    id: bigint('id', { mode: 'number' }).primaryKey().generatedByDefaultAsIdentity(),
    code: text('code').notNull(),
    siteId: integer('site_id')
      .notNull()
      .references(() => sites.id),
    userId: bigint('user_id', { mode: 'number' }).references(() => users.id, { onDelete: 'cascade' }),
    country: text('country'),
    valuePercentage: integer('value_percentage').notNull(),
    currency: text('currency'),
    minimumOrderValue: integer('minimum_order_value').notNull().default(0),
    status: text('status').notNull().default('active'),
    source: text('source').notNull(),
    /** The payment methods the code is valid for (spec §3 paymentmethods); empty: every method. */
    paymentMethods: jsonb('payment_methods').$type<string[]>().notNull().default([]),
    expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
    createdAt: createdAt(),
  },
  (t) => [
    uniqueIndex('discount_codes_code_idx').on(t.siteId, t.code),
    index('discount_codes_user_idx').on(t.userId),
    // 1–99 %: a code never makes a free order, which the payment provider would refuse (docs/decisions.md).
    check('discount_codes_value_percentage_check', sql`${t.valuePercentage} between 1 and 99`),
  ],
);

/**
 * A discount code taken by an order: 'reserved' while the order is open, 'used' once paid (a code is used once per
 * member), removed when the payment fails.
 */
export const discountRedemptions = pgTable(
  'discount_redemptions',
  {
    id: bigint('id', { mode: 'number' }).primaryKey().generatedByDefaultAsIdentity(),
    discountCodeId: bigint('discount_code_id', { mode: 'number' })
      .notNull()
      .references(() => discountCodes.id, { onDelete: 'cascade' }),
    userId: bigint('user_id', { mode: 'number' })
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    orderId: bigint('order_id', { mode: 'number' })
      .notNull()
      .references(() => paymentOrders.id, { onDelete: 'cascade' }),
    status: text('status').notNull().default('reserved'),
    createdAt: createdAt(),
  },
  (t) => [
    uniqueIndex('discount_redemptions_order_idx').on(t.orderId),
    uniqueIndex('discount_redemptions_used_idx').on(t.discountCodeId, t.userId).where(sql`${t.status} = 'used'`),
    check('discount_redemptions_status_check', sql`${t.status} in ('reserved', 'used')`),
  ],
);

/** A member's direct-debit mandate (spec §3 direct-debit form); the IBAN itself stays with the provider. */
export const directDebitMandates = pgTable(
  'direct_debit_mandates',
  {
    id: bigint('id', { mode: 'number' }).primaryKey().generatedByDefaultAsIdentity(),
    siteId: integer('site_id')
      .notNull()
      .references(() => sites.id),
    userId: bigint('user_id', { mode: 'number' })
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    accountHolder: text('account_holder').notNull(),
    /** The last four characters of the IBAN, to show which account it is. */
    ibanLast4: text('iban_last4').notNull(),
    street: text('street').notNull(),
    houseNumber: text('house_number').notNull(),
    zip: text('zip').notNull(),
    city: text('city').notNull(),
    /** E.164. */
    phone: text('phone').notNull(),
    provider: text('provider').notNull(),
    providerMandateId: text('provider_mandate_id').notNull(),
    status: text('status').notNull().default('valid'),
    createdAt: createdAt(),
  },
  (t) => [index('direct_debit_mandates_user_idx').on(t.userId)],
);

/** A code sent by SMS to confirm something (the direct-debit form); only its hash is kept. */
export const smsVerifications = pgTable(
  'sms_verifications',
  {
    id: bigint('id', { mode: 'number' }).primaryKey().generatedByDefaultAsIdentity(),
    userId: bigint('user_id', { mode: 'number' })
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    purpose: text('purpose').notNull(),
    phone: text('phone').notNull(),
    codeHash: text('code_hash').notNull(),
    /** What the code confirms, until it is used or expires (then removed). */
    payload: jsonb('payload').$type<Record<string, unknown>>().notNull().default({}),
    attempts: smallint('attempts').notNull().default(0),
    expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
    usedAt: timestamp('used_at', { withTimezone: true }),
    createdAt: createdAt(),
  },
  (t) => [index('sms_verifications_user_idx').on(t.userId, t.createdAt)],
);

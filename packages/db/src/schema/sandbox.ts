/**
 * The payment sandbox's own tables (modules/payments/sandbox): what a test-mode Mollie account would hold.
 */
import { integer, jsonb, pgTable, text, timestamp, uniqueIndex } from 'drizzle-orm/pg-core';
import { createdAt } from './columns';

/**
 * The sandbox provider's own state (it speaks Mollie's API at /sandbox/mollie/v2): payments, customers and
 * mandates, as a test-mode Mollie account would hold them. Ids look like Mollie's (tr_…, cst_…, mdt_…).
 */
export const sandboxPayments = pgTable(
  'sandbox_payments',
  {
    id: text('id').primaryKey(),
    amountMinor: integer('amount_minor').notNull(),
    currency: text('currency').notNull(),
    description: text('description').notNull(),
    method: text('method'),
    status: text('status').notNull().default('open'),
    sequenceType: text('sequence_type').notNull().default('oneoff'),
    redirectUrl: text('redirect_url'),
    cancelUrl: text('cancel_url'),
    webhookUrl: text('webhook_url'),
    locale: text('locale'),
    billingCountry: text('billing_country'),
    customerId: text('customer_id'),
    mandateId: text('mandate_id'),
    metadata: jsonb('metadata').$type<unknown>(),
    amountRefundedMinor: integer('amount_refunded_minor').notNull().default(0),
    amountChargedBackMinor: integer('amount_charged_back_minor').notNull().default(0),
    idempotencyKey: text('idempotency_key'),
    createdAt: createdAt(),
    paidAt: timestamp('paid_at', { withTimezone: true }),
    expiresAt: timestamp('expires_at', { withTimezone: true }),
  },
  (t) => [uniqueIndex('sandbox_payments_idempotency_idx').on(t.idempotencyKey)],
);

export const sandboxCustomers = pgTable('sandbox_customers', {
  id: text('id').primaryKey(),
  name: text('name'),
  email: text('email'),
  metadata: jsonb('metadata').$type<unknown>(),
  createdAt: createdAt(),
});

export const sandboxMandates = pgTable('sandbox_mandates', {
  id: text('id').primaryKey(),
  customerId: text('customer_id')
    .notNull()
    .references(() => sandboxCustomers.id, { onDelete: 'cascade' }),
  method: text('method').notNull(),
  status: text('status').notNull().default('valid'),
  consumerName: text('consumer_name'),
  consumerAccount: text('consumer_account'),
  createdAt: createdAt(),
});

import { type Executor, sandboxCustomers, sandboxMandates, sandboxPayments } from '@amora/db';
import { and, asc, desc, eq, inArray, sql } from 'drizzle-orm';

type PaymentRow = typeof sandboxPayments.$inferSelect;

/** What the payer's test checkout added (Mollie's `details`): the card or bank picked. */
export interface PaymentDetails {
  cardLabel?: string;
  cardNumber?: string;
  cardHolder?: string;
  issuer?: string;
  consumerName?: string;
  consumerAccount?: string;
}

/**
 * A sandbox payment as the sandbox reads it. The row's metadata column holds `{ value, details }`: the merchant's
 * metadata as it was sent, and the details the checkout added (the card brand or bank), so that both stay with
 * the payment without a column of their own.
 */
export interface SandboxPayment extends Omit<PaymentRow, 'metadata'> {
  metadata: unknown;
  details: PaymentDetails;
}

interface StoredMetadata {
  value?: unknown;
  details?: PaymentDetails;
}

function fromRow(row: PaymentRow): SandboxPayment {
  const stored = (row.metadata ?? {}) as StoredMetadata;
  return { ...row, metadata: stored.value ?? null, details: stored.details ?? {} };
}

export type NewSandboxPayment = Omit<typeof sandboxPayments.$inferInsert, 'metadata'> & { metadata: unknown };

/**
 * Stores a new payment; with an idempotency key another payment stored under the same key wins (on PostgreSQL
 * a concurrent insert of the same key waits for the first one's commit). The payment under the key either way,
 * and whether it is the one just made.
 */
export async function insertPayment(db: Executor, payment: NewSandboxPayment): Promise<{ payment: SandboxPayment; created: boolean }> {
  const values = { ...payment, metadata: { value: payment.metadata ?? null } };
  const [row] = await db.insert(sandboxPayments).values(values).onConflictDoNothing({ target: sandboxPayments.idempotencyKey }).returning();
  if (row) return { payment: fromRow(row), created: true };
  const existing = payment.idempotencyKey ? await findPaymentByKey(db, payment.idempotencyKey) : undefined;
  if (!existing) throw new Error('a sandbox payment was neither stored nor found under its idempotency key');
  return { payment: existing, created: false };
}

export async function findPaymentByKey(db: Executor, key: string): Promise<SandboxPayment | undefined> {
  const [row] = await db.select().from(sandboxPayments).where(eq(sandboxPayments.idempotencyKey, key));
  return row ? fromRow(row) : undefined;
}

export async function findPayment(db: Executor, id: string): Promise<SandboxPayment | undefined> {
  const [row] = await db.select().from(sandboxPayments).where(eq(sandboxPayments.id, id));
  return row ? fromRow(row) : undefined;
}

export async function listPayments(db: Executor, limit: number): Promise<SandboxPayment[]> {
  const rows = await db.select().from(sandboxPayments).orderBy(desc(sandboxPayments.createdAt), desc(sandboxPayments.id)).limit(limit);
  return rows.map(fromRow);
}

export async function listCustomerPayments(db: Executor, customerId: string, limit: number): Promise<SandboxPayment[]> {
  const rows = await db
    .select()
    .from(sandboxPayments)
    .where(eq(sandboxPayments.customerId, customerId))
    .orderBy(desc(sandboxPayments.createdAt), desc(sandboxPayments.id))
    .limit(limit);
  return rows.map(fromRow);
}

export interface StatusChange {
  status: string;
  method?: string | null;
  paidAt?: Date | null;
  mandateId?: string | null;
  details?: PaymentDetails;
}

/**
 * Moves a payment from one of `from` to a new status in one conditional statement, so two clicks or two
 * workers cannot both move it. The changed payment, or undefined when it was no longer in one of `from`.
 */
export async function changeStatus(
  db: Executor,
  id: string,
  from: readonly string[],
  change: StatusChange,
): Promise<SandboxPayment | undefined> {
  const [row] = await db
    .update(sandboxPayments)
    .set({
      status: change.status,
      ...(change.method === undefined ? {} : { method: change.method }),
      ...(change.paidAt === undefined ? {} : { paidAt: change.paidAt }),
      ...(change.mandateId === undefined ? {} : { mandateId: change.mandateId }),
      ...(change.details === undefined
        ? {}
        : {
            metadata: sql`jsonb_set(coalesce(${sandboxPayments.metadata}, '{}'::jsonb), '{details}', ${JSON.stringify(change.details)}::jsonb)`,
          }),
    })
    .where(and(eq(sandboxPayments.id, id), inArray(sandboxPayments.status, [...from])))
    .returning();
  return row ? fromRow(row) : undefined;
}

/** Charges back the whole amount of a paid payment once; undefined when it is not paid or already charged back. */
export async function chargeBack(db: Executor, id: string): Promise<SandboxPayment | undefined> {
  const [row] = await db
    .update(sandboxPayments)
    .set({ amountChargedBackMinor: sql`${sandboxPayments.amountMinor}` })
    .where(and(eq(sandboxPayments.id, id), eq(sandboxPayments.status, 'paid'), eq(sandboxPayments.amountChargedBackMinor, 0)))
    .returning();
  return row ? fromRow(row) : undefined;
}

/** A refund as the sandbox made it (it keeps only the payment's refunded total, not each refund). */
export interface SandboxRefund {
  id: string;
  payment: SandboxPayment;
  amountMinor: number;
  description: string;
  createdAt: Date;
}

/**
 * Refunds `minor` of a paid payment in one step: only while the refunded and charged-back amounts leave that much;
 * undefined otherwise.
 */
export async function refund(db: Executor, id: string, minor: number): Promise<SandboxPayment | undefined> {
  const [row] = await db
    .update(sandboxPayments)
    .set({ amountRefundedMinor: sql`${sandboxPayments.amountRefundedMinor} + ${minor}` })
    .where(
      and(
        eq(sandboxPayments.id, id),
        eq(sandboxPayments.status, 'paid'),
        sql`${sandboxPayments.amountRefundedMinor} + ${sandboxPayments.amountChargedBackMinor} + ${minor} <= ${sandboxPayments.amountMinor}`,
      ),
    )
    .returning();
  return row ? fromRow(row) : undefined;
}

export type SandboxCustomer = typeof sandboxCustomers.$inferSelect;
export type SandboxMandate = typeof sandboxMandates.$inferSelect;

export async function insertCustomer(db: Executor, customer: typeof sandboxCustomers.$inferInsert): Promise<SandboxCustomer> {
  const [row] = await db.insert(sandboxCustomers).values(customer).returning();
  return row as SandboxCustomer;
}

export async function findCustomer(db: Executor, id: string): Promise<SandboxCustomer | undefined> {
  const [row] = await db.select().from(sandboxCustomers).where(eq(sandboxCustomers.id, id));
  return row;
}

export async function insertMandate(db: Executor, mandate: typeof sandboxMandates.$inferInsert): Promise<SandboxMandate> {
  const [row] = await db.insert(sandboxMandates).values(mandate).returning();
  return row as SandboxMandate;
}

export async function findMandates(db: Executor, customerId: string): Promise<SandboxMandate[]> {
  return db
    .select()
    .from(sandboxMandates)
    .where(eq(sandboxMandates.customerId, customerId))
    .orderBy(asc(sandboxMandates.createdAt), asc(sandboxMandates.id));
}

export async function findMandate(db: Executor, customerId: string, id: string): Promise<SandboxMandate | undefined> {
  const [row] = await db
    .select()
    .from(sandboxMandates)
    .where(and(eq(sandboxMandates.customerId, customerId), eq(sandboxMandates.id, id)));
  return row;
}

import { randomBytes } from 'node:crypto';
import type { FastifyInstance } from 'fastify';
import type { AppJobs } from '../../../job-specs';
import type { JobInput } from '../../../lib/jobs';
import { dbOf } from '../../../lib/transaction';
import type { SandboxPayment } from './sandbox.repository';
import { deliverWebhook, type WebhookResult } from './sandbox.webhooks';

/**
 * What the sandbox's parts share: Mollie's error shape, the timings and ids of its payments, and the jobs that
 * deliver its webhooks, settle, charge back and expire its payments later.
 */

/** A refusal in Mollie's terms: the API answers it as Mollie's error body with this status. */
export class SandboxError extends Error {
  constructor(
    readonly status: number,
    readonly detail: string,
    readonly field?: string,
  ) {
    super(detail);
  }
}

/** An open payment expires after 15 minutes (a bank transfer after 12 days), as at Mollie. */
export const OPEN_PAYMENT_MS = 15 * 60_000;
export const BANK_TRANSFER_MS = 12 * 24 * 3_600_000;
/** A recurring SEPA direct debit is pending until the bank settles it: here 30 s later, or at once from the dashboard. */
export const DIRECT_DEBIT_SETTLE_MS = 30_000;

export const WEBHOOK_JOB = 'sandbox.webhook';
export const SETTLE_JOB = 'sandbox.settle';
const CHARGEBACK_JOB = 'sandbox.chargeback';
export const EXPIRE_JOB = 'sandbox.expire';

const BASE62 = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789';

/** An id like Mollie's: prefix and ten letters or digits (tr_WDqYK6vllg). */
export function sandboxId(prefix: 'tr' | 'cst' | 'mdt' | 're'): string {
  const bytes = randomBytes(10);
  let id = '';
  for (const byte of bytes) id += BASE62[byte % 62];
  return `${prefix}_${id}`;
}

export type CheckoutChoice = 'paid' | 'failed' | 'canceled' | 'expired' | 'pending';
export const CHECKOUT_CHOICES: readonly CheckoutChoice[] = ['paid', 'failed', 'canceled', 'expired', 'pending'];

/** Ids of the sandbox's objects (tr_…, cst_…, mdt_…); anything else names nothing. */
export function isSandboxId(prefix: 'tr' | 'cst' | 'mdt', id: unknown): id is string {
  return typeof id === 'string' && new RegExp(`^${prefix}_[A-Za-z0-9]{1,64}$`).test(id);
}

type SandboxJob = typeof WEBHOOK_JOB | typeof SETTLE_JOB | typeof CHARGEBACK_JOB | typeof EXPIRE_JOB;

export async function enqueue<K extends SandboxJob>(
  app: FastifyInstance,
  name: K,
  payload: JobInput<AppJobs, K>,
  delayMs = 0,
): Promise<void> {
  await app.ctx.jobs.enqueue(dbOf(app.ctx), name, payload, { runAt: new Date(app.ctx.now().getTime() + delayMs) });
  app.ctx.jobs.wake();
}

/**
 * Calls the payment's webhook `copies` times at once (duplicates, as a provider may send them) and waits for
 * the answers; copies that fail are left to the retrying webhook job. No webhook URL: nothing to call.
 */
export async function notifyNow(app: FastifyInstance, payment: SandboxPayment, copies = 1): Promise<WebhookResult[]> {
  const url = payment.webhookUrl;
  if (!url) return [];
  const results = await Promise.all(Array.from({ length: copies }, () => deliverWebhook(app, url, payment.id)));
  for (const result of results) {
    if (!result.ok) await enqueue(app, WEBHOOK_JOB, { paymentId: payment.id }, 30_000);
  }
  return results;
}

/** Calls the webhook later, `copies` times, through the durable webhook job (after the redirect, a late chargeback…). */
export async function notifyLater(app: FastifyInstance, paymentId: string, delayMs: number, copies = 1): Promise<void> {
  for (let i = 0; i < copies; i++) await enqueue(app, WEBHOOK_JOB, { paymentId }, delayMs);
}

export async function scheduleChargeback(app: FastifyInstance, paymentId: string, delayMs: number): Promise<void> {
  await enqueue(app, CHARGEBACK_JOB, { paymentId }, delayMs);
}

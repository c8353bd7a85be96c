import { idSchema, NOTIFICATION_TYPES } from '@amora/contracts';
import { z } from 'zod';
import { defineJobs } from './lib/jobs';

const paymentId = z.string().regex(/^tr_\w+$/);
const nothing = z.object({});

/**
 * Every durable job of the app (lib/jobs.ts): its name `<module>.<verb>`, its payload's schema (ids, not data: the
 * handler reads what it needs; checked when the job is enqueued and again when it runs) and its options. The
 * handlers are registered in jobs.ts, which must have one for each name here (a type error otherwise).
 * `ctx.jobs.enqueue(tx, name, payload)` takes only these names, each with its payload.
 */
export const JOBS = defineJobs({
  /** Sends one stored mail (modules/mail); 5 attempts, then the outbox row stays 'failed'. */
  'mail.send': { payload: z.object({ outboxId: idSchema() }), maxAttempts: 5 },
  /** Sends one stored SMS (modules/sms), not after `validUntil`. */
  'sms.send': { payload: z.object({ outboxId: idSchema(), validUntil: z.iso.datetime().optional() }), maxAttempts: 5 },
  /** Asks the provider about an order still waiting (modules/payments), round by round (CHECK_AFTER_MS). */
  'payments.check': { payload: z.object({ orderId: idSchema(), round: z.number().int().min(0).max(100) }) },
  /** Hourly: abandoned direct-debit forms and the codes in clear of their SMS go (modules/directdebit). */
  'directdebit.forget': { payload: nothing, everyMs: 3_600_000 },
  /** Every minute: the bounce mailbox's Maildir (MAIL_REPORTS_DIR) is read for bounces and spam reports (modules/mail). */
  'mail.read-reports': { payload: nothing, everyMs: 60_000 },
  /** Hourly: accounts deleted more than 14 days ago are purged (modules/deletion). */
  'accounts.purge': { payload: nothing, everyMs: 3_600_000 },
  /**
   * A member's activity mail (modules/notifications): the messages, likes and matches that came while they were
   * away, in one mail; one pending per member (dedupe key), so what comes while it waits joins it.
   */
  'notifications.mail': { payload: z.object({ userId: idSchema() }), maxAttempts: 5 },
  /** Hourly: members who left messages unread for a day while away are reminded, at most every 3 days (modules/notifications). */
  'notifications.remind': { payload: nothing, everyMs: 3_600_000 },
  /** Hourly: an address not confirmed a day after signup gets a new activation link, twice at most (modules/reminders). */
  'reminders.confirm-address': { payload: nothing, everyMs: 3_600_000 },
  /** Hourly: a member without a photo two days after signup is told what the profile lacks, twice at most (modules/reminders). */
  'reminders.complete-profile': { payload: nothing, everyMs: 3_600_000 },
  /** Hourly: members whose last weekly update is a week old get the next one, when there is something to tell (modules/reminders). */
  'reminders.weekly-update': { payload: nothing, everyMs: 3_600_000 },
  /** Hourly: members whose suspension ran out show again to others (modules/moderation). */
  'moderation.end-suspensions': { payload: nothing, everyMs: 3_600_000 },
  /**
   * One batch of a mailing staff sent from the console (modules/campaigns): its members after the cursor, each
   * mailed once; the next round is enqueued with it (one pending per round, by its dedupe key).
   */
  'campaigns.send': { payload: z.object({ mailingId: idSchema(), round: z.number().int().min(0).max(1_000_000) }), maxAttempts: 10 },
  /** A push for one message, like or match, or a reminder of unread ones (modules/push), sent when the member wants it and is away. */
  'push.notify': {
    payload: z.object({
      userId: idSchema(),
      type: z.enum(NOTIFICATION_TYPES),
      event: z.enum(['message', 'like', 'match']),
      fromProfileId: idSchema(),
      conversationId: idSchema().optional(),
    }),
    maxAttempts: 5,
  },
  /** Daily: push subscriptions no app start has sent again for 60 days are dropped (modules/push). */
  'push.prune': { payload: nothing, everyMs: 86_400_000 },
  /** A member's copy of their data (modules/data-export): the ZIP, then the mail with its link. */
  'data-export.prepare': { payload: z.object({ exportId: idSchema() }), maxAttempts: 5, leaseMs: 15 * 60_000 },
  /** Daily: the files of data exports whose link ran out are removed (modules/data-export). */
  'data-export.expire': { payload: nothing, everyMs: 86_400_000 },
  /**
   * Hourly: once the UTC day has changed (or at the first start), the business reports' rollup of the last 400
   * closed days is rebuilt from the stored data, in one transaction (modules/reports).
   */
  'reports.rollup': { payload: nothing, everyMs: 3_600_000, leaseMs: 30 * 60_000 },
  /** The payment sandbox (modules/payments/sandbox), only where it is mounted: calls a payment's webhook. */
  'sandbox.webhook': { payload: z.object({ paymentId }), maxAttempts: 10 },
  /** The sandbox settles a direct-debit payment (paid, or failed). */
  'sandbox.settle': { payload: z.object({ paymentId, status: z.enum(['paid', 'failed']).optional() }) },
  /** The sandbox charges a payment back. */
  'sandbox.chargeback': { payload: z.object({ paymentId }) },
  /** The sandbox expires a checkout nobody finished. */
  'sandbox.expire': { payload: z.object({ paymentId }) },
});

export type AppJobs = typeof JOBS;
export type AppJobName = keyof AppJobs & string;

import type { Database } from '@amora/db';
import { translate } from '@amora/i18n';
import type { AppContext } from '../../context';
import type { AppJobs } from '../../job-specs';
import type { Jobs } from '../../lib/jobs';
import { afterCommit, type DbContext, dbOf, withTransaction } from '../../lib/transaction';
import { createSmsAdapter, type SmsAdapter } from './sms.adapter';
import { deleteSmsOf, findSms, forgetSmsTexts, insertSms, markSmsFailed, markSmsSent } from './sms.repository';

/** What an SMS is for; its text is `sms.<kind>` in the payments catalogue. */
export type SmsKind = 'directdebitCode';

interface SmsRequest {
  kind: SmsKind;
  siteId: number | null;
  userId: number | null;
  /** E.164. */
  to: string;
  text: string;
  /** Not sent after this (a code that has expired by then would only confuse). */
  validUntil?: Date;
}

export interface SmsSender {
  /** 'dev' (kept for the dev SMS page) or the provider's name. */
  readonly provider: string;
  /**
   * Stores the SMS with its sending job, in the caller's unit of work when there is one (the SMS exists only if
   * the change it tells of is committed); the first attempt is made here after the commit and not waited for.
   * Answers the outbox id.
   */
  queue(request: SmsRequest): Promise<number>;
  /** Resolves once first attempts under way have finished (tests; shutdown). */
  idle(): Promise<void>;
  close(): Promise<void>;
  /**
   * The `sms.send` job (jobs.ts): one attempt at the stored SMS; an SMS past `validUntil` is dropped. Safe to run
   * again; throws when the provider failed, so the job is retried.
   */
  deliver(job: { outboxId: number; validUntil?: string }): Promise<void>;
}

interface Logger {
  warn(obj: unknown, msg?: string): void;
}

/** The job that sends one stored SMS; its payload is `{ outboxId, validUntil? }` (job-specs.ts: 5 attempts, 30 s, 1, 2, 4 minutes apart). */
export const SEND_SMS_JOB = 'sms.send';

/** An SMS text in the member's language (payments.json, section sms; fallback it → en as everywhere). */
export function smsText(kind: SmsKind, locale: string, vars: Record<string, string | number>): string {
  return translate(locale, `sms.${kind}`, vars, 'payments');
}

/**
 * SMS like the mails (modules/mail): every SMS is an outbox_sms row first, written with an `sms.send` job in the
 * same transaction, so none is lost when the provider is down or the process stops; the job retries with
 * backoff and the row says pending, sent, failed or dropped (too late to send). Without a provider (SMS_PROVIDER
 * dev, the default) the row has status 'dev', no job, and the dev SMS page shows it.
 */
export function createSmsSender(options: {
  db: Database;
  jobs: Pick<Jobs<AppJobs>, 'enqueue' | 'runNow'>;
  adapter: SmsAdapter | null;
  now?: () => Date;
  log?: Logger;
}): SmsSender {
  const { db, jobs, adapter, log } = options;
  const now = options.now ?? (() => new Date());
  const inFlight = new Set<Promise<unknown>>();
  let closed = false;

  return {
    provider: adapter?.name ?? 'dev',

    async queue(request) {
      return withTransaction({ db }, async (tx) => {
        const outboxId = await insertSms(tx, {
          siteId: request.siteId,
          userId: request.userId,
          kind: request.kind,
          toNumber: request.to,
          text: request.text,
          status: adapter ? 'pending' : 'dev',
        });
        if (adapter) {
          const jobId = await jobs.enqueue(tx, SEND_SMS_JOB, {
            outboxId,
            ...(request.validUntil ? { validUntil: request.validUntil.toISOString() } : {}),
          });
          afterCommit(() => {
            if (closed) return;
            const attempt = jobs.runNow(jobId).catch((error: unknown) => log?.warn({ err: error }, 'SMS attempt failed'));
            inFlight.add(attempt);
            void attempt.finally(() => inFlight.delete(attempt));
          });
        }
        return outboxId;
      });
    },

    async idle() {
      while (inFlight.size > 0) await Promise.allSettled([...inFlight]);
    },

    async close() {
      closed = true;
      while (inFlight.size > 0) await Promise.allSettled([...inFlight]);
    },

    async deliver(job) {
      const sms = await findSms(db, job.outboxId);
      if (!sms || sms.status === 'sent' || sms.status === 'dev' || sms.status === 'dropped') return;
      if (job.validUntil && new Date(job.validUntil).getTime() <= now().getTime()) {
        await markSmsFailed(db, sms.id, 'not sent: its content had expired', true);
        return;
      }
      if (!adapter) throw new Error('SMS_PROVIDER is not set in this process');
      try {
        await adapter.send({ to: sms.toNumber, text: sms.text, reference: String(sms.id) });
      } catch (error) {
        log?.warn({ err: error, outboxSmsId: sms.id }, 'SMS not sent; it will be retried');
        await markSmsFailed(db, sms.id, (error as Error).message ?? String(error));
        throw error;
      }
      await markSmsSent(db, sms.id);
    },
  };
}

const senders = new WeakMap<AppContext, SmsSender>();

/**
 * The app's SMS sender, made on first use from the config (SMS_PROVIDER …) and kept for the context; the
 * `sms.send` job (jobs.ts) sends with it.
 */
export function smsOf(ctx: AppContext, log?: Logger, adapter?: SmsAdapter | null): SmsSender {
  let sender = senders.get(ctx);
  if (!sender) {
    sender = createSmsSender({ ...ctx, adapter: adapter === undefined ? createSmsAdapter(ctx.config.sms) : adapter, log });
    senders.set(ctx, sender);
  }
  return sender;
}

/** The account purge: every SMS sent to the member (numbers and texts go with the account). */
export async function purgeMember(ctx: DbContext, member: { userId: number }): Promise<void> {
  await deleteSmsOf(dbOf(ctx), member.userId);
}

/** The texts of SMS of `kind` written before `before` are emptied (codes in clear are kept no longer than needed). */
export async function forgetTexts(ctx: DbContext, kind: SmsKind, before: Date): Promise<number> {
  return forgetSmsTexts(dbOf(ctx), kind, before);
}

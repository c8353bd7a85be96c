import type { Database } from '@amora/db';
import type { NodemailerError, Transporter } from 'nodemailer';
import type { MailConfig } from '../../config';
import type { AppJobs } from '../../job-specs';
import type { Jobs } from '../../lib/jobs';
import type { Metrics } from '../../lib/metrics';
import { afterCommit, type DbContext, dbOf, withTransaction } from '../../lib/transaction';
import type { Site } from '../sites/sites.service';
import {
  deleteOutboxOf,
  findMailToSend,
  findNotificationsDisabled,
  insertOutbox,
  markFailed,
  markSent,
  markSuppressed,
  markWithdrawn,
} from './mail.repository';
import { type MailExtras, type MailKind, type RenderedEmail, renderEmail } from './templates';
import { verpAddress, verpSecret } from './verp';

export type { ActivityMailKind, MailKind } from './templates';
export { mailLocale } from './templates';

export interface MailRequest {
  kind: MailKind;
  site: Site;
  locale: string;
  to: string;
  userId: number | null;
  vars: Record<string, string | number>;
  /** A list under the body; the unsubscribe links of a mail that is not essential. */
  extras?: MailExtras;
}

export interface Mailer {
  /**
   * Renders the mail and stores it with its sending job in one transaction, then makes the first attempt in this
   * process and waits for it (inside a caller's unit of work the attempt follows its commit, and `send` returns
   * without it). Never throws because SMTP failed: the job is retried with backoff, by any process.
   */
  send(request: MailRequest): Promise<void>;
  /**
   * Like `send`, but returns once the mail is stored (its outbox id): a member's request never waits on SMTP.
   * `{ firstAttemptNow: false }`, for mails queued by the hundred (a mailing's batch): no attempt here after the
   * commit, the worker sends them at its own pace.
   */
  queue(request: MailRequest, options?: { firstAttemptNow?: boolean }): Promise<number>;
  /**
   * Runs work that makes mails after the current request has been answered (so the answer cannot depend on
   * it, in content or in time); a failure is logged. `close()` waits for it.
   */
  later(work: () => Promise<void>): void;
  /** Resolves once the work handed to `later` and the first attempts under way have finished. */
  idle(): Promise<void>;
  close(): Promise<void>;
  /**
   * The `mail.send` job (jobs.ts): one attempt at the stored mail. Safe to run again: a mail already sent is not
   * sent twice. Throws when SMTP failed, so the job is retried.
   */
  deliver(outboxId: number): Promise<void>;
}

interface Logger {
  warn(obj: unknown, msg?: string): void;
}

/**
 * The mails a member gets even while their mail is stopped (notifications_disabled: a bounce, a spam report, an
 * unsubscribe): the ones about their account itself. A mail of any other kind is kept as 'suppressed', never sent.
 */
const ESSENTIAL_MAIL_KINDS: ReadonlySet<string> = new Set([
  'activation',
  'reset',
  'mail_change',
  'mail_change_notice',
  'deleted',
  'reactivated',
  'password_changed',
  // The link to the copy of their data the member asked for: an answer to their own request.
  'data_export',
]);

/** Whether a mail of this kind goes out even to a member whose notifications_disabled is not empty. */
export function isEssentialMail(kind: string): boolean {
  return ESSENTIAL_MAIL_KINDS.has(kind);
}

/** The job that sends one stored mail (job-specs.ts: 5 attempts, then the outbox row stays 'failed'). */
export const SEND_MAIL_JOB = 'mail.send';

/** A sender's display name in a From header: quoted, with quotes and backslashes escaped (RFC 5322). */
function fromAddressOf(site: Pick<Site, 'name' | 'domain'>): string {
  return `"${site.name.replace(/["\\]/g, '\\$&')}" <no-reply@${site.domain}>`;
}

function describe(error: unknown): string {
  const e = error as NodemailerError;
  const text = [e?.code, e?.message ?? String(error)].filter(Boolean).join(': ');
  return text.slice(0, 500);
}

/**
 * Email: through SMTP when SMTP_URL is set, else kept in the outbox with status 'dev' for the dev mailbox.
 * Every mail is an outbox row first, written with a `mail.send` job in the same transaction, so nothing is lost
 * when SMTP is down or the process stops: the job is retried with backoff (lib/jobs.ts) by whichever process
 * runs jobs, and the row says 'pending', 'sent' or 'failed'.
 */
export function createMailer(options: {
  smtpUrl: string | null;
  db: Database;
  jobs: Pick<Jobs<AppJobs>, 'enqueue' | 'runNow'>;
  log?: Logger;
  /** Log a warning when there is no SMTP_URL (default yes); off where the start lines already say so. */
  warnWithoutSmtp?: boolean;
  /** The return paths' domain and DKIM signing (config.mail); none: each site's own domain, unsigned. */
  mail?: Pick<MailConfig, 'bounceDomain' | 'dkim'> | null;
  /** Counts the mails SMTP took and those it refused (lib/metrics.ts). */
  metrics?: Pick<Metrics, 'mail'>;
}): Mailer {
  const { db, jobs, log, metrics } = options;
  const bounceDomain = options.mail?.bounceDomain ?? null;
  const dkim = options.mail?.dkim ?? null;
  const { smtpUrl } = options;
  // nodemailer is loaded with the first mail to send (~5 MB that a process without mail to send never needs).
  let transport: Promise<Transporter> | null = null;
  const transportFor = (url: string) => {
    transport ??= import('nodemailer').then(({ createTransport }) =>
      createTransport({ url, connectionTimeout: 10_000, greetingTimeout: 10_000, socketTimeout: 30_000 }),
    );
    return transport;
  };
  if (!smtpUrl && options.warnWithoutSmtp !== false)
    log?.warn({}, 'SMTP_URL is not set: emails are kept in the outbox (dev mailbox) and not delivered');

  let closed = false;
  const inFlight = new Set<Promise<unknown>>();

  const track = <T>(work: Promise<T>): Promise<T> => {
    inFlight.add(work);
    return work.finally(() => inFlight.delete(work));
  };

  /**
   * Renders and stores the mail with its job, in the caller's unit of work when there is one (the mail exists
   * only if the change it tells of is committed), and makes the first attempt here once that has committed.
   * Answers the attempt to wait for (none inside a unit of work: its commit comes later).
   */
  async function store(request: MailRequest, firstAttemptNow = true): Promise<{ first: Promise<unknown>; outboxId: number }> {
    const { subject, html, text } = renderEmail(request.kind, request.locale, request.site, request.vars, request.extras);
    // A member whose mail stopped gets only the essential mails: any other is kept as 'suppressed', with no job.
    const suppressed =
      request.userId !== null &&
      !isEssentialMail(request.kind) &&
      (await findNotificationsDisabled(dbOf({ db }), request.userId)).length > 0;
    const row = {
      siteId: request.site.id,
      userId: request.userId,
      kind: request.kind,
      toAddress: request.to,
      fromAddress: fromAddressOf(request.site),
      subject,
      html,
      text,
      status: suppressed ? 'suppressed' : smtpUrl ? 'pending' : 'dev',
      listUnsubscribe: request.extras?.unsubscribe?.oneClick ?? null,
    };
    const { outboxId, jobId } = await withTransaction({ db }, async (tx) => {
      const id = await insertOutbox(tx, row);
      return { outboxId: id, jobId: smtpUrl && !suppressed ? await jobs.enqueue(tx, SEND_MAIL_JOB, { outboxId: id }) : null };
    });
    const attempt = { first: Promise.resolve() as Promise<unknown>, outboxId };
    if (jobId !== null && firstAttemptNow) {
      afterCommit(() => {
        // After close() the job waits for a worker: this process's next start, or another process.
        if (!closed) attempt.first = track(jobs.runNow(jobId));
      });
    }
    return attempt;
  }

  return {
    async send(request) {
      await (await store(request)).first;
    },

    async queue(request, options) {
      return (await store(request, options?.firstAttemptNow ?? true)).outboxId;
    },

    later(work) {
      if (closed) return;
      void track(
        new Promise<void>((resolve) => setImmediate(resolve))
          .then(work)
          .catch((error: unknown) => log?.warn({ err: error }, 'work after an answer failed')),
      );
    },

    async idle() {
      while (inFlight.size > 0) await Promise.allSettled([...inFlight]);
    },

    async close() {
      closed = true;
      while (inFlight.size > 0) await Promise.allSettled([...inFlight]);
      if (transport) (await transport.catch(() => null))?.close();
    },

    async deliver(outboxId) {
      const mail = await findMailToSend(db, outboxId);
      if (!mail || mail.status === 'sent' || mail.status === 'dev' || mail.status === 'suppressed' || mail.status === 'withdrawn') return;
      // The member's mail stopped after this one was stored (a bounce, a spam report, an unsubscribe).
      if (!isEssentialMail(mail.kind) && mail.notificationsDisabled.length > 0) return markSuppressed(db, mail.id);
      if (!smtpUrl) throw new Error('SMTP_URL is not set in this process');
      const domain = mail.siteDomain ?? mail.fromAddress.replace(/^.*@|>$/g, '');
      try {
        await (await transportFor(smtpUrl)).sendMail({
          from: mail.fromAddress,
          to: mail.toAddress,
          // The return path names this mail (VERP), so a bounce or a spam report about it finds its member.
          envelope: { from: verpAddress(await verpSecret({ db }), mail.id, bounceDomain ?? domain), to: mail.toAddress },
          ...(dkim ? { dkim: { domainName: domain, keySelector: dkim.selector, privateKey: dkim.privateKey } } : {}),
          ...(mail.replyTo ? { replyTo: mail.replyTo } : {}),
          subject: mail.subject,
          text: mail.text,
          html: mail.html,
          headers: {
            'Auto-Submitted': 'auto-generated',
            // RFC 8058 one-click unsubscribe: the mail client POSTs `List-Unsubscribe=One-Click` to the URL.
            ...(mail.listUnsubscribe
              ? { 'List-Unsubscribe': `<${mail.listUnsubscribe}>`, 'List-Unsubscribe-Post': 'List-Unsubscribe=One-Click' }
              : {}),
          },
        });
      } catch (error) {
        metrics?.mail('failed');
        log?.warn({ err: error, outboxId: mail.id }, 'email not sent; it will be retried');
        await markFailed(db, mail.id, describe(error));
        throw error;
      }
      metrics?.mail('sent');
      await markSent(db, mail.id);
    },
  };
}

/**
 * The mails given that have not left yet are not sent (a cancelled mailing's): kept as 'withdrawn', which their
 * jobs skip. Answers how many.
 */
export function withdrawMails(ctx: DbContext, outboxIds: readonly number[]): Promise<number> {
  return markWithdrawn(dbOf(ctx), outboxIds);
}

/** A mail as it would go out, rendered and not stored (a console preview of a mailing). */
export function renderMail(request: Pick<MailRequest, 'kind' | 'site' | 'locale' | 'vars' | 'extras'>): RenderedEmail {
  return renderEmail(request.kind, request.locale, request.site, request.vars, request.extras);
}

/** The account purge: every mail stored for the member (their address and the texts go with the account). */
export async function purgeMember(ctx: DbContext, member: { userId: number }): Promise<void> {
  await deleteOutboxOf(dbOf(ctx), member.userId);
}

import type { Database, Executor } from '@amora/db';
import { createTransport, type NodemailerError, type Transporter } from 'nodemailer';
import type { Site } from '../sites/sites.repository';
import { claimForAttempt, deleteOutboxOf, findRetryCandidates, insertOutbox, markFailed, markSent } from './mail.repository';
import { renderEmail } from './templates';

export type MailKind = 'activation' | 'reset' | 'mail_change' | 'mail_change_notice' | 'deleted' | 'reactivated' | 'password_changed';

export interface MailRequest {
  kind: MailKind;
  site: Site;
  locale: string;
  to: string;
  userId: number | null;
  vars: Record<string, string | number>;
}

export interface Mailer {
  /** Renders and stores the mail, and hands it to SMTP when there is one. Never throws because SMTP failed. */
  /** Writes the outbox row and waits for the SMTP attempt. */
  send(request: MailRequest): Promise<void>;
  /** Writes the outbox row and returns; the SMTP attempt runs after (a member's request never waits on SMTP). */
  queue(request: MailRequest): Promise<void>;
  /**
   * Runs work that makes mails after the current request has been answered (so the answer cannot depend on
   * it, in content or in time); a failure is logged. `close()` waits for it.
   */
  later(work: () => Promise<void>): void;
  /** Resolves once the work handed to `later` and the SMTP attempts under way have finished. */
  idle(): Promise<void>;
  /** Sends failed mails (and ones a stopped process left behind) again, oldest first; answers how many went out. */
  retryPending(): Promise<number>;
  close(): Promise<void>;
}

interface Logger {
  warn(obj: unknown, msg?: string): void;
}

/** Attempts per mail, counting the first. */
export const MAX_ATTEMPTS = 5;
/** Mails one retry run takes on. */
export const RETRY_BATCH = 50;

/** A sender's display name in a From header: quoted, with quotes and backslashes escaped (RFC 5322). */
export function fromAddressOf(site: Pick<Site, 'name' | 'domain'>): string {
  return `"${site.name.replace(/["\\]/g, '\\$&')}" <no-reply@${site.domain}>`;
}

interface Outgoing {
  id: number;
  from: string;
  to: string;
  replyTo: string | null;
  subject: string;
  html: string;
  text: string;
}

function describe(error: unknown): string {
  const e = error as NodemailerError;
  const text = [e?.code, e?.message ?? String(error)].filter(Boolean).join(': ');
  return text.slice(0, 500);
}

/** An error about the connection, not about this one mail: the next mails of a retry run would fail the same way. */
function isConnectionError(error: unknown): boolean {
  return typeof (error as NodemailerError)?.responseCode !== 'number';
}

/**
 * Email: through SMTP when SMTP_URL is set, else kept in the outbox with status 'dev' for the dev mailbox.
 * Every mail is an outbox row first, so nothing is lost when SMTP is down: the row stays 'failed' and a retry
 * (every minute, from bootstrap) sends it later.
 */
export function createMailer(options: { smtpUrl: string | null; db: Database; log?: Logger }): Mailer {
  const { db, log } = options;
  const transport: Transporter | null = options.smtpUrl
    ? createTransport({ url: options.smtpUrl, connectionTimeout: 10_000, greetingTimeout: 10_000, socketTimeout: 30_000 })
    : null;
  if (!transport) log?.warn({}, 'SMTP_URL is not set: emails are kept in the outbox (dev mailbox) and not delivered');

  let closed = false;
  let retrying: Promise<number> | null = null;
  const inFlight = new Set<Promise<unknown>>();

  const track = <T>(work: Promise<T>): Promise<T> => {
    inFlight.add(work);
    return work.finally(() => inFlight.delete(work));
  };

  /** One attempt; the row is already leased ('pending' with sent_at) to this process. */
  async function deliver(mail: Outgoing): Promise<'sent' | 'rejected' | 'unreachable'> {
    if (!transport) return 'unreachable';
    try {
      await transport.sendMail({
        from: mail.from,
        to: mail.to,
        ...(mail.replyTo ? { replyTo: mail.replyTo } : {}),
        subject: mail.subject,
        text: mail.text,
        html: mail.html,
        headers: { 'Auto-Submitted': 'auto-generated' },
      });
    } catch (error) {
      log?.warn({ err: error, outboxId: mail.id }, 'email not sent; it will be retried');
      await markFailed(db, mail.id, describe(error));
      return isConnectionError(error) ? 'unreachable' : 'rejected';
    }
    await markSent(db, mail.id);
    return 'sent';
  }

  async function runRetries(): Promise<number> {
    let sent = 0;
    const candidates = await findRetryCandidates(db, MAX_ATTEMPTS, RETRY_BATCH);
    for (const row of candidates) {
      if (closed) break;
      if (!(await claimForAttempt(db, row.id, MAX_ATTEMPTS))) continue;
      const outcome = await deliver({
        id: row.id,
        from: row.fromAddress,
        to: row.toAddress,
        replyTo: row.replyTo,
        subject: row.subject,
        html: row.html,
        text: row.text,
      });
      if (outcome === 'sent') sent++;
      // The server is down or unreachable: the rest of the batch would fail the same way.
      if (outcome === 'unreachable') break;
    }
    return sent;
  }

  /** Renders and stores the mail; returns the SMTP attempt to run (a no-op without SMTP). */
  async function enqueue(request: MailRequest): Promise<() => Promise<void>> {
    const { subject, html, text } = renderEmail(request.kind, request.locale, request.site, request.vars);
    const from = fromAddressOf(request.site);
    const id = await insertOutbox(
      db,
      {
        siteId: request.site.id,
        userId: request.userId,
        kind: request.kind,
        toAddress: request.to,
        fromAddress: from,
        subject,
        html,
        text,
        status: transport ? 'pending' : 'dev',
      },
      // A row being sent now is leased; after close() it waits for a retry by another process or the next start.
      Boolean(transport) && !closed,
    );
    if (!transport || closed) return async () => {};
    return async () => {
      try {
        await track(deliver({ id, from, to: request.to, replyTo: request.site.supportEmail, subject, html, text }));
      } catch (error) {
        // SMTP failures are recorded by deliver(); this is the outbox update failing. The row stays leased and a
        // retry takes it once the lease is stale.
        log?.warn({ err: error, outboxId: id }, 'email outbox row not updated');
      }
    };
  }

  return {
    async send(request) {
      await (await enqueue(request))();
    },

    async queue(request) {
      const attempt = await enqueue(request);
      void attempt();
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

    retryPending() {
      if (!transport || closed) return Promise.resolve(0);
      retrying ??= track(runRetries()).finally(() => {
        retrying = null;
      });
      return retrying;
    },

    async close() {
      closed = true;
      await Promise.allSettled([...inFlight]);
      transport?.close();
    },
  };
}

/** The account purge: every mail stored for the member (their address and the texts go with the account). */
export async function purgeMember(db: Executor, member: { userId: number }): Promise<void> {
  await deleteOutboxOf(db, member.userId);
}

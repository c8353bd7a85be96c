import { createServer } from 'node:net';
import { jobs as jobsTable, outboxEmails } from '@amora/db';
import { eq } from 'drizzle-orm';
import { type AddressObject, type ParsedMail, simpleParser } from 'mailparser';
import { SMTPServer } from 'smtp-server';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type AppJobs, JOBS } from '../../job-specs';
import { registerJobs } from '../../jobs';
import { createJobs, DEFAULT_LEASE_MS, type Jobs } from '../../lib/jobs';
import { claimJobs, findJobs } from '../../lib/jobs.repository';
import { withTransaction } from '../../lib/transaction';
import { createTestApp, type TestApp } from '../../test/harness';
import type { Site } from '../sites/sites.service';
import { insertOutbox } from './mail.repository';
import { createMailer, type Mailer, type MailRequest, SEND_MAIL_JOB } from './mail.service';

const MAX_ATTEMPTS = JOBS[SEND_MAIL_JOB].maxAttempts;

interface TestSmtp {
  port: number;
  received: ParsedMail[];
  close(): Promise<void>;
}

/** A real SMTP server on 127.0.0.1 that parses and keeps every mail it accepts. */
function startSmtp(port = 0): Promise<TestSmtp> {
  const received: ParsedMail[] = [];
  const server = new SMTPServer({
    authOptional: true,
    disabledCommands: ['STARTTLS'],
    logger: false,
    onData(stream, _session, callback) {
      simpleParser(stream).then(
        (mail) => {
          received.push(mail);
          callback();
        },
        (error) => callback(error),
      );
    },
  });
  return new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, '127.0.0.1', () => {
      resolve({
        port: (server.server.address() as { port: number }).port,
        received,
        close: () => new Promise<void>((done) => server.close(() => done())),
      });
    });
  });
}

/** A port nothing listens on (for now). */
function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const probe = createServer();
    probe.once('error', reject);
    probe.listen(0, '127.0.0.1', () => {
      const { port } = probe.address() as { port: number };
      probe.close(() => resolve(port));
    });
  });
}

const firstAddress = (field: AddressObject | AddressObject[] | undefined) => (Array.isArray(field) ? field[0] : field)?.value[0];

let t: TestApp;
let site: Site;
let smtp: TestSmtp;
const mailers: { mailer: Mailer; jobs: Jobs<AppJobs> }[] = [];
/** The clock of the mailers' job workers. */
let now = new Date();
const advance = (ms: number) => {
  now = new Date(now.getTime() + ms);
};

/** A mailer with a job worker of its own, as each server process has (the worker loop is not started). */
function serverProcess(smtpUrl: string | null): { mailer: Mailer; jobs: Jobs<AppJobs> } {
  const jobs = createJobs({ db: t.ctx.db, specs: JOBS, now: () => now });
  const created = { mailer: createMailer({ smtpUrl, db: t.ctx.db, jobs }), jobs };
  // Its worker sends with its mailer (the mail job alone, as the other jobs are not what this test is about).
  registerJobs(jobs, { ctx: { ...t.ctx, mailer: created.mailer, jobs }, log: { info() {}, warn() {} } }, [SEND_MAIL_JOB]);
  mailers.push(created);
  return created;
}

function mailer(smtpUrl: string | null): Mailer {
  return serverProcess(smtpUrl).mailer;
}

function activation(to: string, name = 'Jo'): MailRequest {
  return { kind: 'activation', site, locale: 'en', to, userId: null, vars: { name, link: `https://amora.localhost/activate/${to}` } };
}

async function rowsTo(to: string) {
  return t.ctx.db.select().from(outboxEmails).where(eq(outboxEmails.toAddress, to));
}

beforeAll(async () => {
  t = await createTestApp();
  site = (await t.ctx.sites.get(1)) as Site;
  smtp = await startSmtp();
});
afterAll(async () => {
  for (const m of mailers) {
    await m.mailer.close();
    await m.jobs.stop();
  }
  await smtp?.close();
  await t.close();
});

describe('mailer with SMTP', () => {
  it('sends a branded activation mail and marks the outbox row sent', async () => {
    const to = 'new.member@example.com';
    const link = 'https://amora.localhost/activate/abc123?x=1&y=2';
    await mailer(`smtp://127.0.0.1:${smtp.port}`).send({
      kind: 'activation',
      site,
      locale: 'en',
      to,
      userId: null,
      vars: { name: 'Jo <script>alert(1)</script>', link },
    });

    const mail = smtp.received.find((m) => firstAddress(m.to)?.address === to);
    expect(mail).toBeDefined();
    if (!mail) return;
    expect(firstAddress(mail.from)).toEqual({ name: 'Amora', address: 'no-reply@amora.localhost' });
    expect(firstAddress(mail.replyTo)?.address).toBe('support@amora.example');
    expect(mail.subject).toBe('Confirm your email address for Amora');
    expect(mail.text).toContain(link);
    expect(mail.text).toContain('Hello Jo <script>alert(1)</script>,');
    expect(mail.text).toContain('Amora Media B.V.');
    const html = String(mail.html);
    expect(html).toContain('href="https://amora.localhost/activate/abc123?x=1&#38;y=2"');
    expect(html).toContain('#c8213a');
    expect(html).toContain('Amora Media B.V., Herengracht 182, 1016 BR Amsterdam, Netherlands');
    expect(html).toContain('mailto:support@amora.example');
    expect(html).not.toContain('<script>');
    expect(html).toContain('Hello Jo &#60;script&#62;alert(1)&#60;/script&#62;,');

    const [row] = await rowsTo(to);
    expect(row).toMatchObject({ status: 'sent', kind: 'activation', siteId: 1, attempts: 0, lastError: null });
    expect(row.sentAt).toBeInstanceOf(Date);
    expect(row.fromAddress).toBe('"Amora" <no-reply@amora.localhost>');
  });

  it('keeps the mail as failed when SMTP is down, without throwing, and its job sends it later, waiting longer each time', async () => {
    const port = await freePort();
    const down = serverProcess(`smtp://127.0.0.1:${port}`);
    const to = 'patient.member@example.com';
    await expect(down.mailer.send(activation(to))).resolves.toBeUndefined();

    const [failed] = await rowsTo(to);
    expect(failed).toMatchObject({ status: 'failed', attempts: 1, sentAt: null });
    expect(failed.lastError).toBeTruthy();
    const [job] = await findJobs(t.ctx.db, { name: SEND_MAIL_JOB });
    expect(job).toMatchObject({ status: 'queued', attempts: 1, payload: { outboxId: failed.id } });
    expect(await down.jobs.runDue()).toBe(0);
    advance(30_000);
    expect(await down.jobs.runDue()).toBe(1);
    expect((await rowsTo(to))[0]).toMatchObject({ status: 'failed', attempts: 2 });
    advance(30_000);
    expect(await down.jobs.runDue()).toBe(0);

    const late = await startSmtp(port);
    try {
      advance(30_000);
      expect(await down.jobs.runDue()).toBe(1);
      expect(late.received.map((m) => firstAddress(m.to)?.address)).toContain(to);
      const [sent] = await rowsTo(to);
      expect(sent).toMatchObject({ status: 'sent', attempts: 2, lastError: null });
      expect(await findJobs(t.ctx.db, { name: SEND_MAIL_JOB })).toEqual([]);
      advance(3_600_000);
      expect(await down.jobs.runDue()).toBe(0);
    } finally {
      await late.close();
    }
  });

  it('gives up after its attempts (the job is dead, the mail failed), and never sends one another process is sending', async () => {
    const base = {
      siteId: 1,
      userId: null,
      kind: 'activation',
      fromAddress: '"Amora" <no-reply@amora.localhost>',
      subject: 'Retry test',
      html: '<p>retry</p>',
      text: 'retry',
      status: 'pending',
    };
    const port = await freePort();
    const down = serverProcess(`smtp://127.0.0.1:${port}`);
    const exhausted = await insertOutbox(t.ctx.db, { ...base, toAddress: 'exhausted@example.com' });
    await down.jobs.enqueue(t.ctx.db, SEND_MAIL_JOB, { outboxId: exhausted });
    for (let attempt = 1; attempt <= MAX_ATTEMPTS; attempt++) {
      expect(await down.jobs.runDue()).toBe(1);
      advance(3_600_000);
    }
    expect(await down.jobs.runDue()).toBe(0);
    expect((await rowsTo('exhausted@example.com'))[0]).toMatchObject({ status: 'failed', attempts: MAX_ATTEMPTS });
    const [dead] = await findJobs(t.ctx.db, { name: SEND_MAIL_JOB });
    expect(dead).toMatchObject({ status: 'dead', attempts: MAX_ATTEMPTS });
    await t.ctx.db.delete(jobsTable);

    // One process took both mails and stopped: one lease is still running, the other ran out.
    const leased = await insertOutbox(t.ctx.db, { ...base, toAddress: 'leased@example.com' });
    const abandoned = await insertOutbox(t.ctx.db, { ...base, toAddress: 'abandoned@example.com' });
    const stoppedAt = new Date(now.getTime() - DEFAULT_LEASE_MS);
    await down.jobs.enqueue(t.ctx.db, SEND_MAIL_JOB, { outboxId: abandoned }, { runAt: stoppedAt });
    const claim = { names: [SEND_MAIL_JOB], leaseMs: DEFAULT_LEASE_MS, limit: 1 };
    await claimJobs(t.ctx.db, { ...claim, now: stoppedAt, token: 'stopped-1' });
    const leasedJob = await down.jobs.enqueue(t.ctx.db, SEND_MAIL_JOB, { outboxId: leased });
    await claimJobs(t.ctx.db, { ...claim, now, token: 'stopped-2', id: leasedJob });

    // Two processes looking at once send each mail once.
    const smtpUrl = `smtp://127.0.0.1:${smtp.port}`;
    const before = smtp.received.length;
    const counts = await Promise.all([serverProcess(smtpUrl).jobs.runDue(), serverProcess(smtpUrl).jobs.runDue()]);
    const delivered = smtp.received.slice(before).map((m) => firstAddress(m.to)?.address);
    expect(delivered).toEqual(['abandoned@example.com']);
    expect(counts[0] + counts[1]).toBe(1);

    const status = async (id: number) => (await t.ctx.db.select().from(outboxEmails).where(eq(outboxEmails.id, id)))[0].status;
    expect(await status(abandoned)).toBe('sent');
    expect(await status(leased)).toBe('pending');
    await t.ctx.db.delete(jobsTable);
  });

  it('a mail job that runs again after its mail went out sends nothing more', async () => {
    const smtpUrl = `smtp://127.0.0.1:${smtp.port}`;
    const p = serverProcess(smtpUrl);
    const to = 'once.member@example.com';
    await p.mailer.send(activation(to));
    const [row] = await rowsTo(to);
    expect(row.status).toBe('sent');
    // A process stopped after recording the mail as sent and before finishing its job: the job runs again.
    await p.jobs.enqueue(t.ctx.db, SEND_MAIL_JOB, { outboxId: row.id });
    expect(await p.jobs.runDue()).toBe(1);
    expect(smtp.received.filter((m) => firstAddress(m.to)?.address === to)).toHaveLength(1);
  });
});

describe('queue', () => {
  it('stores the mail at once and delivers it afterwards, so a member never waits on SMTP', async () => {
    const to = 'queued.member@example.com';
    const m = mailer(`smtp://127.0.0.1:${smtp.port}`);
    await m.queue(activation(to));
    const [stored] = await rowsTo(to);
    expect(stored.kind).toBe('activation');
    await expect.poll(async () => (await rowsTo(to))[0].status, { timeout: 10_000 }).toBe('sent');
    expect(smtp.received.some((mail) => firstAddress(mail.to)?.address === to)).toBe(true);
  });
});

describe('in a unit of work', () => {
  it('stores and sends a mail only if the change it tells of is committed, and sends it after the commit', async () => {
    const p = serverProcess(`smtp://127.0.0.1:${smtp.port}`);
    const lost = 'rolled.back@example.com';
    await expect(
      withTransaction(t.ctx, async () => {
        await p.mailer.queue(activation(lost));
        throw new Error('the signup failed');
      }),
    ).rejects.toThrow('the signup failed');
    await p.mailer.idle();
    expect(await rowsTo(lost)).toEqual([]);
    expect(await findJobs(t.ctx.db, { name: SEND_MAIL_JOB })).toEqual([]);

    const kept = 'committed@example.com';
    await withTransaction(t.ctx, async () => {
      await p.mailer.queue(activation(kept));
      // Not before the commit: the unit still holds the row.
      expect(smtp.received.some((m) => firstAddress(m.to)?.address === kept)).toBe(false);
    });
    await p.mailer.idle();
    expect((await rowsTo(kept))[0].status).toBe('sent');
    expect(smtp.received.filter((m) => firstAddress(m.to)?.address === kept)).toHaveLength(1);
    expect(smtp.received.some((m) => firstAddress(m.to)?.address === lost)).toBe(false);
  });
});

describe('mailer without SMTP', () => {
  it('keeps the mail in the outbox for the dev mailbox', async () => {
    const to = 'dev.member@example.com';
    const dev = mailer(null);
    await dev.send(activation(to));
    const [row] = await rowsTo(to);
    expect(row).toMatchObject({ status: 'dev', attempts: 0, sentAt: null, subject: 'Confirm your email address for Amora' });
    expect(row.text).toContain('https://amora.localhost/activate/dev.member@example.com');
    expect(await findJobs(t.ctx.db, { name: SEND_MAIL_JOB })).toEqual([]);
  });
});

import { createServer } from 'node:net';
import { outboxEmails } from '@amora/db';
import { eq, sql } from 'drizzle-orm';
import { type AddressObject, type ParsedMail, simpleParser } from 'mailparser';
import { SMTPServer } from 'smtp-server';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../test/harness';
import type { Site } from '../sites/sites.repository';
import { insertOutbox } from './mail.repository';
import { createMailer, MAX_ATTEMPTS, type Mailer, type MailRequest } from './mail.service';

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
const mailers: Mailer[] = [];

function mailer(smtpUrl: string | null): Mailer {
  const created = createMailer({ smtpUrl, db: t.ctx.db });
  mailers.push(created);
  return created;
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
  for (const m of mailers) await m.close();
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

  it('keeps the mail as failed when SMTP is down, without throwing, and a retry sends it later', async () => {
    const port = await freePort();
    const down = mailer(`smtp://127.0.0.1:${port}`);
    const to = 'patient.member@example.com';
    await expect(down.send(activation(to))).resolves.toBeUndefined();

    const [failed] = await rowsTo(to);
    expect(failed).toMatchObject({ status: 'failed', attempts: 1, sentAt: null });
    expect(failed.lastError).toBeTruthy();
    expect(await down.retryPending()).toBe(0);
    expect((await rowsTo(to))[0]).toMatchObject({ status: 'failed', attempts: 2 });

    const late = await startSmtp(port);
    try {
      expect(await down.retryPending()).toBeGreaterThanOrEqual(1);
      expect(late.received.map((m) => firstAddress(m.to)?.address)).toContain(to);
      const [sent] = await rowsTo(to);
      expect(sent).toMatchObject({ status: 'sent', attempts: 2, lastError: null });
      expect(await down.retryPending()).toBe(0);
    } finally {
      await late.close();
    }
  });

  it('retries a mail only while it has attempts left, and never one another process is sending', async () => {
    const base = {
      siteId: 1,
      userId: null,
      kind: 'activation',
      fromAddress: '"Amora" <no-reply@amora.localhost>',
      subject: 'Retry test',
      html: '<p>retry</p>',
      text: 'retry',
    };
    const exhausted = await insertOutbox(
      t.ctx.db,
      { ...base, toAddress: 'exhausted@example.com', status: 'failed', attempts: MAX_ATTEMPTS },
      false,
    );
    const leased = await insertOutbox(t.ctx.db, { ...base, toAddress: 'leased@example.com', status: 'pending' }, true);
    const abandoned = await insertOutbox(t.ctx.db, { ...base, toAddress: 'abandoned@example.com', status: 'pending' }, true);
    await t.ctx.db.update(outboxEmails).set({ sentAt: sql`now() - interval '11 minutes'` }).where(eq(outboxEmails.id, abandoned));

    // Two processes retrying at once send each mail once.
    const smtpUrl = `smtp://127.0.0.1:${smtp.port}`;
    const before = smtp.received.length;
    const counts = await Promise.all([mailer(smtpUrl).retryPending(), mailer(smtpUrl).retryPending()]);
    const delivered = smtp.received.slice(before).map((m) => firstAddress(m.to)?.address);
    expect(delivered).toEqual(['abandoned@example.com']);
    expect(counts[0] + counts[1]).toBe(1);

    const status = async (id: number) => (await t.ctx.db.select().from(outboxEmails).where(eq(outboxEmails.id, id)))[0].status;
    expect(await status(abandoned)).toBe('sent');
    expect(await status(leased)).toBe('pending');
    expect(await status(exhausted)).toBe('failed');
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

describe('mailer without SMTP', () => {
  it('keeps the mail in the outbox for the dev mailbox', async () => {
    const to = 'dev.member@example.com';
    const dev = mailer(null);
    await dev.send(activation(to));
    const [row] = await rowsTo(to);
    expect(row).toMatchObject({ status: 'dev', attempts: 0, sentAt: null, subject: 'Confirm your email address for Amora' });
    expect(row.text).toContain('https://amora.localhost/activate/dev.member@example.com');
    expect(await dev.retryPending()).toBe(0);
  });
});

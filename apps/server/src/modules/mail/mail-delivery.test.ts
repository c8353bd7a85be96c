import { generateKeyPairSync } from 'node:crypto';
import { outboxEmails } from '@amora/db';
import { eq } from 'drizzle-orm';
import { SMTPServer } from 'smtp-server';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createMetrics } from '../../lib/metrics';
import { createMember } from '../../test/factories';
import { createTestApp, type TestApp } from '../../test/harness';
import { metricValue } from '../../test/metrics';
import { addNotificationsDisabled } from '../accounts/accounts.service';
import type { Site } from '../sites/sites.service';
import { insertOutbox } from './mail.repository';
import { createMailer, isEssentialMail, type Mailer } from './mail.service';
import { verpAddress, verpOutboxIds, verpSecret } from './verp';

interface Received {
  mailFrom: string;
  rcptTo: string[];
  raw: string;
}

/** A real SMTP server on 127.0.0.1 that keeps each mail's envelope and raw text. */
function startSmtp(): Promise<{ port: number; received: Received[]; close(): Promise<void> }> {
  const received: Received[] = [];
  const server = new SMTPServer({
    authOptional: true,
    disabledCommands: ['STARTTLS'],
    logger: false,
    onData(stream, session, callback) {
      const chunks: Buffer[] = [];
      stream.on('data', (chunk: Buffer) => chunks.push(chunk));
      stream.on('end', () => {
        const { mailFrom, rcptTo } = session.envelope;
        received.push({
          mailFrom: mailFrom ? mailFrom.address : '',
          rcptTo: rcptTo.map((r) => r.address),
          raw: Buffer.concat(chunks).toString('utf8'),
        });
        callback();
      });
    },
  });
  return new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () =>
      resolve({
        port: (server.server.address() as { port: number }).port,
        received,
        close: () => new Promise<void>((done) => server.close(() => done())),
      }),
    );
  });
}

let t: TestApp;
let site: Site;
let smtp: Awaited<ReturnType<typeof startSmtp>>;
const mailers: Mailer[] = [];
const { privateKey } = generateKeyPairSync('rsa', { modulusLength: 1024 });
const DKIM_KEY = privateKey.export({ type: 'pkcs8', format: 'pem' }).toString();

function mailer(mail: Parameters<typeof createMailer>[0]['mail'] = null): Mailer {
  const created = createMailer({ smtpUrl: `smtp://127.0.0.1:${smtp.port}`, db: t.ctx.db, jobs: t.ctx.jobs, mail });
  mailers.push(created);
  return created;
}

/** A stored mail of `kind` to the member, waiting for its job (the kind's text does not matter here). */
async function stored(kind: string, to: string, userId: number): Promise<number> {
  return insertOutbox(t.ctx.db, {
    siteId: site.id,
    userId,
    kind,
    toAddress: to,
    fromAddress: '"Amora" <no-reply@amora.localhost>',
    subject: `A ${kind} mail`,
    html: '<p>Hello</p>',
    text: 'Hello',
    status: 'pending',
  });
}

const statusOf = async (id: number) => (await t.ctx.db.select().from(outboxEmails).where(eq(outboxEmails.id, id)))[0].status;

beforeAll(async () => {
  t = await createTestApp();
  site = (await t.ctx.sites.get(1)) as Site;
  smtp = await startSmtp();
});
afterAll(async () => {
  for (const m of mailers) await m.close();
  await smtp?.close();
  await t?.close();
});

describe('delivery: return path and signature', () => {
  it("sends each mail with its own signed return path (VERP) on the site's domain, the recipient unchanged", async () => {
    const member = await createMember(t);
    const id = await stored('activity_like', member.email, member.userId);
    await mailer().deliver(id);
    const mail = smtp.received.find((m) => m.rcptTo.includes(member.email));
    expect(mail).toBeDefined();
    const secret = await verpSecret(t.ctx);
    expect(mail?.mailFrom).toBe(verpAddress(secret, id, 'amora.localhost'));
    expect(mail?.mailFrom).toMatch(new RegExp(`^bounces\\+${id}-[0-9a-f]{12}@amora\\.localhost$`));
    expect(verpOutboxIds(secret, mail?.mailFrom ?? '')).toEqual([id]);
    // The header From stays the site's no-reply address.
    expect(mail?.raw).toMatch(/^From: .*<no-reply@amora\.localhost>/m);
    expect(await statusOf(id)).toBe('sent');
  });

  it('uses the bounce domain when one is configured, and signs with DKIM for the site domain', async () => {
    const member = await createMember(t);
    const id = await stored('activation', member.email, member.userId);
    await mailer({ bounceDomain: 'bounces.amora.example', dkim: { selector: 'amora1', privateKey: DKIM_KEY } }).deliver(id);
    const mail = smtp.received.find((m) => m.rcptTo.includes(member.email));
    expect(mail?.mailFrom).toMatch(new RegExp(`^bounces\\+${id}-[0-9a-f]{12}@bounces\\.amora\\.example$`));
    const signature = /^DKIM-Signature:[^\r\n]*(?:\r\n[ \t][^\r\n]*)*/m.exec(mail?.raw ?? '')?.[0] ?? '';
    expect(signature).toMatch(/\bd=amora\.localhost;/);
    expect(signature).toMatch(/\bs=amora1;/);
  });
});

describe('delivery metrics', () => {
  it('counts each mail SMTP took, and each it refused (to be retried by its job)', async () => {
    const metrics = createMetrics();
    const up = createMailer({ smtpUrl: `smtp://127.0.0.1:${smtp.port}`, db: t.ctx.db, jobs: t.ctx.jobs, metrics });
    // Nothing listens on port 1: the connection is refused.
    const down = createMailer({ smtpUrl: 'smtp://127.0.0.1:1', db: t.ctx.db, jobs: t.ctx.jobs, metrics });
    mailers.push(up, down);
    const member = await createMember(t);
    await up.deliver(await stored('activation', member.email, member.userId));
    const failing = await stored('reset', member.email, member.userId);
    await expect(down.deliver(failing)).rejects.toThrow();
    expect(await statusOf(failing)).toBe('failed');
    expect(await metricValue(metrics, 'amora_mails_total', { outcome: 'sent' })).toBe(1);
    expect(await metricValue(metrics, 'amora_mails_total', { outcome: 'failed' })).toBe(1);
  });
});

describe('delivery while the member’s mail is stopped', () => {
  it('keeps a mail that is not essential as suppressed, and still sends the essential ones', async () => {
    const member = await createMember(t);
    await addNotificationsDisabled(t.ctx, member.userId, 'bounce');
    const activity = await stored('activity_message', member.email, member.userId);
    const reset = await stored('reset', member.email, member.userId);
    const m = mailer();
    await m.deliver(activity);
    await m.deliver(reset);
    expect(await statusOf(activity)).toBe('suppressed');
    expect(await statusOf(reset)).toBe('sent');
    const to = smtp.received.filter((r) => r.rcptTo.includes(member.email));
    expect(to).toHaveLength(1);
    expect(to[0].raw).toContain('Subject: A reset mail');
    // Its job running again sends nothing either.
    await m.deliver(activity);
    expect(smtp.received.filter((r) => r.rcptTo.includes(member.email))).toHaveLength(1);
  });

  it('knows the essential kinds', () => {
    for (const kind of ['activation', 'reset', 'mail_change', 'mail_change_notice', 'deleted', 'reactivated', 'password_changed']) {
      expect(isEssentialMail(kind)).toBe(true);
    }
    for (const kind of ['activity_message', 'activity_like', 'weekly_updates', 'news', 'promotions'])
      expect(isEssentialMail(kind)).toBe(false);
  });
});

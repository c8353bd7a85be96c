import { mailReports, users } from '@amora/db';
import { desc, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEV_MAIL_REPORTS_TOKEN } from '../../config';
import { AMORA, mailsTo } from '../../test/accounts';
import { createMember, type Member } from '../../test/factories';
import { createTestApp, type TestApp } from '../../test/harness';
import { deliveryStatusReport, feedbackReport } from '../../test/mail-reports';
import type { Site } from '../sites/sites.service';
import { TEMPORARY_BOUNCES_TO_DISABLE } from './mail-reports.service';
import { verpAddress, verpSecret } from './verp';

let t: TestApp;
let site: Site;

beforeAll(async () => {
  t = await createTestApp();
  site = (await t.ctx.sites.get(1)) as Site;
});
afterAll(async () => {
  await t?.close();
});

function post(body: string | Buffer, headers: Record<string, string> = {}, app = t) {
  return app.app.inject({
    method: 'POST',
    url: '/api/mail-reports',
    headers: { host: AMORA, 'content-type': 'message/rfc822', authorization: `Bearer ${DEV_MAIL_REPORTS_TOKEN}`, ...headers },
    payload: body,
  });
}

async function reportOutcome(body: string): Promise<string> {
  const res = await post(body);
  expect(res.statusCode, res.body).toBe(200);
  return res.json().outcome;
}

async function disabledOf(member: Member): Promise<string[]> {
  const [row] = await t.ctx.db.select({ reasons: users.notificationsDisabled }).from(users).where(eq(users.id, member.userId));
  return row.reasons;
}

async function reportsOf(member: Member) {
  return t.ctx.db.select().from(mailReports).where(eq(mailReports.userId, member.userId)).orderBy(desc(mailReports.id));
}

/** The return path the member's newest mail went out with. */
async function returnPathOf(member: Member): Promise<string> {
  const [mail] = await mailsTo(t, member.email);
  return verpAddress(await verpSecret(t.ctx), mail.id, site.domain);
}

/** Another stored mail to the member (each counts as a mail of its own for temporary failures). */
async function mailAgain(member: Member): Promise<string> {
  await t.ctx.mailer.send({
    kind: 'password_changed',
    site,
    locale: 'en',
    to: member.email,
    userId: member.userId,
    vars: { name: member.name },
  });
  return returnPathOf(member);
}

describe('POST /api/mail-reports: bounces (RFC 3464)', () => {
  it('stops mail with bounce on a permanent failure for the mail its return path names, once', async () => {
    const member = await createMember(t);
    const other = await createMember(t);
    const report = deliveryStatusReport({ to: await returnPathOf(member), recipient: member.email, id: 'perm-1@mx1.example.net' });
    expect(await reportOutcome(report)).toBe('disabled');
    expect(await disabledOf(member)).toEqual(['bounce']);
    const [row] = await reportsOf(member);
    expect(row).toMatchObject({ kind: 'bounce', status: 'permanent' });
    expect(row.detail).toContain('5.1.1');

    // The same report again: known, nothing more changes.
    expect(await reportOutcome(report)).toBe('duplicate');
    expect(await reportsOf(member)).toHaveLength(1);
    expect(await disabledOf(member)).toEqual(['bounce']);
    expect(await disabledOf(other)).toEqual([]);
  });

  it('finds the mail by the return path in the returned headers alone', async () => {
    const member = await createMember(t);
    const report = deliveryStatusReport({
      to: 'postmaster@amora.localhost',
      returnedReturnPath: await returnPathOf(member),
      recipient: member.email,
      id: 'returned-1@mx1.example.net',
    });
    expect(await reportOutcome(report)).toBe('disabled');
    expect(await disabledOf(member)).toEqual(['bounce']);
  });

  it(`stops mail for temporary failures only once ${TEMPORARY_BOUNCES_TO_DISABLE} different mails failed within 7 days`, async () => {
    const member = await createMember(t);
    const temporary = (to: string, id: string) =>
      deliveryStatusReport({
        to,
        recipient: member.email,
        action: 'delayed',
        status: '4.2.2',
        diagnostic: 'smtp; 452 4.2.2 Mailbox full',
        id,
      });
    const first = await returnPathOf(member);
    expect(await reportOutcome(temporary(first, 'tmp-1@mx'))).toBe('recorded');
    // More delay notices about the same mail do not count again.
    expect(await reportOutcome(temporary(first, 'tmp-2@mx'))).toBe('recorded');
    expect(await reportOutcome(temporary(first, 'tmp-3@mx'))).toBe('recorded');
    expect(await disabledOf(member)).toEqual([]);

    // A week later the old ones no longer count.
    t.clock.advance(8 * 24 * 60 * 60 * 1000);
    expect(await reportOutcome(temporary(await mailAgain(member), 'tmp-4@mx'))).toBe('recorded');
    expect(await reportOutcome(temporary(await mailAgain(member), 'tmp-5@mx'))).toBe('recorded');
    expect(await disabledOf(member)).toEqual([]);
    // A 4.x.x failure after the retries ran out counts as temporary as well.
    const last = deliveryStatusReport({ to: await mailAgain(member), recipient: member.email, status: '4.4.7', id: 'tmp-6@mx' });
    expect(await reportOutcome(last)).toBe('disabled');
    expect(await disabledOf(member)).toEqual(['bounce']);
    expect((await reportsOf(member)).map((r) => r.status)).toEqual(Array(6).fill('temporary'));
  });

  it('believes the recipient field of a report without a return path only when exactly one member was mailed there', async () => {
    const member = await createMember(t);
    const report = deliveryStatusReport({
      to: 'postmaster@amora.localhost',
      returnedReturnPath: null,
      recipient: member.email,
      id: 'fallback-1@mx',
    });
    expect(await reportOutcome(report)).toBe('disabled');
    expect(await disabledOf(member)).toEqual(['bounce']);

    const nobody = deliveryStatusReport({
      to: 'postmaster@amora.localhost',
      returnedReturnPath: null,
      recipient: 'nobody@example.net',
      id: 'fallback-2@mx',
    });
    expect(await reportOutcome(nobody)).toBe('ignored');
  });

  it('changes nothing for a forged return path, not even through the address the report names', async () => {
    const victim = await createMember(t);
    const genuine = await returnPathOf(victim);
    const forged = genuine.replace(/-([0-9a-f]{12})@/, (_m, sig: string) => `-${sig.startsWith('0') ? '1' : '0'}${sig.slice(1)}@`);
    expect(forged).not.toBe(genuine);
    const report = deliveryStatusReport({ to: forged, recipient: victim.email, id: 'forged-1@mx' });
    expect(await reportOutcome(report)).toBe('ignored');
    expect(await disabledOf(victim)).toEqual([]);
    expect(await reportsOf(victim)).toHaveLength(0);
  });

  it('ignores a delivery report that tells of no failure', async () => {
    const member = await createMember(t);
    const report = deliveryStatusReport({
      to: await returnPathOf(member),
      recipient: member.email,
      action: 'delivered',
      status: '2.0.0',
      id: 'ok-1@mx',
    });
    expect(await reportOutcome(report)).toBe('ignored');
    expect(await reportsOf(member)).toHaveLength(0);
  });
});

describe('POST /api/mail-reports: spam reports (ARF, RFC 5965)', () => {
  it('stops mail with fbl on an abuse report, found by the reported mail’s return path', async () => {
    const member = await createMember(t);
    const report = feedbackReport({ returnPath: await returnPathOf(member), recipient: member.email, id: 'arf-1@fbl' });
    expect(await reportOutcome(report)).toBe('disabled');
    expect(await disabledOf(member)).toEqual(['fbl']);
    expect(await reportsOf(member)).toMatchObject([{ kind: 'fbl', status: 'abuse' }]);
    expect(await reportOutcome(report)).toBe('duplicate');
    expect(await reportsOf(member)).toHaveLength(1);
  });

  it('records a report of another feedback type without stopping mail', async () => {
    const member = await createMember(t);
    const report = feedbackReport({
      returnPath: await returnPathOf(member),
      recipient: member.email,
      feedbackType: 'not-spam',
      id: 'arf-2@fbl',
    });
    expect(await reportOutcome(report)).toBe('recorded');
    expect(await disabledOf(member)).toEqual([]);
  });

  it('keeps both reasons when a bounced member also complained', async () => {
    const member = await createMember(t);
    const path = await returnPathOf(member);
    expect(await reportOutcome(deliveryStatusReport({ to: path, recipient: member.email, id: 'both-1@mx' }))).toBe('disabled');
    expect(await reportOutcome(feedbackReport({ returnPath: path, recipient: member.email, id: 'both-2@fbl' }))).toBe('disabled');
    expect(await disabledOf(member)).toEqual(['bounce', 'fbl']);
  });
});

describe('POST /api/mail-reports: the request', () => {
  it('needs the Bearer token (401 without it or with another)', async () => {
    const member = await createMember(t);
    const report = deliveryStatusReport({ to: await returnPathOf(member), recipient: member.email, id: 'token-1@mx' });
    const missing = await post(report, { authorization: '' });
    expect(missing.statusCode).toBe(401);
    const wrong = await post(report, { authorization: `Bearer ${DEV_MAIL_REPORTS_TOKEN}x` });
    expect(wrong.statusCode).toBe(401);
    // A member's session is no key either.
    const asMember = await post(report, { authorization: '', cookie: member.cookie, 'x-request-type': 'client' });
    expect(asMember.statusCode).toBe(401);
    expect(await disabledOf(member)).toEqual([]);
  });

  it('answers 400 for a body that is no message, 415 for a content type no message has, 413 past 1 MB', async () => {
    expect((await post('')).statusCode).toBe(400);
    expect((await post('just some words, no header fields\r\n')).statusCode).toBe(400);
    expect((await post('{"a":1}', { 'content-type': 'application/json' })).statusCode).toBe(400);
    expect((await post('GIF89a', { 'content-type': 'image/gif' })).statusCode).toBe(415);
    expect((await post(`Subject: big\r\n\r\n${'x'.repeat(1024 * 1024)}`)).statusCode).toBe(413);
  });

  it('takes a message that is no report, or an unparsable one, and changes nothing (200, ignored)', async () => {
    expect(
      await reportOutcome('From: someone@example.net\r\nTo: bounces@amora.localhost\r\nSubject: hello\r\n\r\nAre you there?\r\n'),
    ).toBe('ignored');
    const res = await post(
      'Content-Type: multipart/report; boundary="x"\r\n\r\n--x\r\nContent-Type: message/delivery-status\r\n\r\n\u0000\u0001garbage\r\n',
      {
        'content-type': 'text/plain',
      },
    );
    expect(res.statusCode).toBe(200);
    expect(res.json().outcome).toBe('ignored');
  });

  it('accepts an mbox delivery (a From_ line first) as a Postfix pipe hands it over', async () => {
    const member = await createMember(t);
    const report = deliveryStatusReport({ to: await returnPathOf(member), recipient: member.email, id: 'mbox-1@mx' });
    expect(await reportOutcome(`From MAILER-DAEMON  Sat Nov 28 21:55:02 2026\n${report}`)).toBe('disabled');
  });

  it('is not there (404) when no token is configured', async () => {
    const bare = await createTestApp({ mail: { reportsToken: null, bounceDomain: null, reportsDir: null, dkim: null } });
    try {
      const res = await post('Subject: x\r\n\r\nx', {}, bare);
      expect(res.statusCode).toBe(404);
    } finally {
      await bare.close();
    }
  });
});

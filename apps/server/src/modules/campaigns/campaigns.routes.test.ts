import { auditLog, mailingRecipients, mailings, outboxEmails, sites, users } from '@amora/db';
import { and, count, eq, inArray } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { HERZ, mailsTo } from '../../test/accounts';
import { callAs, createMember, type Member } from '../../test/factories';
import { createTestApp, type TestApp } from '../../test/harness';
import { callAsStaff, createStaffMember, type StaffMember } from '../../test/staff';
import { addNotificationsDisabled } from '../accounts/accounts.service';
import { unsubscribeLinks } from '../notifications/notifications.service';
import { sendMailing } from './campaigns.service';

const MAILINGS = '/api/console/mailings';
const HOUR = 3_600_000;

let t: TestApp;
let admin: StaffMember;
let support: StaffMember;
let moderator: StaffMember;
let operator: StaffMember;
let amora: number;
let herz: number;
/** A member of Amora who chose news by email before any mailing went. */
let optedInAlready: Member;

beforeAll(async () => {
  t = await createTestApp();
  admin = await createStaffMember(t, 'admin');
  t.clock.advance(31_000);
  support = await createStaffMember(t, 'support');
  t.clock.advance(31_000);
  moderator = await createStaffMember(t, 'moderator');
  t.clock.advance(31_000);
  operator = await createStaffMember(t, 'operator');
  const all = await t.ctx.db.select().from(sites);
  amora = all.find((s) => s.name === 'Amora')?.id as number;
  herz = all.find((s) => s.name === 'Herzklopfen')?.id as number;
  optedInAlready = await optedIn();
}, 60_000);
afterAll(async () => {
  await t?.close();
});

const as = (who: StaffMember | null, method: 'GET' | 'POST' | 'PUT', url: string, body?: unknown) => callAsStaff(t, who, method, url, body);

/** A member of Amora who chose `kinds` by email (news unless told). */
async function optedIn(kinds: string[] = ['news'], options: { activate?: boolean } = {}): Promise<Member> {
  const member = await createMember(t, options);
  const res = await callAs(t, member, 'PUT', '/api/notifications.php', {
    preferences: kinds.map((type) => ({ type, channel: 'email', enabled: true })),
  });
  expect(res.statusCode, res.body).toBe(200);
  return member;
}

const texts = {
  en: { subject: 'Video profiles are here', body: 'You can now add a short video to your profile.\n\nHave a look today.' },
  de: { subject: 'Videoprofile sind da', body: 'Du kannst deinem Profil jetzt ein kurzes Video hinzufügen.' },
};

async function draft(body: Record<string, unknown> = {}): Promise<number> {
  const res = await as(admin, 'POST', MAILINGS, { site_id: amora, kind: 'news', texts, ...body });
  expect(res.statusCode, res.body).toBe(201);
  return res.json().id as number;
}

/** A mailing sent from an hour on, so that the test runs its batches itself. */
async function scheduledLater(body: Record<string, unknown> = {}): Promise<number> {
  const id = await draft(body);
  const res = await as(admin, 'POST', `${MAILINGS}/${id}/send`, { send_at: new Date(t.clock.now().getTime() + HOUR).toISOString() });
  expect(res.statusCode, res.body).toBe(200);
  return id;
}

const detail = async (id: number) => (await as(admin, 'GET', `${MAILINGS}/${id}`)).json();
const newsTo = (member: Member) => mailsTo(t, member.email, 'news');

/** Runs the mailing's batches of `size` until it is sent (or cancelled). */
async function sendAll(id: number, size: number, between?: (round: number) => Promise<void>): Promise<void> {
  for (let round = 0; round < 1000; round++) {
    const [row] = await t.ctx.db.select().from(mailings).where(eq(mailings.id, id));
    if (row.status !== 'scheduled' && row.status !== 'sending') return;
    await sendMailing(t.ctx, { mailingId: id, round }, { batchSize: size });
    await between?.(round);
  }
  throw new Error('the mailing never finished');
}

describe('writing a mailing', () => {
  it('refuses bad input with a 400 naming the field, and changes nothing', async () => {
    const cases: [Record<string, unknown>, string | null][] = [
      [{ site_id: amora, kind: 'news', texts: { de: texts.de } }, 'texts.en'],
      [{ site_id: herz, kind: 'news', texts: { de: texts.de, sv: texts.en } }, 'texts.sv'],
      [{ site_id: 999_999, kind: 'news', texts }, 'site_id'],
      [{ site_id: amora, kind: 'weekly_updates', texts }, null],
      [{ site_id: amora, kind: 'news', texts: { en: { subject: '', body: 'x' } } }, null],
      [{ site_id: amora, kind: 'news', texts: { en: { subject: 'x', body: 'y'.repeat(10_001) } } }, null],
      [{ site_id: amora, kind: 'news', texts: { en: { subject: 'two\nlines', body: 'x' } } }, null],
      [{ site_id: amora, kind: 'news', texts: { xx: texts.en } }, null],
      [{ site_id: amora, kind: 'news', texts, extra: true }, null],
    ];
    const countMailings = async () => Number((await t.ctx.db.select({ n: count() }).from(mailings))[0].n);
    const before = await countMailings();
    for (const [body, field] of cases) {
      const res = await as(admin, 'POST', MAILINGS, body);
      expect(res.statusCode, JSON.stringify(body).slice(0, 120)).toBe(400);
      if (field) expect(res.json().field).toBe(field);
    }
    expect(await countMailings()).toBe(before);

    const id = await draft();
    expect(
      (await as(admin, 'POST', `${MAILINGS}/${id}/send`, { send_at: new Date(t.clock.now().getTime() - HOUR).toISOString() })).json(),
    ).toMatchObject({
      field: 'send_at',
    });
    expect((await as(admin, 'POST', `${MAILINGS}/${id}/send`, { send_at: 'tomorrow' })).statusCode).toBe(400);
    expect((await as(admin, 'POST', `${MAILINGS}/${id}/test`, { locale: 'fi' })).json()).toMatchObject({ field: 'locale' });
    const preview = await as(admin, 'POST', `${MAILINGS}/preview`, { site_id: herz, kind: 'news', locale: 'sv', ...texts.en });
    expect(preview.json()).toMatchObject({ field: 'locale' });
    expect((await as(admin, 'GET', `${MAILINGS}/999999`)).statusCode).toBe(404);
    expect((await as(admin, 'GET', `${MAILINGS}?page=0`)).statusCode).toBe(400);
  });

  it('lets admins write and send, support only read, other roles nothing', async () => {
    const id = await draft();
    expect((await as(support, 'GET', MAILINGS)).statusCode).toBe(200);
    expect((await as(support, 'GET', `${MAILINGS}/${id}`)).statusCode).toBe(200);
    for (const [method, url, body] of [
      ['POST', MAILINGS, { site_id: amora, kind: 'news', texts }],
      ['PUT', `${MAILINGS}/${id}`, { site_id: amora, kind: 'news', texts }],
      ['POST', `${MAILINGS}/preview`, { site_id: amora, kind: 'news', locale: 'en', ...texts.en }],
      ['POST', `${MAILINGS}/${id}/test`, { locale: 'en' }],
      ['POST', `${MAILINGS}/${id}/send`, { send_at: null }],
      ['POST', `${MAILINGS}/${id}/cancel`, undefined],
    ] as const) {
      expect((await as(support, method, url, body)).statusCode, `support: ${method} ${url}`).toBe(403);
    }
    for (const who of [moderator, operator, null]) {
      expect((await as(who, 'GET', MAILINGS)).statusCode).toBe(who ? 403 : 401);
      expect((await as(who, 'POST', `${MAILINGS}/${id}/send`, { send_at: null })).statusCode).toBe(who ? 403 : 401);
    }
    expect((await detail(id)).status).toBe('draft');
  });

  it('previews the mail in the site’s template and sends a test to the admin alone, audited', async () => {
    const preview = await as(admin, 'POST', `${MAILINGS}/preview`, { site_id: herz, kind: 'promotions', locale: 'de', ...texts.de });
    expect(preview.statusCode, preview.body).toBe(200);
    const mail = preview.json();
    expect(mail.subject).toBe('Videoprofile sind da');
    expect(mail.html).toContain('Herzklopfen');
    expect(mail.html).toContain('Hallo Staff admin,');
    expect(mail.html).toContain('Du kannst deinem Profil jetzt ein kurzes Video hinzufügen.');
    expect(mail.text).toContain('Angebote von Herzklopfen');

    const id = await draft();
    const before = (await newsTo(optedInAlready)).length;
    const res = await as(admin, 'POST', `${MAILINGS}/${id}/test`, { locale: 'de' });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toEqual({ to: admin.email });
    const [test] = await mailsTo(t, admin.email, 'news');
    expect(test.subject).toBe('Test: Videoprofile sind da');
    expect(test.fromAddress).toBe('"Amora" <no-reply@amora.localhost>');
    expect(test.listUnsubscribe).toBeNull();
    // Nobody else got anything, and the mailing is still a draft.
    expect(await newsTo(optedInAlready)).toHaveLength(before);
    expect((await detail(id)).status).toBe('draft');
    const audited = await t.ctx.db
      .select()
      .from(auditLog)
      .where(and(eq(auditLog.objectType, 'mailing'), eq(auditLog.objectId, String(id))));
    expect(audited.map((row) => row.action).sort()).toEqual(['mailing.create', 'mailing.test']);
    expect(audited.every((row) => row.staffId === admin.id)).toBe(true);
  });
});

describe('sending a mailing', () => {
  it('mails each member who opted in, confirmed and whose mail goes, once, in their language, with the one-click unsubscribe', async () => {
    const english = optedInAlready;
    const german = await optedIn();
    await t.ctx.db.update(users).set({ language: 'de' }).where(eq(users.id, german.userId));
    const finnish = await optedIn();
    await t.ctx.db.update(users).set({ language: 'fi' }).where(eq(users.id, finnish.userId));
    const notOptedIn = await createMember(t);
    const offersOnly = await optedIn(['promotions']);
    const unconfirmed = await optedIn(['news'], { activate: false });
    const bounced = await optedIn();
    await addNotificationsDisabled(t.ctx, bounced.userId, 'bounce');
    const herzMember = await createMember(t, { host: HERZ });
    await callAs(t, herzMember, 'PUT', '/api/notifications.php', { preferences: [{ type: 'news', channel: 'email', enabled: true }] });

    const id = await draft();
    const created = await detail(id);
    expect(created.opted_in).toBeGreaterThanOrEqual(3);
    const sent = await as(admin, 'POST', `${MAILINGS}/${id}/send`, { send_at: null });
    expect(sent.statusCode, sent.body).toBe(200);
    expect(sent.json().status).toBe('scheduled');
    await t.ctx.jobs.runDue();

    const [mail] = await newsTo(english);
    expect(mail.subject).toBe('Video profiles are here');
    expect(mail.fromAddress).toBe('"Amora" <no-reply@amora.localhost>');
    expect(mail.listUnsubscribe).toMatch(/\/api\/unsubscribe\.php\?t=/);
    expect(mail.text).toContain('Hello ');
    expect(mail.text).toContain('You can now add a short video to your profile.');
    expect(mail.text).toContain('you chose to receive news from Amora');
    expect(mail.text).toMatch(/Stop these emails: http:\/\/amora\.localhost(:\d+)?\/unsubscribe\?t=/);
    expect((await newsTo(german))[0]?.subject).toBe('Videoprofile sind da');
    expect((await newsTo(german))[0]?.text).toContain('Neuigkeiten von Amora');
    // No Finnish text: the site's default language.
    expect((await newsTo(finnish))[0]?.subject).toBe('Video profiles are here');
    for (const member of [notOptedIn, offersOnly, unconfirmed, bounced, herzMember])
      expect(await newsTo(member), member.email).toHaveLength(0);

    const done = await detail(id);
    expect(done.status).toBe('sent');
    const recipients = await t.ctx.db.select().from(mailingRecipients).where(eq(mailingRecipients.mailingId, id));
    expect(recipients.map((r) => r.userId)).toEqual(expect.arrayContaining([english.userId, german.userId, finnish.userId]));
    expect(recipients.find((r) => r.userId === german.userId)?.locale).toBe('de');
    // In tests mail stays in the outbox ('dev', the dev mailbox), which counts as sent.
    expect(done.progress).toEqual({ recipients: recipients.length, queued: 0, sent: recipients.length, failed: 0, not_sent: 0 });

    // It goes once: running the job again, or sending again, mails nobody twice.
    await sendMailing(t.ctx, { mailingId: id, round: 0 });
    await t.ctx.jobs.runDue();
    expect(await newsTo(english)).toHaveLength(1);
    expect((await as(admin, 'POST', `${MAILINGS}/${id}/send`, { send_at: null })).statusCode).toBe(409);
    expect((await as(admin, 'PUT', `${MAILINGS}/${id}`, { site_id: amora, kind: 'news', texts })).statusCode).toBe(409);
    const actions = await t.ctx.db
      .select()
      .from(auditLog)
      .where(and(eq(auditLog.objectType, 'mailing'), eq(auditLog.objectId, String(id))));
    expect(actions.map((row) => row.action).sort()).toEqual(['mailing.create', 'mailing.send']);

    const list = await as(support, 'GET', `${MAILINGS}?site=${amora}`);
    expect(list.json().mailings.find((m: { id: number }) => m.id === id)).toMatchObject({
      status: 'sent',
      subject: 'Video profiles are here',
    });
  });

  it('waits for its moment when scheduled for later', async () => {
    const member = await optedIn();
    const id = await scheduledLater({ texts: { en: { subject: 'Later', body: 'Later text' } } });
    await t.ctx.jobs.runDue();
    expect(await newsTo(member)).toHaveLength(0);
    t.clock.advance(HOUR + 1000);
    await t.ctx.jobs.runDue();
    expect((await newsTo(member)).map((m) => m.subject)).toEqual(['Later']);
    expect((await detail(id)).status).toBe('sent');
  });

  it('does not mail a member who unsubscribed while it was being sent', async () => {
    const members = [await optedIn(), await optedIn(), await optedIn(), await optedIn()];
    const [first, byLink, byOneClick, last] = members;
    const site = await t.ctx.sites.get(amora);
    const links = async (who: Member) => unsubscribeLinks(t.ctx, site as NonNullable<typeof site>, who.userId, 'news');
    const id = await scheduledLater();
    let unsubscribed = false;
    await sendAll(id, 1, async () => {
      if (unsubscribed || (await newsTo(first)).length === 0) return;
      unsubscribed = true;
      // The footer link's page, "stop these emails" (news by mail off), and the mail client's one-click button (all).
      const token = new URL((await links(byLink)).link).searchParams.get('t');
      expect((await callAs(t, null, 'PUT', `/api/unsubscribe.php?t=${token}`, { scope: 'type' })).statusCode).toBe(200);
      const oneClick = new URL((await links(byOneClick)).oneClick);
      const res = await t.app.inject({
        method: 'POST',
        url: `${oneClick.pathname}${oneClick.search}`,
        headers: { host: 'localhost:3000', 'content-type': 'text/plain' },
        payload: 'List-Unsubscribe=One-Click',
      });
      expect(res.statusCode, res.body).toBe(200);
    });
    expect(unsubscribed).toBe(true);
    await t.ctx.jobs.runDue();
    expect(await newsTo(first)).toHaveLength(1);
    expect(await newsTo(byLink)).toHaveLength(0);
    expect(await newsTo(byOneClick)).toHaveLength(0);
    expect(await newsTo(last)).toHaveLength(1);
  });

  it('sends each mail once when runs of the job overlap', async () => {
    const members = await Promise.all(Array.from({ length: 7 }, () => optedIn()));
    const id = await scheduledLater();
    // Many runs of every round at once, in batches of 2, then the job's own runs.
    for (let round = 0; round < 12; round++) {
      await Promise.all(Array.from({ length: 6 }, () => sendMailing(t.ctx, { mailingId: id, round }, { batchSize: 2 })));
    }
    t.clock.advance(HOUR + 1000);
    await Promise.all([t.ctx.jobs.runDue(), t.ctx.jobs.runDue()]);
    const mails = await t.ctx.db
      .select()
      .from(outboxEmails)
      .where(
        and(
          eq(outboxEmails.kind, 'news'),
          inArray(
            outboxEmails.toAddress,
            members.map((m) => m.email),
          ),
        ),
      );
    expect(mails.map((m) => m.toAddress).sort()).toEqual(members.map((m) => m.email).sort());
    const recipients = await t.ctx.db.select().from(mailingRecipients).where(eq(mailingRecipients.mailingId, id));
    expect(new Set(recipients.map((r) => r.outboxId)).size).toBe(recipients.length);
    expect((await detail(id)).status).toBe('sent');
  });

  it('stops when cancelled while it sends: the rest are not sent, queued mails are withdrawn', async () => {
    const members = [await optedIn(), await optedIn(), await optedIn()];
    const id = await scheduledLater();
    // Batches of one until the first of these members has theirs.
    await sendAll(id, 1, async () => {
      if ((await newsTo(members[0])).length === 0) return;
      const [row] = await t.ctx.db.select().from(mailings).where(eq(mailings.id, id));
      if (row.status !== 'cancelled') {
        // As with SMTP, their mail has not left yet.
        const [mail] = await newsTo(members[0]);
        await t.ctx.db.update(outboxEmails).set({ status: 'pending' }).where(eq(outboxEmails.id, mail.id));
        const res = await as(admin, 'POST', `${MAILINGS}/${id}/cancel`);
        expect(res.statusCode, res.body).toBe(200);
        expect(res.json().status).toBe('cancelled');
      }
    });
    t.clock.advance(HOUR + 1000);
    await t.ctx.jobs.runDue();
    expect((await newsTo(members[0]))[0]?.status).toBe('withdrawn');
    expect(await newsTo(members[1])).toHaveLength(0);
    expect(await newsTo(members[2])).toHaveLength(0);
    const done = await detail(id);
    expect(done.status).toBe('cancelled');
    expect(done.progress.not_sent).toBe(1);
    expect((await as(admin, 'POST', `${MAILINGS}/${id}/cancel`)).statusCode).toBe(409);
    const [cancelled] = await t.ctx.db
      .select()
      .from(auditLog)
      .where(and(eq(auditLog.action, 'mailing.cancel'), eq(auditLog.objectId, String(id))));
    expect(cancelled.after).toEqual({ status: 'cancelled', withdrawn: 1 });
  });
});

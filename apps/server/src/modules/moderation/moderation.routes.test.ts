import { randomUUID } from 'node:crypto';
import type { AddressInfo } from 'node:net';
import { LIVE_CLOSE, LIVE_PATH, sendMessageResponseSchema } from '@amora/contracts';
import { auditLog, complaints, memberSanctions, messages, photos, profiles, sites } from '@amora/db';
import { and, desc, eq } from 'drizzle-orm';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import { call, login, mailsTo } from '../../test/accounts';
import { callAs, createMember, createProfile, type Member, uploadPhoto } from '../../test/factories';
import { createTestApp, type TestApp } from '../../test/harness';
import { callAsStaff, createStaffMember, type StaffMember } from '../../test/staff';
import { credit } from '../credits/credits.service';
import { endRunOutSuspensions } from './moderation.service';

let t: TestApp;
let moderator: StaffMember;
let admin: StaffMember;
let support: StaffMember;
beforeAll(async () => {
  t = await createTestApp();
  await t.app.listen({ port: 0, host: '127.0.0.1' });
  moderator = await createStaffMember(t, 'moderator');
  t.clock.advance(31_000);
  admin = await createStaffMember(t, 'admin');
  t.clock.advance(31_000);
  support = await createStaffMember(t, 'support');
});
afterAll(async () => {
  await t?.close();
});
beforeEach(() => {
  t.clock.advance(31_000);
});

async function member(): Promise<Member> {
  const who = await createMember(t);
  const [row] = await t.ctx.db.select({ siteId: profiles.siteId }).from(profiles).where(eq(profiles.id, who.profileId));
  await credit(t.ctx, { userId: who.userId, siteId: row.siteId, amount: 500, reason: 'test' });
  return who;
}

async function send(app: TestApp, who: Member, target: { conversation?: number; profile?: number }, body: string) {
  const res = await callAs(app, who, 'POST', '/api/messages.php', { ...target, body, client_id: randomUUID() });
  expect(res.statusCode, res.body).toBe(200);
  return sendMessageResponseSchema.parse(res.json()).message;
}

/** a writes to b, b answers rudely, a reports b's message: the report's complaint id. */
async function reportedMessage() {
  const [a, b] = [await member(), await member()];
  const first = await send(t, a, { profile: b.profileId }, 'Hi B');
  const conversation = first.conversation_id;
  const rude = await send(t, b, { conversation }, 'You are rude');
  const res = await callAs(t, a, 'POST', '/api/chat-report.php', { conversation, message: rude.id, reason: 'harassment' });
  expect(res.statusCode, res.body).toBe(200);
  const [row] = await t.ctx.db.select().from(complaints).where(eq(complaints.reference, res.json().reference));
  return { a, b, conversation, rude, complaintId: row.id, reference: row.reference };
}

const item = (kind: string, id: number) => `/api/console/moderation/items/${kind}/${id}`;
const act = (who: StaffMember, kind: string, id: number, body: Record<string, unknown>) =>
  callAsStaff(t, who, 'POST', `${item(kind, id)}/actions`, body);

async function lastAudit() {
  const [row] = await t.ctx.db.select().from(auditLog).orderBy(desc(auditLog.id)).limit(1);
  return row;
}

describe('who may use moderation', () => {
  it('refuses visitors and members (401), support (403), and lets moderators and admins in', async () => {
    const { complaintId } = await reportedMessage();
    const someone = await createMember(t);
    const routes: ['GET' | 'POST', string, unknown?][] = [
      ['GET', '/api/console/moderation/queue'],
      ['GET', item('message_report', complaintId)],
      ['POST', `${item('message_report', complaintId)}/actions`, { action: 'bogus' }],
      ['POST', '/api/console/moderation/sanctions/999999/undo'],
      ['GET', '/api/console/moderation/photos/999999'],
    ];
    for (const [method, url, body] of routes) {
      expect((await callAsStaff(t, null, method, url, body)).statusCode, url).toBe(401);
      expect((await call(t, method, url, body, { cookie: someone.cookie })).statusCode, url).toBe(401);
      expect((await callAsStaff(t, support, method, url, body)).statusCode, url).toBe(403);
      for (const who of [moderator, admin]) {
        const res = await callAsStaff(t, who, method, url, body);
        expect([200, 400, 404], `${url} ${res.body}`).toContain(res.statusCode);
      }
    }
  });

  it('answers 400 to bad input and 404 to an item that is not there', async () => {
    const { complaintId } = await reportedMessage();
    expect((await callAsStaff(t, moderator, 'GET', '/api/console/moderation/queue?kind=nope')).statusCode).toBe(400);
    expect((await callAsStaff(t, moderator, 'GET', '/api/console/moderation/queue?older_than_hours=0')).statusCode).toBe(400);
    expect((await callAsStaff(t, moderator, 'GET', item('nope', 1))).statusCode).toBe(400);
    expect((await act(moderator, 'message_report', complaintId, { action: 'explode' })).statusCode).toBe(400);
    expect((await act(moderator, 'message_report', complaintId, { action: 'suspend' })).statusCode).toBe(400);
    expect((await act(moderator, 'message_report', complaintId, { action: 'approve_photo' })).statusCode).toBe(400);
    expect((await callAsStaff(t, moderator, 'GET', item('profile_report', complaintId))).statusCode).toBe(404);
    expect((await callAsStaff(t, moderator, 'GET', item('complaint', 999_999_999))).statusCode).toBe(404);
  });
});

describe('the queue and an item', () => {
  it('lists open reports oldest first, filters by kind, site, age and status, and shows a message in its conversation', async () => {
    const { a, b, complaintId, rude } = await reportedMessage();
    const queue = await callAsStaff(t, moderator, 'GET', '/api/console/moderation/queue?kind=message_report');
    expect(queue.statusCode, queue.body).toBe(200);
    const found = queue.json().items.find((i: { id: number }) => i.id === complaintId);
    expect(found).toMatchObject({ kind: 'message_report', reporter: { name: a.name }, reported: { profile_id: b.profileId } });
    const other = (await callAsStaff(t, moderator, 'GET', '/api/console/moderation/queue?kind=profile_report')).json();
    expect(other.items.some((i: { id: number }) => i.id === complaintId)).toBe(false);
    const [site] = await t.ctx.db.select({ siteId: profiles.siteId }).from(profiles).where(eq(profiles.id, a.profileId));
    const bySite = (await callAsStaff(t, moderator, 'GET', `/api/console/moderation/queue?site=${site.siteId}&kind=message_report`)).json();
    expect(bySite.items.some((i: { id: number }) => i.id === complaintId)).toBe(true);
    const young = (await callAsStaff(t, moderator, 'GET', '/api/console/moderation/queue?older_than_hours=1')).json();
    expect(young.items.some((i: { id: number }) => i.id === complaintId)).toBe(false);
    t.clock.advance(2 * 3_600_000);
    const old = (await callAsStaff(t, moderator, 'GET', '/api/console/moderation/queue?older_than_hours=1&kind=message_report')).json();
    expect(old.items.some((i: { id: number }) => i.id === complaintId)).toBe(true);

    const res = await callAsStaff(t, moderator, 'GET', item('message_report', complaintId));
    expect(res.statusCode, res.body).toBe(200);
    const body = res.json();
    expect(body.status).toBe('open');
    expect(body.reported).toMatchObject({ profile_id: b.profileId, is_fictional: false });
    expect(
      body.conversation.messages.map((m: { body: string; from_reported: boolean; is_reported: boolean }) => [
        m.body,
        m.from_reported,
        m.is_reported,
      ]),
    ).toEqual([
      ['Hi B', false, false],
      ['You are rude', true, true],
    ]);
    expect(body.conversation.messages[1].id).toBe(rude.id);
    expect(body.reports_about).toBeGreaterThanOrEqual(1);

    const dismissed = await act(moderator, 'message_report', complaintId, { action: 'dismiss', reason: 'Banter' });
    expect(dismissed.statusCode, dismissed.body).toBe(200);
    const open = (await callAsStaff(t, moderator, 'GET', '/api/console/moderation/queue?kind=message_report')).json();
    expect(open.items.some((i: { id: number }) => i.id === complaintId)).toBe(false);
    const handled = (await callAsStaff(t, moderator, 'GET', '/api/console/moderation/queue?status=handled')).json();
    expect(handled.items.find((i: { id: number }) => i.id === complaintId)).toMatchObject({ resolution: 'dismissed' });
  });

  it('lists photos waiting on a site that moderates photos, approves one and removes another', async () => {
    const who = await member();
    const [row] = await t.ctx.db.select({ siteId: profiles.siteId }).from(profiles).where(eq(profiles.id, who.profileId));
    await t.ctx.db.update(sites).set({ moderatePhotos: true }).where(eq(sites.id, row.siteId));
    t.ctx.sites.invalidate();
    try {
      const ids = [(await uploadPhoto(t, who)).id, (await uploadPhoto(t, who, { seed: 2 })).id];
      const pending = await t.ctx.db.select().from(photos).where(eq(photos.profileId, who.profileId));
      expect(pending.every((p) => p.status === 'pending')).toBe(true);
      const queue = (await callAsStaff(t, moderator, 'GET', `/api/console/moderation/queue?kind=photo&site=${row.siteId}`)).json();
      const listed = queue.items.filter((i: { reported: { profile_id: number } }) => i.reported.profile_id === who.profileId);
      expect(listed).toHaveLength(2);
      const [one, two] = ids;

      const image = await callAsStaff(t, moderator, 'GET', `/api/console/moderation/photos/${one}`);
      expect(image.statusCode).toBe(200);
      expect(image.headers['content-type']).toBe('image/webp');

      expect((await act(moderator, 'photo', one, { action: 'approve_photo' })).statusCode).toBe(200);
      expect(await lastAudit()).toMatchObject({
        action: 'moderation.approve_photo',
        objectType: 'photo',
        objectId: String(one),
        staffId: moderator.id,
      });
      expect((await act(moderator, 'photo', two, { action: 'remove_photo', reason: 'Not a portrait' })).statusCode).toBe(200);
      expect(await lastAudit()).toMatchObject({ action: 'moderation.remove_photo', objectId: String(two) });
      const after = await t.ctx.db.select().from(photos).where(eq(photos.profileId, who.profileId));
      expect(Object.fromEntries(after.map((p) => [p.id, p.status]))).toEqual({ [one]: 'active', [two]: 'rejected' });
      const [profile] = await t.ctx.db.select().from(profiles).where(eq(profiles.id, who.profileId));
      expect(profile.mainPhotoId).toBe(one);
      // A removed photo comes back by approving it (an admin may do all a moderator does).
      const fresh = await createStaffMember(t, 'admin');
      expect((await act(fresh, 'photo', two, { action: 'approve_photo' })).statusCode).toBe(200);
    } finally {
      await t.ctx.db.update(sites).set({ moderatePhotos: false }).where(eq(sites.id, row.siteId));
      t.ctx.sites.invalidate();
    }
  });

  it('refuses to sanction a fictional profile (409)', async () => {
    const who = await member();
    const [row] = await t.ctx.db.select({ siteId: profiles.siteId }).from(profiles).where(eq(profiles.id, who.profileId));
    const fictional = await createProfile(t, { siteId: row.siteId, isFictional: true });
    const [c] = await t.ctx.db
      .insert(complaints)
      .values({
        reference: `C-${randomUUID().slice(0, 8).toUpperCase()}`,
        siteId: row.siteId,
        userId: who.userId,
        name: who.name,
        email: who.email,
        category: 'chat_report',
        subject: 'Fake',
        message: 'Fake profile',
        language: 'en',
        kind: 'profile_report',
        reportedProfileId: fictional.id,
      })
      .returning();
    expect((await act(moderator, 'profile_report', c.id, { action: 'ban' })).statusCode).toBe(409);
  });
});

describe('actions and sanctions', () => {
  it('removes the reported message (refunded), writes the audit row, marks the report handled and tells the reporter', async () => {
    const { a, complaintId, rude, reference } = await reportedMessage();
    const res = await act(moderator, 'message_report', complaintId, { action: 'remove_message', reason: 'Insult' });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toMatchObject({ ok: true, resolution: 'message_removed', sanction: null });
    const [m] = await t.ctx.db.select().from(messages).where(eq(messages.id, rude.id));
    expect(m.status).toBe('rejected');
    expect(await lastAudit()).toMatchObject({
      action: 'moderation.remove_message',
      objectType: 'complaint',
      objectId: String(complaintId),
    });
    const [c] = await t.ctx.db.select().from(complaints).where(eq(complaints.id, complaintId));
    expect(c).toMatchObject({ status: 'handled', resolution: 'message_removed', handledBy: moderator.id });
    const shown = await callAsStaff(t, moderator, 'GET', item('message_report', complaintId));
    expect(shown.json().conversation.messages[1].status).toBe('rejected');

    // The reporter: a notice in the app until seen, and a mail that says nothing of what was done.
    const notices = await callAs(t, a, 'GET', '/api/moderation.php');
    expect(notices.json().handled_reports).toEqual([{ reference, handled_at: expect.any(String) }]);
    expect((await callAs(t, a, 'POST', '/api/moderation.php', { reports: true })).statusCode).toBe(200);
    expect((await callAs(t, a, 'GET', '/api/moderation.php')).json().handled_reports).toEqual([]);
    const mails = await mailsTo(t, a.email, 'report_handled');
    expect(mails).toHaveLength(1);
    expect(mails[0].text).toContain('taken action where needed');
    expect(mails[0].text).not.toContain('removed');
  });

  it('warns: the member sees the warning until they acknowledge it', async () => {
    const { b, complaintId } = await reportedMessage();
    const res = await act(moderator, 'message_report', complaintId, { action: 'warn', reason: 'Be kind' });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().sanction).toMatchObject({ kind: 'warning', reason: 'Be kind', active: true });
    expect(await lastAudit()).toMatchObject({ action: 'moderation.warn' });
    const notices = (await callAs(t, b, 'GET', '/api/moderation.php')).json();
    expect(notices.warning).toMatchObject({ reason: 'Be kind' });
    expect((await callAs(t, b, 'POST', '/api/moderation.php', { warning_id: notices.warning.id })).statusCode).toBe(200);
    expect((await callAs(t, b, 'GET', '/api/moderation.php')).json().warning).toBeNull();
    // A warning ends no session.
    expect((await callAs(t, b, 'GET', '/api/user.php')).statusCode).toBe(200);
  });

  it('suspends: sessions end, login answers 403 suspended with its end, the profile is hidden; undo lifts it', async () => {
    const { a, b, complaintId } = await reportedMessage();
    const res = await act(moderator, 'message_report', complaintId, { action: 'suspend', hours: 24, reason: 'Insults' });
    expect(res.statusCode, res.body).toBe(200);
    const sanction = res.json().sanction;
    expect(sanction).toMatchObject({ kind: 'suspension', active: true, until: expect.any(String) });
    expect(await lastAudit()).toMatchObject({ action: 'moderation.suspend', staffId: moderator.id });
    expect((await callAs(t, b, 'GET', '/api/profile.php')).statusCode).toBe(403);
    const refused = await login(t, b.email, b.password, { host: b.host, ip: b.ip });
    expect(refused.statusCode).toBe(403);
    expect(refused.json()).toMatchObject({ error: 'suspended', until: sanction.until });
    expect((await callAs(t, a, 'GET', `/api/member.php?id=${b.profileId}`)).statusCode).toBe(404);
    const history = (await callAsStaff(t, moderator, 'GET', item('message_report', complaintId))).json();
    expect(history.sanctions[0]).toMatchObject({ id: sanction.id, kind: 'suspension', active: true });

    const undo = await callAsStaff(t, moderator, 'POST', `/api/console/moderation/sanctions/${sanction.id}/undo`);
    expect(undo.statusCode, undo.body).toBe(200);
    expect(undo.json()).toMatchObject({ ok: true, sanction: { active: false }, not_restored: [] });
    expect(await lastAudit()).toMatchObject({ action: 'moderation.undo', objectType: 'sanction', objectId: String(sanction.id) });
    expect((await callAsStaff(t, moderator, 'POST', `/api/console/moderation/sanctions/${sanction.id}/undo`)).statusCode).toBe(409);
    const [profile] = await t.ctx.db.select().from(profiles).where(eq(profiles.id, b.profileId));
    expect(profile.status).toBe('active');
    expect((await login(t, b.email, b.password, { host: b.host, ip: b.ip })).statusCode).toBe(200);
  });

  it('shows a member again once their suspension ran out, by the hourly job, without waiting for their login', async () => {
    const { a, b, complaintId } = await reportedMessage();
    expect((await act(moderator, 'message_report', complaintId, { action: 'suspend', hours: 2 })).statusCode).toBe(200);
    expect(await endRunOutSuspensions(t.ctx)).toBe(0);
    expect((await callAs(t, a, 'GET', `/api/member.php?id=${b.profileId}`)).statusCode).toBe(404);
    const before = t.clock.now();
    t.clock.advance(2 * 3_600_000 + 1_000);
    try {
      expect(await endRunOutSuspensions(t.ctx)).toBeGreaterThanOrEqual(1);
      const [profile] = await t.ctx.db.select().from(profiles).where(eq(profiles.id, b.profileId));
      expect(profile.status).toBe('active');
      expect((await callAs(t, a, 'GET', `/api/member.php?id=${b.profileId}`)).statusCode).toBe(200);
    } finally {
      // The stored messages carry the database's time: the next tests run on a clock beside it again.
      t.clock.set(before);
    }
  });

  it('bans: a banned member cannot log in (403 banned) and their session ends; the answer of undo names a removed message', async () => {
    const { b, complaintId } = await reportedMessage();
    const admin = await createStaffMember(t, 'admin');
    await act(moderator, 'message_report', complaintId, { action: 'remove_message' });
    const res = await act(admin, 'message_report', complaintId, { action: 'ban', reason: 'Threats' });
    expect(res.statusCode, res.body).toBe(200);
    const [row] = await t.ctx.db
      .select()
      .from(memberSanctions)
      .where(and(eq(memberSanctions.userId, b.userId), eq(memberSanctions.kind, 'ban')));
    expect(row).toMatchObject({ staffId: admin.id, complaintId, reason: 'Threats' });
    expect((await callAs(t, b, 'GET', '/api/profile.php')).statusCode).toBe(403);
    const refused = await login(t, b.email, b.password, { host: b.host, ip: b.ip });
    expect(refused.statusCode).toBe(403);
    expect(refused.json().error).toBe('banned');
    // No other way in either: a password reset is refused its session the same way.
    expect((await callAs(t, b, 'POST', '/api/password-reset.php', { email: b.email })).statusCode).toBe(200);
    await t.ctx.mailer.idle();
    const token = /token=([A-Za-z0-9_-]{43})/.exec((await mailsTo(t, b.email, 'reset'))[0].text)?.[1];
    const reset = await callAs(t, b, 'PUT', '/api/password-reset.php', {
      token,
      password: 'another-good-password',
      password_confirm: 'another-good-password',
    });
    expect(reset.statusCode, reset.body).toBe(403);
    expect(reset.json().error).toBe('banned');

    const undo = await callAsStaff(t, admin, 'POST', `/api/console/moderation/sanctions/${row.id}/undo`);
    expect(undo.json().not_restored).toEqual(['message']);
    // The new password was kept (the account is theirs); only the session was refused.
    expect((await login(t, b.email, 'another-good-password', { host: b.host, ip: b.ip })).statusCode).toBe(200);
  });
});

// A second server process: its own connections to the same PostgreSQL database and to Redis.
const withRedis = process.env.AMORA_TEST_DB === 'postgres' && Boolean(process.env.TEST_REDIS_URL);

describe.skipIf(!withRedis)('a ban on two processes (PostgreSQL and Redis)', () => {
  let other: TestApp;
  beforeAll(async () => {
    other = await createTestApp({}, { joining: t });
    await other.app.listen({ port: 0, host: '127.0.0.1' });
  });
  afterAll(async () => {
    await other?.close();
  });

  it("ends the member's session and closes their live socket on the other process at once", async () => {
    const { b, complaintId } = await reportedMessage();
    // b is seen on the other process (its session is in that process's cache) and has a socket there.
    expect((await callAs(other, b, 'GET', '/api/profile.php')).statusCode).toBe(200);
    const url = `ws://127.0.0.1:${(other.app.server.address() as AddressInfo).port}${LIVE_PATH}`;
    const ws = new WebSocket(url, { headers: { host: b.host, cookie: b.cookie, origin: `http://${b.host}` } });
    ws.on('error', () => {});
    const closed = new Promise<number>((resolve) => ws.on('close', (code) => resolve(code)));
    await new Promise<void>((resolve) => ws.on('message', () => resolve()));

    expect((await act(moderator, 'message_report', complaintId, { action: 'ban' })).statusCode).toBe(200);
    expect(await closed).toBe(LIVE_CLOSE.unauthenticated);
    expect((await callAs(other, b, 'GET', '/api/profile.php')).statusCode).toBe(403);
  });
});

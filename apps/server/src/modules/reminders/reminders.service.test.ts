import { randomUUID } from 'node:crypto';
import { memberReminders, profiles, users } from '@amora/db';
import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { call, currentUser, mailsTo } from '../../test/accounts';
import { type CallArgs, callAs, createLike, createMember, createProfile, type Member, uploadPhoto } from '../../test/factories';
import { createTestApp, type TestApp } from '../../test/harness';
import { addNotificationsDisabled } from '../accounts/accounts.service';
import { credit } from '../credits/credits.service';
import { remindToCompleteProfile, remindToConfirm, sendWeeklyUpdates } from './reminders.service';

const SETTINGS = '/api/notifications.php';
const HOUR = 3_600_000;
const DAY = 24 * HOUR;

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(async () => {
  await t?.close();
});
beforeEach(() => {
  t.clock.set(new Date());
});

const as = (...args: CallArgs) => callAs(t, ...args);

/** A member who signed up `ago` before the app's clock. */
async function member(ago: number, options: { activate?: boolean } = {}): Promise<Member> {
  const who = await createMember(t, options);
  await t.ctx.db
    .update(users)
    .set({ signupDate: new Date(t.clock.now().getTime() - ago) })
    .where(eq(users.id, who.userId));
  return who;
}

const mailsOf = async (who: Member, kind: string) => mailsTo(t, who.email, kind);

async function turnOff(who: Member, type: string): Promise<void> {
  const res = await as(who, 'PUT', SETTINGS, { preferences: [{ type, channel: 'email', enabled: false }] });
  expect(res.statusCode, res.body).toBe(200);
}

describe('the reminder to confirm the address', () => {
  it('comes a day after signup with a link that confirms, once more two days later, then never', async () => {
    const early = await member(23 * HOUR, { activate: false });
    const due = await member(25 * HOUR, { activate: false });
    await remindToConfirm(t.ctx);
    expect(await mailsOf(early, 'reminder_confirm')).toHaveLength(0);
    const [mail] = await mailsOf(due, 'reminder_confirm');
    expect(mail?.subject).toBe('Please confirm your email address for Amora');
    expect(mail.listUnsubscribe).toMatch(/\/api\/unsubscribe\.php\?t=/);

    // Its link confirms the address.
    const link = /https?:\/\/\S+\/api\/activate\.php\?token=\S+/.exec(mail.text)?.[0];
    expect(link).toBeDefined();
    const url = new URL(String(link));
    const res = await call(t, 'GET', `${url.pathname}${url.search}`, undefined, { host: due.host });
    expect(res.headers.location).toMatch(/\/activate\/done$/);
    expect((await currentUser(t, due.cookie))?.status).toBe('confirmed');

    // Not again before two days, a second time after them, never a third.
    const again = await member(25 * HOUR, { activate: false });
    await remindToConfirm(t.ctx);
    t.clock.advance(DAY);
    await remindToConfirm(t.ctx);
    expect(await mailsOf(again, 'reminder_confirm')).toHaveLength(1);
    t.clock.advance(DAY + HOUR);
    await remindToConfirm(t.ctx);
    expect(await mailsOf(again, 'reminder_confirm')).toHaveLength(2);
    t.clock.advance(3 * DAY);
    await remindToConfirm(t.ctx);
    expect(await mailsOf(again, 'reminder_confirm')).toHaveLength(2);
    // The member who confirmed got no more.
    expect(await mailsOf(due, 'reminder_confirm')).toHaveLength(1);
  });

  it('does not come to a member who turned reminders off, whose mail stopped, or who signed up two weeks ago', async () => {
    const off = await member(25 * HOUR, { activate: false });
    await turnOff(off, 'reminders');
    const bounced = await member(25 * HOUR, { activate: false });
    await addNotificationsDisabled(t.ctx, bounced.userId, 'bounce');
    const old = await member(15 * DAY, { activate: false });
    await remindToConfirm(t.ctx);
    for (const who of [off, bounced, old]) expect(await mailsOf(who, 'reminder_confirm')).toHaveLength(0);
  });

  it('is sent once when runs of the job overlap', async () => {
    const who = await member(25 * HOUR, { activate: false });
    await Promise.all(Array.from({ length: 10 }, () => remindToConfirm(t.ctx)));
    expect(await mailsOf(who, 'reminder_confirm')).toHaveLength(1);
    const [row] = await t.ctx.db
      .select()
      .from(memberReminders)
      .where(and(eq(memberReminders.userId, who.userId), eq(memberReminders.kind, 'confirm_address')));
    expect(row.count).toBe(1);
  });
});

describe('the reminder to complete the profile', () => {
  it('tells a member without a photo what the profile lacks, two days after signup; a member with a photo gets none', async () => {
    const bare = await member(2 * DAY + HOUR);
    const written = await member(2 * DAY + HOUR);
    expect((await as(written, 'PUT', '/api/profile.php', { about: 'I like long walks by the sea.' })).statusCode).toBe(200);
    const pictured = await member(2 * DAY + HOUR);
    await uploadPhoto(t, pictured);
    const unconfirmed = await member(2 * DAY + HOUR, { activate: false });
    await remindToCompleteProfile(t.ctx);

    const [mail] = await mailsOf(bare, 'reminder_profile');
    expect(mail?.subject).toBe('Add a photo to your profile on Amora');
    expect(mail.text).toContain('- a photo of you');
    expect(mail.text).toContain('- a few words about yourself');
    expect(mail.text).toMatch(/\/profile\b/);
    const [other] = await mailsOf(written, 'reminder_profile');
    expect(other.text).toContain('- a photo of you');
    expect(other.text).not.toContain('a few words about yourself');
    expect(await mailsOf(pictured, 'reminder_profile')).toHaveLength(0);
    expect(await mailsOf(unconfirmed, 'reminder_profile')).toHaveLength(0);

    // Once more a week later, then never.
    t.clock.advance(7 * DAY + HOUR);
    await remindToCompleteProfile(t.ctx);
    t.clock.advance(7 * DAY + HOUR);
    await remindToCompleteProfile(t.ctx);
    expect(await mailsOf(bare, 'reminder_profile')).toHaveLength(2);
  });
});

describe('the weekly update', () => {
  /** Members and fictional profiles who would be suggested to each other: same site and country, open to everyone. */
  async function openToEveryone(who: Member): Promise<void> {
    await t.ctx.db.update(profiles).set({ country: 'NL', sexuality: 'bisexual' }).where(eq(profiles.id, who.profileId));
  }

  it('tells what waits (likes, unread messages) and suggests members, a fictional one labelled, once a week', async () => {
    const me = await member(8 * DAY);
    await openToEveryone(me);
    const [row] = await t.ctx.db.select({ siteId: profiles.siteId }).from(profiles).where(eq(profiles.id, me.profileId));
    const writer = await member(8 * DAY);
    await credit(t.ctx, { userId: writer.userId, siteId: row.siteId, amount: 100, reason: 'test' });
    const sent = await as(writer, 'POST', '/api/messages.php', { profile: me.profileId, body: 'Hi!', client_id: randomUUID() });
    expect(sent.statusCode, sent.body).toBe(200);
    const liker = await createProfile(t, { siteId: row.siteId, name: 'Liker' });
    await createLike(t, liker.id, me.profileId);
    const fictional = await createProfile(t, {
      siteId: row.siteId,
      name: 'Noor',
      isFictional: true,
      sexuality: 'bisexual',
      city: 'Utrecht',
    });

    const young = await member(6 * DAY);
    await sendWeeklyUpdates(t.ctx);
    expect(await mailsOf(young, 'weekly_update')).toHaveLength(0);
    const [mail] = await mailsOf(me, 'weekly_update');
    expect(mail?.subject).toBe('Your week on Amora');
    expect(mail.text).toContain('- 1 new like');
    expect(mail.text).toContain('- 1 unread message');
    expect(mail.text).toMatch(/- Noor \(.+\), \d+, Utrecht/);
    expect(mail.text).not.toContain('Hi!');
    expect(mail.text).toMatch(/\/chats\b/);
    expect(mail.listUnsubscribe).toMatch(/\/api\/unsubscribe\.php\?t=/);
    expect(fictional.isFictional).toBe(true);

    t.clock.advance(6 * DAY);
    await sendWeeklyUpdates(t.ctx);
    expect(await mailsOf(me, 'weekly_update')).toHaveLength(1);
    t.clock.advance(DAY + HOUR);
    await sendWeeklyUpdates(t.ctx);
    expect(await mailsOf(me, 'weekly_update')).toHaveLength(2);
  });

  it('does not come to a member who turned it off', async () => {
    const off = await member(8 * DAY);
    await turnOff(off, 'weekly_updates');
    await createLike(t, (await createProfile(t, {})).id, off.profileId);
    await sendWeeklyUpdates(t.ctx);
    expect(await mailsOf(off, 'weekly_update')).toHaveLength(0);
  });
});

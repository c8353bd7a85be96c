import { randomUUID } from 'node:crypto';
import { NOTIFICATION_CHANNELS_OF, NOTIFICATION_TYPES, notificationSettingsSchema } from '@amora/contracts';
import { jobs, notificationPreferences, outboxEmails, profiles, users } from '@amora/db';
import { and, eq, like } from 'drizzle-orm';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { HERZ, mailsTo } from '../../test/accounts';
import { type CallArgs, callAs, createLike, createMember, createProfile, type Member } from '../../test/factories';
import { createTestApp, type TestApp } from '../../test/harness';
import { addNotificationsDisabled } from '../accounts/accounts.service';
import { credit } from '../credits/credits.service';
import { markPresence } from './notifications.service';
import { remindOfUnread } from './unread-reminder.service';

const SETTINGS = '/api/notifications.php';
const UNSUBSCRIBE = '/api/unsubscribe.php';
const MINUTE = 60_000;
const HOUR = 60 * MINUTE;

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

async function member(options: { host?: string } = {}): Promise<Member> {
  const who = await createMember(t, options);
  const [row] = await t.ctx.db.select({ siteId: profiles.siteId }).from(profiles).where(eq(profiles.id, who.profileId));
  await credit(t.ctx, { userId: who.userId, siteId: row.siteId, amount: 1_000, reason: 'test' });
  return who;
}

async function send(from: Member, to: Member, body = 'Hello'): Promise<void> {
  const res = await as(from, 'POST', '/api/messages.php', { profile: to.profileId, body, client_id: randomUUID() });
  expect(res.statusCode, res.body).toBe(200);
}

/** Activity mails to the member, newest first. */
const activityMails = async (who: Member) => (await mailsTo(t, who.email)).filter((mail) => mail.kind.startsWith('activity_'));

/** Lets `ms` pass on the app's clock and runs the jobs that are due. */
async function after(ms: number): Promise<void> {
  t.clock.advance(ms);
  await t.ctx.jobs.runDue();
}

describe('GET and PUT /api/notifications.php', () => {
  it('answers every type by email and push with its default, no reason mail stopped, and my address', async () => {
    const me = await member();
    const res = await as(me, 'GET', SETTINGS);
    expect(res.statusCode, res.body).toBe(200);
    const settings = notificationSettingsSchema.parse(res.json());
    expect(settings.preferences).toHaveLength(NOTIFICATION_TYPES.reduce((sum, type) => sum + NOTIFICATION_CHANNELS_OF[type].length, 0));
    // The weekly update, the reminders, news and promotions come by mail alone.
    expect(settings.preferences.filter((p) => p.channel === 'push').map((p) => p.type)).toEqual([
      'new_conversations',
      'new_messages',
      'like',
      'unread_message_reminders',
    ]);
    const find = (type: string, channel: string) => settings.preferences.find((p) => p.type === type && p.channel === channel)?.enabled;
    expect(find('new_messages', 'email')).toBe(true);
    expect(find('promotions', 'email')).toBe(false);
    expect(find('news', 'push')).toBeUndefined();
    expect(settings.disabled).toEqual([]);
    expect(settings.email).toBe(me.email);
    expect(settings.push_subscribed).toBe(false);
  });

  it('saves the changes it is given and keeps the rest; another member keeps theirs', async () => {
    const [me, other] = [await member(), await member()];
    const res = await as(me, 'PUT', SETTINGS, {
      preferences: [
        { type: 'like', channel: 'email', enabled: false },
        { type: 'news', channel: 'email', enabled: true },
      ],
    });
    expect(res.statusCode, res.body).toBe(200);
    const mine = notificationSettingsSchema.parse(res.json()).preferences;
    expect(mine.find((p) => p.type === 'like' && p.channel === 'email')?.enabled).toBe(false);
    expect(mine.find((p) => p.type === 'like' && p.channel === 'push')?.enabled).toBe(true);
    expect(mine.find((p) => p.type === 'news' && p.channel === 'email')?.enabled).toBe(true);
    const theirs = notificationSettingsSchema.parse((await as(other, 'GET', SETTINGS)).json()).preferences;
    expect(theirs.find((p) => p.type === 'like' && p.channel === 'email')?.enabled).toBe(true);
  });

  it('refuses bad input with a 400 and changes nothing', async () => {
    const me = await member();
    for (const body of [
      {},
      { preferences: [] },
      { preferences: [{ type: 'spam', channel: 'email', enabled: false }] },
      { preferences: [{ type: 'like', channel: 'sms', enabled: false }] },
      { preferences: [{ type: 'news', channel: 'push', enabled: true }] },
      { preferences: [{ type: 'like', channel: 'email', enabled: 'no' }] },
      { preferences: [{ type: 'like', channel: 'email', enabled: false, user_id: 1 }] },
      {
        preferences: [
          { type: 'like', channel: 'email', enabled: false },
          { type: 'like', channel: 'email', enabled: true },
        ],
      },
      { preferences: [{ type: 'like', channel: 'email', enabled: false }], user_id: 1 },
    ]) {
      const res = await as(me, 'PUT', SETTINGS, body);
      expect(res.statusCode, JSON.stringify(body)).toBe(400);
    }
    const stored = await t.ctx.db.select().from(notificationPreferences).where(eq(notificationPreferences.userId, me.userId));
    expect(stored).toEqual([]);
  });

  it('asks a visitor to log in', async () => {
    for (const [method, body] of [
      ['GET', undefined],
      ['PUT', { preferences: [{ type: 'like', channel: 'email', enabled: false }] }],
      ['POST', { reasons: ['bounce'] }],
    ] as const) {
      const res = await as(null, method, SETTINGS, body);
      expect(res.statusCode, method).toBe(403);
      expect(res.json().authentication_required).toBe(true);
    }
  });
});

describe('the activity mail', () => {
  it('makes one mail of 20 messages in a minute, sent a minute after the first, while the member is away', async () => {
    const [a, b] = [await member(), await member()];
    for (let i = 0; i < 20; i++) {
      await send(a, b, `Message ${i + 1}`);
      t.clock.advance(2_500);
    }
    await after(10_000);
    expect(await activityMails(b)).toHaveLength(1);
    const [mail] = await activityMails(b);
    expect(mail.kind).toBe('activity_message');
    expect(mail.subject).toBe(`${a.name} sent you a message on Amora`);
    expect(mail.text).toContain(`${a.name} wrote you 20 messages`);
    // The message's text is the member's to read on the site, not in a mail.
    expect(mail.text).not.toContain('Message 1');
    expect(mail.text).toMatch(new RegExp(`/members/${a.profileId}/chat`));
    // Nothing more in the minutes after: the next messages wait for the end of the digest window.
    await send(a, b, 'Are you there?');
    await after(5 * MINUTE);
    expect(await activityMails(b)).toHaveLength(1);
    await after(10 * MINUTE);
    const mails = await activityMails(b);
    expect(mails).toHaveLength(2);
    expect(mails[0].text).toContain(`${a.name} wrote you 1 message`);
  });

  it('sends nothing while the member is on the site, and mails what is unread once they go away', async () => {
    const [a, b] = [await member(), await member()];
    await markPresence(t.ctx, b.userId, true);
    await send(a, b);
    await after(MINUTE + 1_000);
    expect(await activityMails(b)).toHaveLength(0);
    await markPresence(t.ctx, b.userId, false);
    await after(MINUTE + 1_000);
    expect(await activityMails(b)).toHaveLength(1);
  });

  it('tells nothing the member has read meanwhile', async () => {
    const [a, b] = [await member(), await member()];
    await send(a, b);
    const chats = (await as(b, 'GET', '/api/chats.php')).json() as { chats: { conversation: { id: number } }[] };
    const conversation = chats.chats[0].conversation.id;
    const read = await as(b, 'POST', '/api/chat-read.php', { conversation });
    expect(read.statusCode, read.body).toBe(200);
    await after(MINUTE + 1_000);
    expect(await activityMails(b)).toHaveLength(0);
  });

  it('respects the choices: no mail for a type turned off, none while mail is stopped', async () => {
    const [a, b, c] = [await member(), await member(), await member()];
    await as(b, 'PUT', SETTINGS, { preferences: [{ type: 'new_conversations', channel: 'email', enabled: false }] });
    await send(a, b);
    await after(MINUTE + 1_000);
    expect(await activityMails(b)).toHaveLength(0);

    await addNotificationsDisabled(t.ctx, c.userId, 'bounce');
    await send(a, c);
    await after(MINUTE + 1_000);
    expect(await activityMails(c)).toHaveLength(0);
  });

  it('tells of a like, and of the match to the one who liked first', async () => {
    const [a, b] = [await member(), await member()];
    expect((await as(a, 'POST', '/api/like.php', { profile_id: b.profileId, source: 'profile' })).statusCode).toBeLessThan(300);
    await after(MINUTE + 1_000);
    const [liked] = await activityMails(b);
    expect(liked?.kind).toBe('activity_like');
    expect(liked.subject).toBe(`${a.name} likes you on Amora`);

    expect((await as(b, 'POST', '/api/like.php', { profile_id: a.profileId, source: 'profile' })).statusCode).toBeLessThan(300);
    await after(MINUTE + 1_000);
    const [matched] = await activityMails(a);
    expect(matched?.kind).toBe('activity_match');
    expect(matched.subject).toBe(`It's a match on Amora: ${b.name} likes you too`);
    // The one who liked back saw the match at once: no mail about it.
    expect((await activityMails(b)).map((mail) => mail.kind)).toEqual(['activity_like']);
  });

  it('labels a fictional profile as the site does', async () => {
    const b = await member();
    const [row] = await t.ctx.db.select({ siteId: profiles.siteId }).from(profiles).where(eq(profiles.id, b.profileId));
    const fictional = await createProfile(t, { siteId: row.siteId, name: 'Noor', isFictional: true });
    await createLike(t, fictional.id, b.profileId);
    await t.ctx.jobs.enqueue(t.ctx.db, 'notifications.mail', { userId: b.userId });
    await t.ctx.jobs.runDue();
    const [mail] = await activityMails(b);
    expect(mail.subject).toMatch(/^Noor \(.+\) likes you on Amora$/);
  });
});

describe('the reminder of unread messages', () => {
  const reminders = async (who: Member) => (await mailsTo(t, who.email)).filter((mail) => mail.kind === 'unread_reminder');

  it('comes once a message has waited a day while the member was away, says who wrote, and not again for 3 days', async () => {
    const [a, b] = [await member(), await member()];
    await send(a, b, 'Hi there');
    await send(a, b, 'Still there?');
    await after(MINUTE + 1_000);
    expect(await activityMails(b)).toHaveLength(1);
    await remindOfUnread(t.ctx);
    expect(await reminders(b)).toHaveLength(0);

    t.clock.advance(25 * HOUR);
    await remindOfUnread(t.ctx);
    const [reminder] = await reminders(b);
    expect(reminder?.subject).toBe('2 messages are waiting for you on Amora');
    expect(reminder.text).toContain(`- ${a.name}: 2 new messages`);
    expect(reminder.text).not.toContain('Still there?');
    expect(reminder.listUnsubscribe).toMatch(/\/api\/unsubscribe\.php\?t=/);

    await remindOfUnread(t.ctx);
    t.clock.advance(48 * HOUR);
    await remindOfUnread(t.ctx);
    expect(await reminders(b)).toHaveLength(1);
    t.clock.advance(25 * HOUR);
    await remindOfUnread(t.ctx);
    expect(await reminders(b)).toHaveLength(2);
  });

  it('comes by push too, naming the conversation waiting; by push alone to a member whose mail is off', async () => {
    const [a, e, b, c] = [await member(), await member(), await member(), await member()];
    await send(a, b);
    await send(e, c);
    await as(c, 'PUT', SETTINGS, { preferences: [{ type: 'unread_message_reminders', channel: 'email', enabled: false }] });
    t.clock.advance(25 * HOUR);
    await remindOfUnread(t.ctx);
    const pushes = async (who: Member) =>
      (await t.ctx.db.select({ payload: jobs.payload }).from(jobs).where(eq(jobs.name, 'push.notify')))
        .map((job) => job.payload as { userId: number; type: string; fromProfileId: number })
        .filter((payload) => payload.userId === who.userId && payload.type === 'unread_message_reminders');
    expect(await reminders(b)).toHaveLength(1);
    expect(await pushes(b)).toEqual([expect.objectContaining({ fromProfileId: a.profileId })]);
    expect(await reminders(c)).toHaveLength(0);
    expect(await pushes(c)).toEqual([expect.objectContaining({ fromProfileId: e.profileId })]);
  });

  it('does not come for what was read, nor to a member who turned it off or whose mail stopped', async () => {
    // A free member starts two conversations at most: two writers.
    const [a, e, b, c, d] = [await member(), await member(), await member(), await member(), await member()];
    await send(a, b);
    await send(a, c);
    await send(e, d);
    const chats = (await as(b, 'GET', '/api/chats.php')).json() as { chats: { conversation: { id: number } }[] };
    expect((await as(b, 'POST', '/api/chat-read.php', { conversation: chats.chats[0].conversation.id })).statusCode).toBe(200);
    await as(c, 'PUT', SETTINGS, { preferences: [{ type: 'unread_message_reminders', channel: 'email', enabled: false }] });
    await addNotificationsDisabled(t.ctx, d.userId, 'fbl');
    t.clock.advance(25 * HOUR);
    await remindOfUnread(t.ctx);
    for (const who of [b, c, d]) expect(await reminders(who)).toHaveLength(0);
  });
});

describe('unsubscribe links', () => {
  async function mailOf(): Promise<{ b: Member; token: string; oneClick: string }> {
    const [a, b] = [await member(), await member()];
    await send(a, b);
    await after(MINUTE + 1_000);
    const [mail] = await activityMails(b);
    expect(mail.listUnsubscribe).toMatch(/^http:\/\/[^/]+\/api\/unsubscribe\.php\?t=/);
    const token = new URL(mail.listUnsubscribe as string).searchParams.get('t') as string;
    expect(mail.text).toContain(`/unsubscribe?t=${token}`);
    expect(mail.html).toContain(`/unsubscribe?t=${token}`);
    expect(mail.text).toContain('/notifications');
    return { b, token, oneClick: new URL(mail.listUnsubscribe as string).pathname + new URL(mail.listUnsubscribe as string).search };
  }
  const disabledOf = async (who: Member) =>
    (await t.ctx.db.select({ d: users.notificationsDisabled }).from(users).where(eq(users.id, who.userId)))[0].d;

  it('one click (a POST without our header, as a mail client sends it) stops all mail that is not essential', async () => {
    const { b, oneClick } = await mailOf();
    const res = await t.app.inject({
      method: 'POST',
      url: oneClick,
      headers: { host: 'localhost:3000', 'content-type': 'application/x-www-form-urlencoded' },
      payload: 'List-Unsubscribe=One-Click',
    });
    expect(res.statusCode, res.body).toBe(200);
    expect(await disabledOf(b)).toEqual(['listunsubscribe']);
    // Twice changes nothing more.
    await t.app.inject({ method: 'POST', url: oneClick, headers: { host: 'localhost:3000', 'content-type': 'text/plain' }, payload: '' });
    expect(await disabledOf(b)).toEqual(['listunsubscribe']);
    const settings = notificationSettingsSchema.parse((await as(b, 'GET', SETTINGS)).json());
    expect(settings.disabled).toEqual(['listunsubscribe']);
  });

  it('a GET changes nothing; the page stops one type or all, by its PUT', async () => {
    const { b, token } = await mailOf();
    const info = await as(null, 'GET', `${UNSUBSCRIBE}?t=${token}`);
    expect(info.statusCode, info.body).toBe(200);
    expect(info.json()).toEqual({ type: 'new_conversations', site: 'Amora', done: false });
    expect(await disabledOf(b)).toEqual([]);

    expect((await as(null, 'PUT', `${UNSUBSCRIBE}?t=${token}`, { scope: 'type' })).statusCode).toBe(200);
    const settings = notificationSettingsSchema.parse((await as(b, 'GET', SETTINGS)).json());
    expect(settings.preferences.find((p) => p.type === 'new_conversations' && p.channel === 'email')?.enabled).toBe(false);
    expect(settings.disabled).toEqual([]);

    expect((await as(null, 'PUT', `${UNSUBSCRIBE}?t=${token}`, { scope: 'all' })).statusCode).toBe(200);
    expect(await disabledOf(b)).toEqual(['listunsubscribe']);
    expect((await as(null, 'GET', `${UNSUBSCRIBE}?t=${token}`)).json().done).toBe(true);
  });

  it('refuses a token that is not valid here, and changes nothing', async () => {
    const { b, token } = await mailOf();
    const [payload, signature] = token.split('.');
    const forged = `${Buffer.from(`${b.userId + 1}.like`).toString('base64url')}.${signature}`;
    const flipped = `${payload}.${signature.slice(0, -2)}${signature.endsWith('AA') ? 'BB' : 'AA'}`;
    for (const bad of [forged, flipped, 'x', `${payload}.`, `${payload}.${'A'.repeat(43)}`]) {
      for (const [method, body] of [
        ['GET', undefined],
        ['PUT', { scope: 'all' }],
      ] as const) {
        const res = await as(null, method, `${UNSUBSCRIBE}?t=${encodeURIComponent(bad)}`, body);
        expect([400, 404], `${method} ${bad}`).toContain(res.statusCode);
      }
    }
    // The right token on another site is no token there.
    expect((await as(null, 'GET', `${UNSUBSCRIBE}?t=${token}`, undefined, { host: HERZ })).statusCode).toBe(404);
    expect((await as(null, 'PUT', `${UNSUBSCRIBE}?t=${token}`, { scope: 'bogus' })).statusCode).toBe(400);
    expect(await disabledOf(b)).toEqual([]);
  });

  it('lets the member opt in again explicitly', async () => {
    const { b, oneClick } = await mailOf();
    await t.app.inject({ method: 'POST', url: oneClick, headers: { host: 'localhost:3000', 'content-type': 'text/plain' }, payload: '' });
    await addNotificationsDisabled(t.ctx, b.userId, 'bounce');
    expect((await as(b, 'POST', SETTINGS, { reasons: ['nope'] })).statusCode).toBe(400);
    expect((await as(b, 'POST', SETTINGS, { reasons: [] })).statusCode).toBe(400);
    const res = await as(b, 'POST', SETTINGS, { reasons: ['listunsubscribe'] });
    expect(res.statusCode, res.body).toBe(200);
    expect(notificationSettingsSchema.parse(res.json()).disabled).toEqual(['bounce']);
    // Another member's reasons are theirs: my call changes only mine.
    const other = await member();
    await addNotificationsDisabled(t.ctx, other.userId, 'fbl');
    await as(b, 'POST', SETTINGS, { reasons: ['fbl', 'bounce'] });
    expect(await disabledOf(b)).toEqual([]);
    expect(await disabledOf(other)).toEqual(['fbl']);
  });
});

describe('an outbox row of an activity mail', () => {
  it('carries the one-click URL, and an essential mail none', async () => {
    const b = await member();
    const rows = await t.ctx.db
      .select({ kind: outboxEmails.kind, listUnsubscribe: outboxEmails.listUnsubscribe })
      .from(outboxEmails)
      .where(and(eq(outboxEmails.userId, b.userId), like(outboxEmails.kind, 'activation')));
    expect(rows.length).toBeGreaterThan(0);
    for (const row of rows) expect(row.listUnsubscribe).toBeNull();
  });
});

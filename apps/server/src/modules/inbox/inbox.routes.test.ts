import { randomUUID } from 'node:crypto';
import {
  INBOX_CLAIM_MS,
  inboxConversationSchema,
  inboxListSchema,
  messagesResponseSchema,
  sendMessageResponseSchema,
} from '@amora/contracts';
import { auditLog, creditLedger, profiles, users } from '@amora/db';
import { and, desc, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call } from '../../test/accounts';
import { recordEvents } from '../../test/events';
import { callAs, createMember, createProfile, type Member } from '../../test/factories';
import { CLIENT, createTestApp, type TestApp } from '../../test/harness';
import { photoJpeg } from '../../test/images';
import { callAsStaff, createStaffMember, openConsoleStream, type StaffMember, staffCookie } from '../../test/staff';
import { credit } from '../credits/credits.service';
import { currentCode } from '../staff/staff.service';

let t: TestApp;
let operator: StaffMember;
let operator2: StaffMember;
beforeAll(async () => {
  t = await createTestApp();
  operator = await createStaffMember(t, 'operator');
  operator2 = await createStaffMember(t, 'operator');
});
afterAll(async () => {
  await t?.close();
});

async function member(): Promise<Member> {
  const who = await createMember(t);
  const [row] = await t.ctx.db.select({ siteId: profiles.siteId }).from(profiles).where(eq(profiles.id, who.profileId));
  await credit(t.ctx, { userId: who.userId, siteId: row.siteId, amount: 500, reason: 'test' });
  return who;
}

async function send(who: Member, target: { conversation?: number; profile?: number }, body = 'Hello') {
  const res = await callAs(t, who, 'POST', '/api/messages.php', { ...target, body, client_id: randomUUID() });
  expect(res.statusCode, res.body).toBe(200);
  return sendMessageResponseSchema.parse(res.json()).message;
}

/** A member who wrote to a fictional profile: the conversation waiting for an answer. */
async function waiting(body = 'Are you there?') {
  const who = await member();
  const fictional = await createProfile(t, { isFictional: true, about: 'Loves hiking' });
  const { conversation_id: conversation } = await send(who, { profile: fictional.id }, body);
  return { who, fictional, conversation };
}

async function auditRows(action: string, objectId: number) {
  return t.ctx.db
    .select()
    .from(auditLog)
    .where(and(eq(auditLog.action, action), eq(auditLog.objectId, String(objectId))))
    .orderBy(desc(auditLog.id));
}

describe('who may use the inbox', () => {
  it('refuses visitors and members (401), moderators and support (403); lets operators and admins in', async () => {
    const { conversation } = await waiting();
    const someone = await member();
    const routes: [method: 'GET' | 'POST' | 'PUT' | 'DELETE', url: string, body?: unknown][] = [
      ['GET', '/api/console/inbox'],
      ['GET', `/api/console/inbox/${conversation}`],
      ['GET', `/api/console/inbox/${conversation}/photos/1`],
      ['POST', `/api/console/inbox/${conversation}/claim`],
      ['DELETE', `/api/console/inbox/${conversation}/claim`],
      ['POST', `/api/console/inbox/${conversation}/messages`, { text: 'Hi' }],
      ['GET', '/api/console/fictional-profiles'],
      ['POST', '/api/console/fictional-profiles', {}],
      ['PUT', '/api/console/fictional-profiles/1', {}],
      ['GET', '/api/console/fictional-profiles/1/photo'],
      ['GET', '/api/console/live'],
    ];
    const moderator = await createStaffMember(t, 'moderator');
    const support = await createStaffMember(t, 'support');
    for (const [method, url, body] of routes) {
      expect((await callAsStaff(t, null, method, url, body)).statusCode, url).toBe(401);
      expect((await call(t, method, url, body, { cookie: someone.cookie })).statusCode, url).toBe(401);
      expect((await callAsStaff(t, moderator, method, url, body)).statusCode, url).toBe(403);
      expect((await callAsStaff(t, support, method, url, body)).statusCode, url).toBe(403);
    }
    const admin = await createStaffMember(t, 'admin');
    for (const who of [operator, admin]) {
      expect((await callAsStaff(t, who, 'GET', '/api/console/inbox')).statusCode).toBe(200);
      expect((await callAsStaff(t, who, 'GET', `/api/console/inbox/${conversation}`)).statusCode).toBe(200);
      expect((await callAsStaff(t, who, 'GET', '/api/console/fictional-profiles')).statusCode).toBe(200);
    }
  });

  it('refuses bad input (400)', async () => {
    const { conversation } = await waiting();
    expect((await callAsStaff(t, operator, 'GET', '/api/console/inbox?page=0')).statusCode).toBe(400);
    expect((await callAsStaff(t, operator, 'GET', '/api/console/inbox/abc')).statusCode).toBe(400);
    expect((await callAsStaff(t, operator, 'POST', `/api/console/inbox/${conversation}/messages`, { text: '' })).statusCode).toBe(400);
    expect((await callAsStaff(t, operator, 'POST', `/api/console/inbox/${conversation}/messages`, { text: 'a', x: 1 })).statusCode).toBe(
      400,
    );
    expect((await callAsStaff(t, operator, 'POST', '/api/console/fictional-profiles', { site_id: 1, name: 'A' })).statusCode).toBe(400);
    const young = { site_id: 1, name: 'Anna', birth_date: '2020-01-01', gender: 'woman', country: 'NL' };
    expect((await callAsStaff(t, operator, 'POST', '/api/console/fictional-profiles', young)).statusCode).toBe(400);
    const noFlag = { is_fictional: false };
    expect((await callAsStaff(t, operator, 'PUT', '/api/console/fictional-profiles/1', noFlag)).statusCode).toBe(400);
  });
});

describe('the inbox', () => {
  it('lists what waits, the longest waiting first, with the member and the claim; drops it once answered', async () => {
    const first = await waiting('First');
    t.clock.advance(60_000);
    const second = await waiting('Second');
    const list = async () => {
      const res = await callAsStaff(t, operator, 'GET', '/api/console/inbox?site=1');
      expect(res.statusCode, res.body).toBe(200);
      return inboxListSchema.parse(res.json());
    };
    const before = await list();
    const ids = before.items.map((item) => item.conversation_id);
    expect(ids.indexOf(first.conversation)).toBeGreaterThanOrEqual(0);
    expect(ids.indexOf(first.conversation)).toBeLessThan(ids.indexOf(second.conversation));
    const item = before.items.find((i) => i.conversation_id === first.conversation);
    expect(item).toMatchObject({ member: { id: first.who.profileId }, fictional: { id: first.fictional.id }, waiting: 1, claim: null });

    expect((await callAsStaff(t, operator, 'POST', `/api/console/inbox/${first.conversation}/claim`)).statusCode).toBe(200);
    const claimed = (await list()).items.find((i) => i.conversation_id === first.conversation);
    expect(claimed?.claim).toMatchObject({ staff_id: operator.id, mine: true });
    const answered = await callAsStaff(t, operator, 'POST', `/api/console/inbox/${first.conversation}/messages`, { text: 'Hello!' });
    expect(answered.statusCode, answered.body).toBe(200);
    expect((await list()).items.some((i) => i.conversation_id === first.conversation)).toBe(false);
    expect((await list()).items.some((i) => i.conversation_id === second.conversation)).toBe(true);
  });

  it('shows the conversation with both profiles', async () => {
    const { conversation, who, fictional } = await waiting('Tell me about you');
    const res = await callAsStaff(t, operator, 'GET', `/api/console/inbox/${conversation}`);
    expect(res.statusCode, res.body).toBe(200);
    const body = inboxConversationSchema.parse(res.json());
    expect(body.member).toMatchObject({ id: who.profileId, is_fictional: false });
    expect(body.fictional).toMatchObject({ id: fictional.id, is_fictional: true, about: 'Loves hiking' });
    expect(body.messages).toMatchObject([{ from: 'member', body: 'Tell me about you' }]);
    expect(body.unanswered).toBe(true);
    // A conversation between two members is not the inbox's.
    const a = await member();
    const b = await member();
    const between = (await send(a, { profile: b.profileId })).conversation_id;
    expect((await callAsStaff(t, operator, 'GET', `/api/console/inbox/${between}`)).statusCode).toBe(404);
  });
});

describe('claims', () => {
  it('keep a second operator off (409 with the holder), renew, release, and run out', async () => {
    const { conversation } = await waiting();
    const url = `/api/console/inbox/${conversation}/claim`;
    expect((await callAsStaff(t, operator, 'POST', url)).statusCode).toBe(200);
    const refused = await callAsStaff(t, operator2, 'POST', url);
    expect(refused.statusCode).toBe(409);
    expect(refused.json()).toMatchObject({ name: 'Staff operator' });
    // Renewed by claiming again.
    t.clock.advance(INBOX_CLAIM_MS - 1000);
    expect((await callAsStaff(t, operator, 'POST', url)).statusCode).toBe(200);
    t.clock.advance(2000);
    expect((await callAsStaff(t, operator2, 'POST', url)).statusCode).toBe(409);
    // Another's claim is not released by me.
    await callAsStaff(t, operator2, 'DELETE', url);
    expect((await callAsStaff(t, operator2, 'POST', url)).statusCode).toBe(409);
    expect((await callAsStaff(t, operator, 'DELETE', url)).statusCode).toBe(200);
    expect((await auditRows('inbox.release', conversation)).length).toBe(1);
    expect((await callAsStaff(t, operator2, 'POST', url)).statusCode).toBe(200);
    // Once it has run out, another may take it over.
    t.clock.advance(INBOX_CLAIM_MS + 1000);
    expect((await callAsStaff(t, operator, 'POST', url)).statusCode).toBe(200);
  });

  it('20 claims at once: exactly one wins', async () => {
    const { conversation } = await waiting();
    const staff = [operator, operator2, ...(await Promise.all(Array.from({ length: 3 }, () => createStaffMember(t, 'operator'))))];
    const results = await Promise.all(
      Array.from({ length: 20 }, (_, i) => callAsStaff(t, staff[i % staff.length], 'POST', `/api/console/inbox/${conversation}/claim`)),
    );
    const winners = new Set(results.filter((r) => r.statusCode === 200).map((r) => r.json().claim.staff_id));
    expect(winners.size).toBe(1);
    expect(results.every((r) => r.statusCode === 200 || r.statusCode === 409)).toBe(true);
  });
});

describe('answers', () => {
  it('need one’s own live claim', async () => {
    const { conversation } = await waiting();
    const url = `/api/console/inbox/${conversation}/messages`;
    const none = await callAsStaff(t, operator, 'POST', url, { text: 'Hi' });
    expect(none.statusCode).toBe(409);
    expect(none.json().code ?? none.json().error).toBeDefined();
    await callAsStaff(t, operator2, 'POST', `/api/console/inbox/${conversation}/claim`);
    expect((await callAsStaff(t, operator, 'POST', url, { text: 'Hi' })).statusCode).toBe(409);
    t.clock.advance(INBOX_CLAIM_MS + 1000);
    expect((await callAsStaff(t, operator2, 'POST', url, { text: 'Hi' })).statusCode).toBe(409);
  });

  it('reach the member as the fictional profile, labelled, live, free of charge, audited; the claim ends', async () => {
    const { conversation, who, fictional } = await waiting('Hello, anyone?');
    const events = recordEvents(t.ctx.events, 'message.created');
    await callAsStaff(t, operator, 'POST', `/api/console/inbox/${conversation}/claim`);
    const ledgerBefore = await t.ctx.db.select().from(creditLedger).where(eq(creditLedger.userId, who.userId));
    const res = await callAsStaff(t, operator, 'POST', `/api/console/inbox/${conversation}/messages`, { text: 'Hi, I am here' });
    expect(res.statusCode, res.body).toBe(200);
    const messageId = res.json().message_id as number;
    const event = await events.next((e) => e.messageId === messageId);
    events.stop();
    expect(event).toMatchObject({ senderProfileId: fictional.id, recipientProfileId: who.profileId, conversationId: conversation });

    const seen = await callAs(t, who, 'GET', `/api/messages.php?conversation=${conversation}`);
    const body = messagesResponseSchema.parse(seen.json());
    expect(body.profile).toMatchObject({ id: fictional.id, is_fictional: true });
    expect(body.messages.at(-1)).toMatchObject({ id: messageId, from_me: false, sender_profile_id: fictional.id, body: 'Hi, I am here' });
    // The member paid for their own message only.
    expect(await t.ctx.db.select().from(creditLedger).where(eq(creditLedger.userId, who.userId))).toHaveLength(ledgerBefore.length);

    const [row] = await auditRows('inbox.answer', conversation);
    expect(row).toMatchObject({ staffId: operator.id, objectType: 'conversation', after: { message_id: messageId } });
    // The claim ended with the answer; answering again is refused.
    const again = await callAsStaff(t, operator, 'POST', `/api/console/inbox/${conversation}/messages`, { text: 'Again' });
    expect(again.statusCode).toBe(409);
    await callAsStaff(t, operator, 'POST', `/api/console/inbox/${conversation}/claim`);
    const twice = await callAsStaff(t, operator, 'POST', `/api/console/inbox/${conversation}/messages`, { text: 'Again' });
    expect(twice.json()).toMatchObject({ message_key: 'console.inbox.errors.answered' });
  });
});

describe('a member who cannot be answered', () => {
  const inboxIds = async () => {
    const res = await callAsStaff(t, operator, 'GET', '/api/console/inbox?site=1');
    expect(res.statusCode, res.body).toBe(200);
    const all: number[] = [];
    const { pages } = inboxListSchema.parse(res.json());
    for (let page = 1; page <= pages; page++) {
      const body = inboxListSchema.parse((await callAsStaff(t, operator, 'GET', `/api/console/inbox?site=1&page=${page}`)).json());
      all.push(...body.items.map((item) => item.conversation_id));
    }
    return all;
  };

  /** The conversation leaves the inbox, says why, and neither a claim nor an answer is taken (409 with the reason). */
  async function expectUnanswerable(conversation: number, reason: 'blocked' | 'member_unavailable') {
    expect(await inboxIds()).not.toContain(conversation);
    const shown = inboxConversationSchema.parse((await callAsStaff(t, operator, 'GET', `/api/console/inbox/${conversation}`)).json());
    expect(shown.unanswerable).toBe(reason);
    const claim = await callAsStaff(t, operator, 'POST', `/api/console/inbox/${conversation}/claim`);
    expect(claim.statusCode).toBe(409);
    expect(claim.json()).toMatchObject({
      error: reason,
      message_key: `console.inbox.errors.${reason === 'blocked' ? 'blocked' : 'memberUnavailable'}`,
    });
    const answer = await callAsStaff(t, operator, 'POST', `/api/console/inbox/${conversation}/messages`, { text: 'Hello?' });
    expect(answer.statusCode).toBe(409);
    expect(answer.json()).toMatchObject({ error: reason });
  }

  it('is not in the inbox once they blocked the fictional profile, and cannot be answered (409 blocked)', async () => {
    const { who, fictional, conversation } = await waiting('Hi there');
    expect(await inboxIds()).toContain(conversation);
    // Claimed before the block: the claim does not make an answer possible either.
    expect((await callAsStaff(t, operator, 'POST', `/api/console/inbox/${conversation}/claim`)).statusCode).toBe(200);
    expect((await callAs(t, who, 'POST', '/api/block.php', { profile_id: fictional.id })).statusCode).toBe(200);
    await expectUnanswerable(conversation, 'blocked');
    // Unblocked, it waits again.
    expect((await callAs(t, who, 'DELETE', '/api/block.php', { profile_id: fictional.id })).statusCode).toBe(200);
    expect(await inboxIds()).toContain(conversation);
  });

  it('is not in the inbox once their account is deleted, their profile suspended or disabled (409 member_unavailable)', async () => {
    const deleted = await waiting('Deleted soon');
    await t.ctx.db.update(users).set({ status: 'deleted' }).where(eq(users.id, deleted.who.userId));
    await expectUnanswerable(deleted.conversation, 'member_unavailable');

    for (const status of ['suspended', 'disabled']) {
      const gone = await waiting(`Soon ${status}`);
      await t.ctx.db.update(profiles).set({ status }).where(eq(profiles.id, gone.who.profileId));
      await expectUnanswerable(gone.conversation, 'member_unavailable');
      await t.ctx.db.update(profiles).set({ status: 'active' }).where(eq(profiles.id, gone.who.profileId));
      expect(await inboxIds()).toContain(gone.conversation);
    }
  });

  it('stays in invisible mode: they wrote first, which is what invisible mode asks', async () => {
    const { who, conversation } = await waiting('I am invisible');
    await t.ctx.db.update(profiles).set({ isInvisible: true }).where(eq(profiles.id, who.profileId));
    expect(await inboxIds()).toContain(conversation);
    const shown = inboxConversationSchema.parse((await callAsStaff(t, operator, 'GET', `/api/console/inbox/${conversation}`)).json());
    expect(shown.unanswerable).toBeNull();
    await callAsStaff(t, operator, 'POST', `/api/console/inbox/${conversation}/claim`);
    expect((await callAsStaff(t, operator, 'POST', `/api/console/inbox/${conversation}/messages`, { text: 'Hi!' })).statusCode).toBe(200);
  });
});

describe('the console’s live channel', () => {
  it('tells an open console of a member’s message to a fictional profile, a claim, a release and an answer; not of other chats', async () => {
    const stream = await openConsoleStream(t, operator, '/api/console/live');
    try {
      expect(stream.status).toBe(200);
      expect(stream.headers['content-type']).toMatch(/^text\/event-stream/);
      expect(stream.headers['cache-control']).toBe('no-store');
      await stream.next((frame) => frame.type === 'ready');

      // Two members writing to each other: nothing for the console.
      const a = await member();
      const b = await member();
      const between = (await send(a, { profile: b.profileId }, 'Just us')).conversation_id;
      const { conversation } = await waiting('Anyone there?');
      const isThis = (frame: { type: string; conversation_id?: number }) =>
        frame.type === 'inbox' && frame.conversation_id === conversation;
      expect(await stream.next(isThis)).toEqual({ type: 'inbox', conversation_id: conversation, site_id: 1 });
      expect(stream.frames.some((frame) => frame.type === 'inbox' && frame.conversation_id === between)).toBe(false);

      const count = () => stream.frames.filter(isThis).length;
      const url = `/api/console/inbox/${conversation}`;
      await callAsStaff(t, operator2, 'POST', `${url}/claim`);
      await stream.next(() => count() === 2);
      // Renewing one's own claim changes nothing others see.
      await callAsStaff(t, operator2, 'POST', `${url}/claim`);
      await callAsStaff(t, operator2, 'DELETE', `${url}/claim`);
      await stream.next(() => count() === 3);
      await callAsStaff(t, operator, 'POST', `${url}/claim`);
      await stream.next(() => count() === 4);
      expect((await callAsStaff(t, operator, 'POST', `${url}/messages`, { text: 'Here!' })).statusCode).toBe(200);
      await stream.next(() => count() === 5);
      await t.ctx.events.idle();
      expect(count()).toBe(5);
    } finally {
      stream.close();
    }
  });

  it('refuses a visitor and a member (401), a moderator and support (403); lets an admin in', async () => {
    const someone = await member();
    expect((await openConsoleStream(t, null, '/api/console/live')).status).toBe(401);
    const asMember = await t.app.inject({
      method: 'GET',
      url: '/api/console/live',
      headers: { host: 'localhost:3000', cookie: someone.cookie },
    });
    expect(asMember.statusCode).toBe(401);
    for (const role of ['moderator', 'support'] as const) {
      const refused = await openConsoleStream(t, await createStaffMember(t, role), '/api/console/live');
      expect(refused.status, role).toBe(403);
      expect(refused.frames).toEqual([]);
    }
    const admin = await openConsoleStream(t, await createStaffMember(t, 'admin'), '/api/console/live');
    expect(admin.status).toBe(200);
    await admin.next((frame) => frame.type === 'ready');
    admin.close();
  });

  it('ends with `ended` when the session does: a sign-out, a session ended elsewhere, made inactive, another role', async () => {
    const admin = await createStaffMember(t, 'admin');
    const endedBy = async (end: (who: StaffMember) => Promise<unknown>) => {
      t.clock.advance(31_000);
      const who = await createStaffMember(t, 'operator');
      const stream = await openConsoleStream(t, who, '/api/console/live');
      await stream.next((frame) => frame.type === 'ready');
      await end(who);
      await stream.next((frame) => frame.type === 'ended');
      await stream.ended;
      expect(t.app.consoleLive.ofStaff(who.id)).toEqual([]);
    };
    await endedBy((who) => callAsStaff(t, who, 'POST', '/api/console/logout'));
    await endedBy(async (who) => {
      expect((await callAsStaff(t, admin, 'PUT', `/api/console/staff/${who.id}`, { is_active: false })).statusCode).toBe(200);
    });
    await endedBy((who) => callAsStaff(t, admin, 'PUT', `/api/console/staff/${who.id}`, { role: 'support' }));
    await endedBy(async (who) => {
      // A second session of the same staff member ends the first one from the sessions page.
      t.clock.advance(31_000);
      const other = await call(t, 'POST', '/api/console/login', { email: who.email, password: who.password });
      const second = staffCookie(other);
      const code = await currentCode(who.secret, t.clock.now());
      expect((await call(t, 'POST', '/api/console/login/second-factor', { code }, { cookie: second })).statusCode).toBe(200);
      const sessions = (await call(t, 'GET', '/api/console/sessions', undefined, { cookie: second })).json().sessions as {
        id: string;
        current: boolean;
      }[];
      const first = sessions.find((session) => !session.current);
      expect((await call(t, 'DELETE', `/api/console/sessions/${first?.id}`, undefined, { cookie: second })).statusCode).toBe(200);
    });
  });

  it('ends every stream when the server shuts down', async () => {
    const other = await createTestApp();
    const who = await createStaffMember(other, 'operator');
    const stream = await openConsoleStream(other, who, '/api/console/live');
    await stream.next((frame) => frame.type === 'ready');
    await other.close();
    await stream.ended;
    expect(stream.frames.map((frame) => frame.type)).toEqual(['ready']);
  });
});

// A second server process: its own connections to the same PostgreSQL database and to Redis.
const withRedis = process.env.AMORA_TEST_DB === 'postgres' && Boolean(process.env.TEST_REDIS_URL);

describe.skipIf(!withRedis)('the console’s live channel on two processes', () => {
  it('a member’s message stored through one process reaches a console open on the other; a sign-out there ends it', async () => {
    const other = await createTestApp({}, { joining: t });
    try {
      t.clock.advance(31_000);
      const who = await createStaffMember(t, 'operator');
      const stream = await openConsoleStream(other, who, '/api/console/live');
      await stream.next((frame) => frame.type === 'ready');
      await other.ctx.events.ready();
      const { conversation } = await waiting('Across processes');
      await stream.next((frame) => frame.type === 'inbox' && frame.conversation_id === conversation);
      const list = inboxListSchema.parse((await callAsStaff(other, who, 'GET', '/api/console/inbox?site=1')).json());
      expect(list.total).toBeGreaterThan(0);
      await callAsStaff(t, who, 'POST', '/api/console/logout');
      await stream.next((frame) => frame.type === 'ended');
      await stream.ended;
    } finally {
      await other.close();
    }
  });
});

describe('fictional profiles', () => {
  it('are created, edited and retired, always fictional, each audited', async () => {
    const input = {
      site_id: 1,
      name: 'Lotte',
      birth_date: '1994-03-02',
      gender: 'woman',
      sexuality: 'straight',
      country: 'NL',
      city: 'Utrecht',
      about: 'Coffee and long walks.',
      interests: [],
    };
    const made = await callAsStaff(t, operator, 'POST', '/api/console/fictional-profiles', input);
    expect(made.statusCode, made.body).toBe(200);
    const id = made.json().profile.id as number;
    expect(made.json().profile).toMatchObject({ name: 'Lotte', is_fictional: true, status: 'active', city: 'Utrecht' });
    const [row] = await t.ctx.db.select().from(profiles).where(eq(profiles.id, id));
    expect(row).toMatchObject({ isFictional: true, userId: null, status: 'active' });
    expect(await auditRows('fictional.create', id)).toHaveLength(1);

    const edited = await callAsStaff(t, operator, 'PUT', `/api/console/fictional-profiles/${id}`, { about: 'Tea now.' });
    expect(edited.json().profile).toMatchObject({ about: 'Tea now.', is_fictional: true });
    expect(await auditRows('fictional.update', id)).toHaveLength(1);
    const retired = await callAsStaff(t, operator, 'PUT', `/api/console/fictional-profiles/${id}`, { status: 'retired' });
    expect(retired.json().profile.status).toBe('retired');
    expect(await auditRows('fictional.retire', id)).toHaveLength(1);
    const listed = await callAsStaff(t, operator, 'GET', '/api/console/fictional-profiles?site=1');
    expect(listed.json().profiles.some((p: { id: number }) => p.id === id)).toBe(true);
    // A member's profile is not the console's to edit.
    const someone = await member();
    expect((await callAsStaff(t, operator, 'PUT', `/api/console/fictional-profiles/${someone.profileId}`, { about: 'x' })).statusCode).toBe(
      404,
    );
  });
});

describe('a fictional profile’s photo', () => {
  it('is added through the photo pipeline, becomes the main photo, is served to the console and audited', async () => {
    const made = await callAsStaff(t, operator, 'POST', '/api/console/fictional-profiles', {
      site_id: 1,
      name: 'Mira',
      birth_date: '1992-07-01',
      gender: 'woman',
      country: 'NL',
    });
    const id = made.json().profile.id as number;
    const upload = async (who: StaffMember | null) => {
      const form = new FormData();
      form.append('photo', new Blob([new Uint8Array(await photoJpeg(240, 320, { seed: 3 }))], { type: 'image/jpeg' }), 'mira.jpg');
      const body = new Response(form);
      return t.app.inject({
        method: 'POST',
        url: `/api/console/fictional-profiles/${id}/photos`,
        headers: {
          host: 'localhost:3000',
          ...CLIENT,
          cookie: who?.cookie ?? '',
          'content-type': body.headers.get('content-type') as string,
        },
        payload: Buffer.from(await body.arrayBuffer()),
      });
    };
    expect((await upload(null)).statusCode).toBe(401);
    expect((await upload(await createStaffMember(t, 'support'))).statusCode).toBe(403);
    const res = await upload(operator);
    expect(res.statusCode, res.body).toBe(200);
    const url = res.json().profile.photo_url as string;
    expect(url).toMatch(new RegExp(`^/api/console/fictional-profiles/${id}/photo`));
    const [row] = await t.ctx.db.select().from(profiles).where(eq(profiles.id, id));
    expect(row.mainPhotoId).not.toBeNull();
    const served = await callAsStaff(t, operator, 'GET', url);
    expect(served.statusCode).toBe(200);
    expect(served.headers['content-type']).toBe('image/webp');
    expect(await auditRows('fictional.photo', id)).toHaveLength(1);
  });
});

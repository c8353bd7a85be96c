import { randomUUID } from 'node:crypto';
import {
  INBOX_CLAIM_MS,
  inboxConversationSchema,
  inboxListSchema,
  messagesResponseSchema,
  sendMessageResponseSchema,
} from '@amora/contracts';
import { auditLog, creditLedger, profiles } from '@amora/db';
import { and, desc, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call } from '../../test/accounts';
import { recordEvents } from '../../test/events';
import { callAs, createMember, createProfile, type Member } from '../../test/factories';
import { CLIENT, createTestApp, type TestApp } from '../../test/harness';
import { photoJpeg } from '../../test/images';
import { callAsStaff, createStaffMember, type StaffMember } from '../../test/staff';
import { credit } from '../credits/credits.service';

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

import { randomUUID } from 'node:crypto';
import { readFileSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import {
  CHAT_REPORT_CATEGORY,
  LIVE_PATH,
  type LiveServerFrame,
  liveServerFrameSchema,
  messagesResponseSchema,
  sendMessageResponseSchema,
} from '@amora/contracts';
import { complaints, migrationsFolder, profiles, users } from '@amora/db';
import { count, eq, inArray, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import { recordEvents } from '../../test/events';
import { type CallArgs, callAs, createMember, createProfile, type Member } from '../../test/factories';
import { createTestApp, type TestApp } from '../../test/harness';
import { credit } from '../credits/credits.service';
import { rejectMessage } from './chat.service';
import { listUnansweredToFictional } from './chat-safety.repository';

const ON_REDIS = process.env.AMORA_TEST_DB === 'postgres' && Boolean(process.env.TEST_REDIS_URL);

const REPORT = '/api/chat-report.php';
const RECEIPTS = '/api/read-receipts.php';
const READ = '/api/chat-read.php';
const MESSAGES = '/api/messages.php';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
  await t.app.listen({ port: 0, host: '127.0.0.1' });
});
afterAll(async () => {
  await t?.close();
});

const as = (...args: CallArgs) => callAs(t, ...args);

async function member(): Promise<Member> {
  const who = await createMember(t);
  const [row] = await t.ctx.db.select({ siteId: profiles.siteId }).from(profiles).where(eq(profiles.id, who.profileId));
  await credit(t.ctx, { userId: who.userId, siteId: row.siteId, amount: 500, reason: 'test' });
  return who;
}

async function send(who: Member, target: { conversation?: number; profile?: number }, body = 'Hello') {
  const res = await as(who, 'POST', MESSAGES, { ...target, body, client_id: randomUUID() });
  expect(res.statusCode, res.body).toBe(200);
  return sendMessageResponseSchema.parse(res.json()).message;
}

/** Two members with a conversation: a wrote first, b answered. */
async function pair() {
  const [a, b] = [await member(), await member()];
  const first = await send(a, { profile: b.profileId }, 'Hi B');
  const conversation = first.conversation_id;
  const answer = await send(b, { conversation }, 'You are rude');
  return { a, b, conversation, first, answer };
}

async function complaintCount(): Promise<number> {
  const [{ value }] = await t.ctx.db.select({ value: count() }).from(complaints);
  return value;
}

async function complaintOf(reference: string) {
  const [row] = await t.ctx.db.select().from(complaints).where(eq(complaints.reference, reference));
  return row;
}

async function report(who: Member, payload: Record<string, unknown>) {
  return as(who, 'POST', REPORT, payload);
}

describe('POST /api/chat-report.php', () => {
  it("files a report of the other member's message in the moderation queue, naming the message, conversation and profile", async () => {
    const { a, b, conversation, answer } = await pair();
    const res = await report(a, { conversation, message: answer.id, reason: 'harassment', text: 'Insults after I said hello.' });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toMatchObject({ ok: true, reference: expect.stringMatching(/^C-[A-Z2-9]{8}$/) });
    const row = await complaintOf(res.json().reference);
    expect(row).toMatchObject({
      userId: a.userId,
      category: CHAT_REPORT_CATEGORY,
      status: 'open',
      url: `/chats/${conversation}`,
      name: a.name,
    });
    expect(row.email).toBe(a.email.toLowerCase());
    expect(row.subject).toContain(`message ${answer.id}`);
    expect(row.subject).toContain(`conversation ${conversation}`);
    expect(row.message).toContain(`Reported profile: ${b.profileId} (${b.name})`);
    expect(row.message).toContain('You are rude');
    expect(row.message).toContain('Insults after I said hello.');
  });

  it('files a report of the member without a message', async () => {
    const { b, a, conversation } = await pair();
    const res = await report(b, { conversation, reason: 'fake' });
    expect(res.statusCode, res.body).toBe(200);
    const row = await complaintOf(res.json().reference);
    expect(row.subject).toContain(`profile ${a.profileId}`);
    expect(row.message).toContain('Reason: fake');
  });

  it("answers 404 for another pair's conversation or a message of another conversation, and stores nothing", async () => {
    const one = await pair();
    const two = await pair();
    const before = await complaintCount();
    const other = await report(one.a, { conversation: two.conversation, reason: 'spam' });
    expect(other.statusCode).toBe(404);
    const foreignMessage = await report(one.a, { conversation: one.conversation, message: two.answer.id, reason: 'spam' });
    expect(foreignMessage.statusCode).toBe(404);
    const missing = await report(one.a, { conversation: 999_999_999, reason: 'spam' });
    expect(missing.statusCode).toBe(404);
    expect(await complaintCount()).toBe(before);
  });

  it('refuses reporting my own message with a 400', async () => {
    const { a, conversation, first } = await pair();
    const before = await complaintCount();
    const res = await report(a, { conversation, message: first.id, reason: 'spam' });
    expect(res.statusCode).toBe(400);
    expect(res.json()).toMatchObject({ error: 'validation_failed', field: 'message' });
    expect(await complaintCount()).toBe(before);
  });

  it.each([
    ['reason', { reason: 'boring' }],
    ['reason', { reason: undefined }],
    ['conversation', { conversation: 'x' }],
    ['conversation', { conversation: 0 }],
    ['message', { message: -1 }],
    ['text', { text: 'x'.repeat(1_001) }],
    ['text', { text: 'bad\u0000byte' }],
    ['extra', { extra: 1 }],
  ])('answers 400 for a bad %s and stores nothing (%o)', async (_field, change) => {
    const { a, conversation } = await pair();
    const before = await complaintCount();
    const res = await report(a, { conversation, reason: 'spam', ...change });
    expect(res.statusCode, res.body).toBe(400);
    expect(await complaintCount()).toBe(before);
  });

  it('answers 403 to a visitor', async () => {
    const { conversation } = await pair();
    expect((await as(null, 'POST', REPORT, { conversation, reason: 'spam' })).statusCode).toBe(403);
  });

  it('still works after either side removed the chat, after the other side deleted their account, and on a rejected message', async () => {
    const { a, b, conversation, answer } = await pair();
    // b removes the chat; a removes it too: both can still report.
    expect((await as(b, 'DELETE', '/api/chat.php', { conversation })).statusCode).toBe(200);
    expect((await report(a, { conversation, message: answer.id, reason: 'scam' })).statusCode).toBe(200);
    expect((await as(a, 'DELETE', '/api/chat.php', { conversation })).statusCode).toBe(200);
    expect((await report(a, { conversation, message: answer.id, reason: 'scam' })).statusCode).toBe(200);
    expect((await report(b, { conversation, reason: 'fake' })).statusCode).toBe(200);
    // b takes the like back and deletes the account: a can still report what b wrote.
    await as(b, 'DELETE', '/api/like.php', { profile_id: a.profileId });
    const deleted = await as(b, 'DELETE', '/api/user.php', { password: b.password, reason: 'other' });
    expect(deleted.statusCode, deleted.body).toBe(200);
    const after = await report(a, { conversation, message: answer.id, reason: 'harassment' });
    expect(after.statusCode, after.body).toBe(200);
    expect((await complaintOf(after.json().reference)).message).toContain('You are rude');
    // Moderation rejected the message meanwhile: reporting it is still possible.
    await rejectMessage(t.ctx, answer.id);
    expect((await report(a, { conversation, message: answer.id, reason: 'harassment' })).statusCode).toBe(200);
  });
});

describe('POST /api/chat-report.php with a profile (the report on every profile page)', () => {
  const complaintsAbout = async (profileId: number) =>
    (
      await t.ctx.db
        .select()
        .from(complaints)
        .where(sql`${complaints.message} like ${`Reported profile: ${profileId} %`}`)
    ).length;

  it('files the report of a profile we never chatted with into the same queue, naming the profile and its page', async () => {
    const [a, b] = [await member(), await member()];
    const res = await report(a, { profile: b.profileId, reason: 'fake', text: 'Photos of a celebrity.' });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toMatchObject({ ok: true, reference: expect.stringMatching(/^C-[A-Z2-9]{8}$/) });
    const row = await complaintOf(res.json().reference);
    expect(row).toMatchObject({ userId: a.userId, category: CHAT_REPORT_CATEGORY, status: 'open', url: `/members/${b.profileId}` });
    expect(row.subject).toContain(`profile ${b.profileId}`);
    expect(row.message).toContain(`Reported profile: ${b.profileId} (${b.name})`);
    expect(row.message).toContain(`Reporting profile: ${a.profileId}`);
    expect(row.message).toContain('Reason: fake');
    expect(row.message).toContain('Photos of a celebrity.');
  });

  it('takes one report per reporter and profile a day, from the profile or the chat alike; messages and other reporters still can', async () => {
    const { a, b, conversation, answer } = await pair();
    expect((await report(a, { profile: b.profileId, reason: 'spam' })).statusCode).toBe(200);
    const again = await report(a, { profile: b.profileId, reason: 'scam' });
    expect(again.statusCode).toBe(409);
    expect(again.json()).toMatchObject({ error: 'already_reported', name: b.name, message_key: 'chatSafety.errors.alreadyReported' });
    // Reporting the member from our chat is the same report; one of their messages is another.
    expect((await report(a, { conversation, reason: 'spam' })).statusCode).toBe(409);
    expect((await report(a, { conversation, message: answer.id, reason: 'harassment' })).statusCode).toBe(200);
    // b reporting a is b's own report.
    expect((await report(b, { profile: a.profileId, reason: 'other' })).statusCode).toBe(200);
    expect(await complaintsAbout(b.profileId)).toBe(2);
    if (ON_REDIS) return; // Redis keeps real time; the harness clock drives the database limiter only.
    t.clock.advance(24 * 3_600_000 + 1_000);
    expect((await report(a, { profile: b.profileId, reason: 'spam' })).statusCode).toBe(200);
  });

  it('files one complaint when 100 reports of one profile arrive at once', async () => {
    const [a, b] = [await member(), await member()];
    const results = await Promise.all(Array.from({ length: 100 }, () => report(a, { profile: b.profileId, reason: 'spam' })));
    expect(results.filter((r) => r.statusCode === 200)).toHaveLength(1);
    expect(results.every((r) => [200, 409, 429].includes(r.statusCode))).toBe(true);
    expect(await complaintsAbout(b.profileId)).toBe(1);
  });

  it('refuses reporting myself with a 400 and stores nothing', async () => {
    const a = await member();
    const before = await complaintCount();
    const res = await report(a, { profile: a.profileId, reason: 'spam' });
    expect(res.statusCode).toBe(400);
    expect(res.json()).toMatchObject({ field: 'profile', message_key: 'chatSafety.errors.self' });
    expect(await complaintCount()).toBe(before);
  });

  it.each([
    ['both a conversation and a profile', (c: number, p: number) => ({ conversation: c, profile: p })],
    ['neither', () => ({})],
    ['a message without its conversation', (_c: number, p: number) => ({ profile: p, message: 1 })],
    ['a profile that is no id', () => ({ profile: 'x' })],
    ['a profile of 0', () => ({ profile: 0 })],
  ])('answers 400 for %s and stores nothing', async (_name, target) => {
    const { a, b, conversation } = await pair();
    const before = await complaintCount();
    const res = await report(a, { reason: 'spam', ...target(conversation, b.profileId) });
    expect(res.statusCode, res.body).toBe(400);
    expect(await complaintCount()).toBe(before);
  });

  it('answers the 404 of the profile page for a profile I may not see, and stores nothing', async () => {
    const a = await member();
    const herz = await createMember(t, { host: 'herzklopfen.localhost:3000' });
    const unconfirmed = await createMember(t, { activate: false });
    const invisible = await createProfile(t, { isInvisible: true });
    const before = await complaintCount();
    for (const id of [herz.profileId, unconfirmed.profileId, invisible.id, 999_999_999]) {
      const res = await report(a, { profile: id, reason: 'spam' });
      expect(res.statusCode, String(id)).toBe(404);
      expect(res.json().message).toBe('This profile could not be found');
    }
    expect(await complaintCount()).toBe(before);
  });

  it('reports a fictional profile like any other, marked fictional for moderation; a block either way does not stop a report', async () => {
    const [a, b] = [await member(), await member()];
    const fictional = await createProfile(t, { isFictional: true });
    const res = await report(a, { profile: fictional.id, reason: 'fake' });
    expect(res.statusCode, res.body).toBe(200);
    expect((await complaintOf(res.json().reference)).message).toContain(`Reported profile: ${fictional.id} (${fictional.name}), fictional`);
    expect((await as(b, 'POST', '/api/block.php', { profile_id: a.profileId })).statusCode).toBe(200);
    expect((await report(a, { profile: b.profileId, reason: 'harassment' })).statusCode).toBe(200);
  });

  it('answers 403 to a visitor', async () => {
    const b = await member();
    expect((await as(null, 'POST', REPORT, { profile: b.profileId, reason: 'spam' })).statusCode).toBe(403);
  });
});

describe('read receipts', () => {
  async function messagesOf(who: Member, conversation: number) {
    const res = await as(who, 'GET', `${MESSAGES}?conversation=${conversation}`);
    expect(res.statusCode, res.body).toBe(200);
    return messagesResponseSchema.parse(res.json());
  }
  const setReceipts = async (who: Member, enabled: boolean) => {
    const res = await as(who, 'POST', RECEIPTS, { enabled });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toEqual({ ok: true, enabled });
  };

  it('are on by default: opening the chat raises chat.read to the partner, who sees how far it was read', async () => {
    const [a, b] = [await member(), await member()];
    const { conversation_id: conversation } = await send(a, { profile: b.profileId }, 'One');
    await send(a, { conversation }, 'Two');
    expect((await messagesOf(a, conversation)).partner_read_seq).toBe(0);
    const events = recordEvents(t.ctx.events, 'chat.read');
    expect((await as(b, 'POST', READ, { conversation })).statusCode).toBe(200);
    const event = await events.next((e) => e.conversationId === conversation);
    expect(event).toMatchObject({ seq: 2, profileId: b.profileId, recipientProfileId: a.profileId });
    // Opening it again with nothing new raises nothing more.
    await as(b, 'POST', READ, { conversation });
    await t.ctx.events.idle();
    expect(events.seen.filter((e) => e.conversationId === conversation)).toHaveLength(1);
    events.stop();
    expect((await messagesOf(a, conversation)).partner_read_seq).toBe(2);
  });

  it('turned off by the reader: no chat.read, and neither side sees how far the other read', async () => {
    const [a, b] = [await member(), await member()];
    await setReceipts(b, false);
    const [user] = await t.ctx.db.select().from(users).where(eq(users.id, b.userId));
    expect(user).toMatchObject({ readReceipts: false, notificationsDisabled: [] });
    await setReceipts(b, false);
    const [again] = await t.ctx.db.select().from(users).where(eq(users.id, b.userId));
    expect(again).toMatchObject({ readReceipts: false, notificationsDisabled: [] });
    expect((await as(b, 'GET', '/api/user.php')).json().user).toMatchObject({ read_receipts: false, notifications_disabled: [] });
    const { conversation_id: conversation } = await send(a, { profile: b.profileId }, 'One');
    const events = recordEvents(t.ctx.events, 'chat.read');
    expect((await as(b, 'POST', READ, { conversation })).statusCode).toBe(200);
    await send(b, { conversation }, 'Answer');
    expect((await as(a, 'POST', READ, { conversation })).statusCode).toBe(200);
    await t.ctx.events.idle();
    expect(events.seen.filter((e) => e.conversationId === conversation)).toEqual([]);
    events.stop();
    expect((await messagesOf(a, conversation)).partner_read_seq).toBeNull();
    expect((await messagesOf(b, conversation)).partner_read_seq).toBeNull();
    // On again: both see it.
    await setReceipts(b, true);
    expect((await messagesOf(a, conversation)).partner_read_seq).toBe(2);
    expect((await messagesOf(b, conversation)).partner_read_seq).toBe(2);
  });

  it('off: a read frame on the live channel reaches the partner with nothing', async () => {
    const [a, b] = [await member(), await member()];
    const { conversation_id: conversation } = await send(a, { profile: b.profileId }, 'One');
    const url = `ws://127.0.0.1:${(t.app.server.address() as AddressInfo).port}${LIVE_PATH}`;
    const open = (who: Member) => {
      const ws = new WebSocket(url, { headers: { host: who.host, cookie: who.cookie, origin: `http://${who.host}` } });
      const frames: LiveServerFrame[] = [];
      ws.on('message', (data) => frames.push(liveServerFrameSchema.parse(JSON.parse(data.toString()))));
      ws.on('error', () => {});
      return { ws, frames };
    };
    const waitFor = async (frames: LiveServerFrame[], match: (f: LiveServerFrame) => boolean) => {
      for (let i = 0; i < 100 && !frames.some(match); i++) await new Promise((r) => setTimeout(r, 20));
      return frames.some(match);
    };
    const aLive = open(a);
    const bLive = open(b);
    try {
      expect(await waitFor(aLive.frames, (f) => f.type === 'ready')).toBe(true);
      expect(await waitFor(bLive.frames, (f) => f.type === 'ready')).toBe(true);
      bLive.ws.send(JSON.stringify({ type: 'read', conversation, seq: 1 }));
      expect(await waitFor(aLive.frames, (f) => f.type === 'read' && f.conversation === conversation)).toBe(true);

      await setReceipts(a, false);
      aLive.frames.length = 0;
      bLive.ws.send(JSON.stringify({ type: 'read', conversation, seq: 1 }));
      // The typing frame after it arrives; the read frame before it never does.
      bLive.ws.send(JSON.stringify({ type: 'typing', conversation }));
      expect(await waitFor(aLive.frames, (f) => f.type === 'typing')).toBe(true);
      expect(aLive.frames.filter((f) => f.type === 'read')).toEqual([]);
    } finally {
      aLive.ws.terminate();
      bLive.ws.terminate();
    }
  });

  it('answers 400 for a bad body and 403 to a visitor', async () => {
    const a = await member();
    for (const body of [{}, { enabled: 'no' }, { enabled: true, extra: 1 }]) {
      expect((await as(a, 'POST', RECEIPTS, body)).statusCode).toBe(400);
    }
    const [user] = await t.ctx.db.select().from(users).where(eq(users.id, a.userId));
    expect(user).toMatchObject({ readReceipts: true, notificationsDisabled: [] });
    expect((await as(null, 'POST', RECEIPTS, { enabled: false })).statusCode).toBe(403);
  });

  it('a member turns only their own off', async () => {
    const [a, b] = [await member(), await member()];
    await setReceipts(a, false);
    const rows = await t.ctx.db
      .select()
      .from(users)
      .where(inArray(users.id, [a.userId, b.userId]));
    expect(Object.fromEntries(rows.map((row) => [row.id, row.readReceipts]))).toEqual({ [a.userId]: false, [b.userId]: true });
  });

  it('the migration to their own column moves an old entry of notifications_disabled and keeps the others', async () => {
    const [a, b] = [await member(), await member()];
    await t.ctx.db
      .update(users)
      .set({ notificationsDisabled: ['bounce', 'read_receipts'] })
      .where(eq(users.id, a.userId));
    await t.ctx.db
      .update(users)
      .set({ notificationsDisabled: ['fbl'] })
      .where(eq(users.id, b.userId));
    const migration = readFileSync(join(migrationsFolder, '0009_read_receipts.sql'), 'utf8').split('--> statement-breakpoint');
    await t.ctx.db.execute(sql.raw(migration.at(-1) ?? ''));
    const [rowA] = await t.ctx.db.select().from(users).where(eq(users.id, a.userId));
    const [rowB] = await t.ctx.db.select().from(users).where(eq(users.id, b.userId));
    expect(rowA).toMatchObject({ readReceipts: false, notificationsDisabled: ['bounce'] });
    expect(rowB).toMatchObject({ readReceipts: true, notificationsDisabled: ['fbl'] });
    const me = await as(a, 'GET', '/api/user.php');
    expect(me.statusCode).toBe(200);
    expect(me.json().user).toMatchObject({ read_receipts: false, notifications_disabled: ['bounce'] });
    // Anything else in the column never reaches the user object (it holds fbl, bounce and listunsubscribe only).
    await t.ctx.db
      .update(users)
      .set({ notificationsDisabled: ['read_receipts', 'listunsubscribe'] })
      .where(eq(users.id, b.userId));
    expect((await as(b, 'GET', '/api/user.php')).json().user.notifications_disabled).toEqual(['listunsubscribe']);
  });
});

describe('messages to fictional profiles', () => {
  it('wait in the operator queue until answered; nothing answers by itself', async () => {
    const a = await member();
    const fictional = await createProfile(t, { isFictional: true });
    const other = await createProfile(t, { isFictional: true });
    const { conversation_id: conversation } = await send(a, { profile: fictional.id }, 'Are you real?');
    await send(a, { conversation }, 'Hello?');
    const queue = await listUnansweredToFictional(t.ctx.db, 1);
    const mine = queue.find((row) => row.conversationId === conversation);
    expect(mine).toMatchObject({ fictionalProfileId: fictional.id, memberProfileId: a.profileId, lastSeq: 2, waiting: 2 });
    // Nobody replied: the conversation still holds only the member's two messages.
    const res = await as(a, 'GET', `${MESSAGES}?conversation=${conversation}`);
    expect(messagesResponseSchema.parse(res.json()).messages.map((m) => m.from_me)).toEqual([true, true]);
    // A conversation between two members is never in it.
    const { conversation: between } = await pair();
    expect(queue.some((row) => row.conversationId === between)).toBe(false);
    expect(queue.some((row) => row.fictionalProfileId === other.id)).toBe(false);
    // Another site's queue does not have it.
    expect((await listUnansweredToFictional(t.ctx.db, 2)).some((row) => row.conversationId === conversation)).toBe(false);
  });
});

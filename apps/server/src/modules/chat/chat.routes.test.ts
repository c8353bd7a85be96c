import { randomUUID } from 'node:crypto';
import { chatsResponseSchema, messagesResponseSchema, sendMessageResponseSchema } from '@amora/contracts';
import { blocks, conversations, creditLedger, messages, profiles, users } from '@amora/db';
import { asc, eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call, HERZ, latestToken, signup } from '../../test/accounts';
import { recordEvents } from '../../test/events';
import { type CallArgs, callAs, createMember, createProfile, type Member, type MemberOptions, nextIp } from '../../test/factories';
import { createTestApp, type TestApp } from '../../test/harness';
import { metricValue } from '../../test/metrics';
import { credit, ledger, spend } from '../credits/credits.service';
import { purgeDeletedAccounts } from '../deletion/deletion.service';
import { rejectMessage } from './chat.service';

const CHATS = '/api/chats.php';
const CHAT = '/api/chat.php';
const READ = '/api/chat-read.php';
const MESSAGES = '/api/messages.php';
/** Amora's message_credits (seed). */
const PRICE = 10;

let t: TestApp;

beforeAll(async () => {
  t = await createTestApp();
});
afterAll(async () => {
  await t?.close();
});

const member = (options?: MemberOptions) => createMember(t, options);
const as = (...args: CallArgs) => callAs(t, ...args);
const clientId = (): string => randomUUID();

async function userRow(who: Member) {
  const [row] = await t.ctx.db.select().from(users).where(eq(users.id, who.userId));
  return row;
}

/** Sets a member's balance through the credits ledger. */
async function setCredits(who: Member, amount: number): Promise<void> {
  const { credits } = await userRow(who);
  const siteId = (await t.ctx.db.select().from(profiles).where(eq(profiles.id, who.profileId)))[0].siteId;
  if (credits > amount) await spend(t.ctx, { userId: who.userId, siteId, amount: credits - amount, reason: 'test' });
  if (credits < amount) await credit(t.ctx, { userId: who.userId, siteId, amount: amount - credits, reason: 'test' });
}

const send = (who: Member, target: { conversation?: number; profile?: number }, body = 'Hello there', id = clientId()) =>
  as(who, 'POST', MESSAGES, { ...target, body, client_id: id });

async function sendOk(who: Member, target: { conversation?: number; profile?: number }, body = 'Hello there', id = clientId()) {
  const res = await send(who, target, body, id);
  expect(res.statusCode, res.body).toBe(200);
  return sendMessageResponseSchema.parse(res.json());
}

async function chatsOf(who: Member) {
  const res = await as(who, 'GET', CHATS);
  expect(res.statusCode, res.body).toBe(200);
  return chatsResponseSchema.parse(res.json());
}

async function messagesOf(who: Member, conversation: number, query = '') {
  const res = await as(who, 'GET', `${MESSAGES}?conversation=${conversation}${query}`);
  expect(res.statusCode, res.body).toBe(200);
  return messagesResponseSchema.parse(res.json());
}

async function storedMessages(conversationId: number) {
  return t.ctx.db.select().from(messages).where(eq(messages.conversationId, conversationId)).orderBy(asc(messages.seq));
}

async function ledgerSum(who: Member): Promise<number> {
  const [row] = await t.ctx.db
    .select({ sum: sql<number>`coalesce(sum(${creditLedger.delta}), 0)::int` })
    .from(creditLedger)
    .where(eq(creditLedger.userId, who.userId));
  return row.sum;
}

describe('sending and reading', () => {
  it('starts a conversation with a profile, charges the price, numbers messages and counts unread for the other side', async () => {
    const [a, b] = [await member(), await member()];
    await setCredits(a, 50);
    const events = recordEvents(t.ctx.events, 'message.created');
    const first = await sendOk(a, { profile: b.profileId }, 'Hi B');
    expect(first.message).toMatchObject({ seq: 1, from_me: true, body: 'Hi B', kind: 'text', price: PRICE, status: 'sent' });
    expect(first.credits).toBe(40);
    const conversation = first.message.conversation_id;
    const second = await sendOk(a, { conversation }, 'Still there?');
    expect(second.message.seq).toBe(2);
    expect(second.credits).toBe(30);
    // A message to the profile again lands in the same conversation.
    expect((await sendOk(a, { profile: b.profileId }, 'Third')).message).toMatchObject({ conversation_id: conversation, seq: 3 });

    const event = await events.next((e) => e.conversationId === conversation && e.seq === 3);
    expect(event).toMatchObject({ senderProfileId: a.profileId, recipientProfileId: b.profileId });
    expect(events.seen.filter((e) => e.conversationId === conversation).map((e) => e.seq)).toEqual([1, 2, 3]);
    events.stop();

    const bChats = await chatsOf(b);
    expect(bChats.chats).toHaveLength(1);
    expect(bChats.chats[0]).toMatchObject({
      conversation: { id: conversation, last_seq: 3 },
      profile: { id: a.profileId, name: a.name },
      num_unread_messages: 3,
      last_message: { seq: 3, body: 'Third', from_me: false },
      blocked: null,
    });
    expect(bChats.num_unread_messages).toBe(3);
    expect((await chatsOf(a)).chats[0]).toMatchObject({
      profile: { id: b.profileId },
      num_unread_messages: 0,
      last_message: { from_me: true },
    });

    const page = await messagesOf(b, conversation);
    expect(page.messages.map((m) => [m.seq, m.body, m.from_me])).toEqual([
      [1, 'Hi B', false],
      [2, 'Still there?', false],
      [3, 'Third', false],
    ]);
    // The price and the client id are the sender's business.
    expect(page.messages.every((m) => m.price === 0 && m.client_id === null)).toBe(true);
    expect(page).toMatchObject({ has_more_after: false, has_more_before: false, history_hidden: false, blocked: null });

    // Opening the chat sets its unread count to 0 (spec §4).
    expect((await as(b, 'POST', READ, { conversation })).statusCode).toBe(200);
    expect((await chatsOf(b)).chats[0].num_unread_messages).toBe(0);

    // B answers: A gets one unread; the price came from B's credits (signup credits 20).
    const reply = await sendOk(b, { conversation }, 'Hi A');
    expect(reply.message.seq).toBe(4);
    expect(reply.credits).toBe(10);
    expect((await chatsOf(a)).chats[0].num_unread_messages).toBe(1);
    expect(await ledgerSum(a)).toBe((await userRow(a)).credits);
    expect(await ledgerSum(b)).toBe((await userRow(b)).credits);
    const stored = await storedMessages(conversation);
    expect(stored.map((m) => m.price)).toEqual([PRICE, PRICE, PRICE, PRICE]);
  });

  it('pages: after a sequence, before one, and the newest', async () => {
    const [a, b] = [await member(), await member()];
    await setCredits(a, PRICE * 7);
    const { message } = await sendOk(a, { profile: b.profileId }, 'm1');
    const conversation = message.conversation_id;
    for (let i = 2; i <= 7; i++) await sendOk(a, { conversation }, `m${i}`);
    const newest = await messagesOf(b, conversation, '&limit=3');
    expect(newest.messages.map((m) => m.seq)).toEqual([5, 6, 7]);
    expect(newest).toMatchObject({ has_more_before: true, has_more_after: false });
    const older = await messagesOf(b, conversation, '&before=5&limit=3');
    expect(older.messages.map((m) => m.seq)).toEqual([2, 3, 4]);
    expect(older).toMatchObject({ has_more_before: true, has_more_after: true });
    const after = await messagesOf(b, conversation, '&after=2&limit=4');
    expect(after.messages.map((m) => m.seq)).toEqual([3, 4, 5, 6]);
    expect(after).toMatchObject({ has_more_after: true, has_more_before: true });
    const none = await messagesOf(b, conversation, '&after=7');
    expect(none).toMatchObject({ messages: [], has_more_after: false, has_more_before: true });
    expect(await messagesOf(b, conversation, '&before=1')).toMatchObject({ messages: [], has_more_before: false, has_more_after: true });
  });

  it('hides messages older than the privacy window and says so', async () => {
    const [a, b] = [await member(), await member()];
    const { message } = await sendOk(a, { profile: b.profileId }, 'long ago');
    await sendOk(a, { conversation: message.conversation_id }, 'today');
    await t.ctx.db
      .update(messages)
      .set({ createdAt: new Date(Date.now() - 91 * 86_400_000) })
      .where(eq(messages.id, message.id));
    const page = await messagesOf(b, message.conversation_id);
    expect(page.messages.map((m) => m.body)).toEqual(['today']);
    expect(page).toMatchObject({ history_hidden: true, has_more_before: false });
  });

  it('removes a chat for that member only; a new message brings it back without the old ones', async () => {
    const [a, b] = [await member(), await member()];
    const { message } = await sendOk(a, { profile: b.profileId }, 'before');
    const conversation = message.conversation_id;
    const removed = await as(b, 'DELETE', CHAT, { conversation });
    expect(removed.statusCode, removed.body).toBe(200);
    expect((await chatsOf(b)).chats).toEqual([]);
    expect((await chatsOf(a)).chats.map((c) => c.conversation.id)).toEqual([conversation]);
    expect((await messagesOf(b, conversation)).messages).toEqual([]);
    expect((await messagesOf(a, conversation)).messages).toHaveLength(1);
    await sendOk(a, { conversation }, 'after');
    const back = await chatsOf(b);
    expect(back.chats[0]).toMatchObject({ conversation: { id: conversation }, num_unread_messages: 1 });
    expect((await messagesOf(b, conversation)).messages.map((m) => m.body)).toEqual(['after']);
  });

  it('shows a fictional profile as such', async () => {
    const a = await member();
    const fictional = await createProfile(t, { isFictional: true });
    const { message } = await sendOk(a, { profile: fictional.id }, 'Hi there');
    expect((await chatsOf(a)).chats[0]).toMatchObject({
      conversation: { id: message.conversation_id },
      profile: { id: fictional.id, is_fictional: true },
    });
  });
});

describe('credits', () => {
  it('refuses a send without enough credits: 402, nothing stored, nothing charged', async () => {
    const [a, b] = [await member(), await member()];
    await setCredits(a, PRICE - 1);
    const res = await send(a, { profile: b.profileId });
    expect(res.statusCode, res.body).toBe(402);
    expect(res.json()).toMatchObject({
      error: 'not_enough_credits',
      message: 'Not enough credits to send this message',
      credits: PRICE - 1,
      price: PRICE,
    });
    expect((await userRow(a)).credits).toBe(PRICE - 1);
    expect(await t.ctx.db.select().from(conversations).where(eq(conversations.startedByProfileId, a.profileId))).toEqual([]);
    expect(await ledgerSum(a)).toBe(PRICE - 1);
  });

  it('a retry with the same client id stores and charges once and answers the first message', async () => {
    const [a, b] = [await member(), await member()];
    await setCredits(a, 50);
    const id = clientId();
    const first = await sendOk(a, { profile: b.profileId }, 'Once', id);
    const again = await sendOk(a, { profile: b.profileId }, 'Once', id);
    const byConversation = await sendOk(a, { conversation: first.message.conversation_id }, 'Once', id);
    expect(again.message).toEqual(first.message);
    expect(byConversation.message).toEqual(first.message);
    expect(again.credits).toBe(40);
    // At the same moment, too.
    const id2 = clientId();
    const racing = await Promise.all(
      Array.from({ length: 5 }, () => send(a, { conversation: first.message.conversation_id }, 'Twice?', id2)),
    );
    expect(racing.map((r) => r.statusCode)).toEqual([200, 200, 200, 200, 200]);
    expect(new Set(racing.map((r) => r.json().message.id)).size).toBe(1);
    expect((await storedMessages(first.message.conversation_id)).map((m) => m.seq)).toEqual([1, 2]);
    expect((await userRow(a)).credits).toBe(30);
    expect(await ledgerSum(a)).toBe(30);
  });

  it('a retry rings the doorbell again (its first event may have gone with a killed process), to that conversation only', async () => {
    const [a, b] = [await member(), await member()];
    await setCredits(a, 50);
    const id = clientId();
    const first = await sendOk(a, { profile: b.profileId }, 'Did it arrive?', id);
    const conversation = first.message.conversation_id;
    await t.ctx.events.idle();
    const events = recordEvents(t.ctx.events, 'message.created');
    const again = await sendOk(a, { conversation }, 'Did it arrive?', id);
    expect(again.message).toEqual(first.message);
    const event = await events.next((e) => e.conversationId === conversation);
    expect(event).toMatchObject({ seq: 1, messageId: first.message.id, senderProfileId: a.profileId, recipientProfileId: b.profileId });
    events.stop();
    expect((await storedMessages(conversation)).map((m) => m.seq)).toEqual([1]);
    expect(await ledgerSum(a)).toBe(40);
    // The same client id of another member is their own send, not a retry of this one.
    const other = await member();
    await setCredits(other, 50);
    const theirs = await sendOk(other, { profile: b.profileId }, 'Mine', id);
    expect(theirs.message.conversation_id).not.toBe(conversation);
  });

  it('100 sends at once with credits for 10: exactly 10 stored, sequences 1..10, balance 0', async () => {
    const [a, b] = [await member(), await member()];
    await setCredits(a, PRICE * 11);
    const { message } = await sendOk(a, { profile: b.profileId }, 'start');
    const conversation = message.conversation_id;
    // The balance is read while the sends run: it must never go below zero.
    let lowest = Number.POSITIVE_INFINITY;
    let running = true;
    const watch = (async () => {
      while (running) {
        lowest = Math.min(lowest, (await userRow(a)).credits);
        await new Promise((r) => setTimeout(r, 5));
      }
    })();
    const results = await Promise.all(Array.from({ length: 100 }, (_, i) => send(a, { conversation }, `race ${i}`)));
    running = false;
    await watch;
    const codes = results.map((r) => r.statusCode);
    expect(codes.filter((c) => c === 200)).toHaveLength(10);
    expect(codes.filter((c) => c === 402)).toHaveLength(90);
    const stored = await storedMessages(conversation);
    expect(stored.map((m) => m.seq)).toEqual(Array.from({ length: 11 }, (_, i) => i + 1));
    expect((await userRow(a)).credits).toBe(0);
    expect(lowest).toBeGreaterThanOrEqual(0);
    expect(await ledgerSum(a)).toBe(0);
    const [conv] = await t.ctx.db.select().from(conversations).where(eq(conversations.id, conversation));
    expect(conv.lastSeq).toBe(11);
    expect(conv.lowUnread + conv.highUnread).toBe(11);
  }, 60_000);
  it('both members writing at once, by conversation and by profile: every send stored once, sequences without a gap', async () => {
    const [a, b] = [await member(), await member()];
    await setCredits(a, PRICE * 20);
    await setCredits(b, PRICE * 20);
    const { message } = await sendOk(a, { profile: b.profileId }, 'start');
    const conversation = message.conversation_id;
    const sends = Array.from({ length: 30 }, (_, i) => {
      const who = i % 2 === 0 ? a : b;
      const target = i % 3 === 0 ? { profile: (who === a ? b : a).profileId } : { conversation };
      return send(who, target, `both ${i}`);
    });
    const results = await Promise.all(sends);
    expect(results.map((r) => r.statusCode)).toEqual(Array(30).fill(200));
    const stored = await storedMessages(conversation);
    expect(stored.map((m) => m.seq)).toEqual(Array.from({ length: 31 }, (_, i) => i + 1));
    expect((await userRow(a)).credits).toBe(PRICE * 4);
    expect((await userRow(b)).credits).toBe(PRICE * 5);
    expect(await ledgerSum(a)).toBe(PRICE * 4);
    const [conv] = await t.ctx.db.select().from(conversations).where(eq(conversations.id, conversation));
    // Nobody opened the chat, and writing reads it: each side's unread count is what the other sent after that
    // side's own last message, in sequence order.
    const lowIsA = conv.profileLowId === a.profileId;
    const unreadFor = (me: string) => {
      const mine = stored.filter((m) => m.senderProfileId === (me === 'a' ? a.profileId : b.profileId)).map((m) => m.seq);
      const lastOwn = Math.max(0, ...mine);
      return stored.filter((m) => m.seq > lastOwn && !mine.includes(m.seq)).length;
    };
    expect(lowIsA ? conv.lowUnread : conv.highUnread).toBe(unreadFor('a'));
    expect(lowIsA ? conv.highUnread : conv.lowUnread).toBe(unreadFor('b'));
  }, 60_000);
  it('a message moderation rejects is refunded with a new ledger row, once, and shows without its text', async () => {
    const [a, b] = [await member(), await member()];
    const { message } = await sendOk(a, { profile: b.profileId }, 'Something not allowed');
    expect((await userRow(a)).credits).toBe(20 - PRICE);
    expect(await rejectMessage(t.ctx, message.id)).toBe(true);
    expect(await rejectMessage(t.ctx, message.id)).toBe(false);
    expect((await userRow(a)).credits).toBe(20);
    const entries = await ledger(t.ctx, a.userId);
    expect(entries.map((e) => [e.reason, e.delta])).toEqual([
      ['refund', PRICE],
      ['message', -PRICE],
      ['signup', 20],
    ]);
    for (const who of [a, b]) {
      expect((await messagesOf(who, message.conversation_id)).messages[0]).toMatchObject({ status: 'rejected', body: '' });
      expect((await chatsOf(who)).chats[0].last_message).toMatchObject({ body: '' });
    }
  });
});

describe('sends at the same moment in many conversations (stored together)', () => {
  it('stores and charges each as on its own, and answers refusals and retries among them as on their own', async () => {
    const pairs = await Promise.all(Array.from({ length: 12 }, async () => [await member(), await member()] as const));
    const convs: number[] = [];
    const firstIds: string[] = [];
    for (const [a, b] of pairs) {
      await setCredits(a, PRICE * 5);
      const id = clientId();
      convs.push((await sendOk(a, { profile: b.profileId }, 'start', id)).message.conversation_id);
      firstIds.push(id);
    }
    // Pair 0 runs out of credits; pair 1's partner blocked the sender; pair 2 retries its first send; pair 3's sender
    // also writes in pair 4's conversation, which is not theirs; pair 5 sends a gift. The others write a text.
    await setCredits(pairs[0][0], PRICE - 1);
    await t.ctx.db.insert(blocks).values({ blockerProfileId: pairs[1][1].profileId, blockedProfileId: pairs[1][0].profileId });
    // Pair 6's sender writes twice at once in their one conversation, with credits for one more message only.
    await setCredits(pairs[6][0], PRICE);
    await t.ctx.events.idle();
    const events = recordEvents(t.ctx.events, 'message.created');
    const [batchedBefore, failedBefore] = [
      await metricValue(t.ctx.metrics, 'amora_chat_sends_total', { path: 'batched' }),
      await metricValue(t.ctx.metrics, 'amora_chat_batches_failed_total'),
    ];
    const results = await Promise.all([
      ...pairs.map(([a], i) => {
        if (i === 2) return send(a, { conversation: convs[i] }, 'start', firstIds[i]);
        if (i === 5) return as(a, 'POST', MESSAGES, { conversation: convs[i], gift: 'rose', client_id: clientId() });
        return send(a, { conversation: convs[i] }, `together ${i}`);
      }),
      send(pairs[3][0], { conversation: convs[4] }, 'not mine'),
      send(pairs[6][0], { conversation: convs[6] }, 'together 6, again'),
    ]);
    const [notMine, sixAgain] = results.slice(12);
    expect(results[0].statusCode, results[0].body).toBe(402);
    expect(results[0].json()).toMatchObject({ error: 'not_enough_credits', credits: PRICE - 1, price: PRICE });
    expect(results[1].statusCode, results[1].body).toBe(403);
    expect(results[1].json()).toMatchObject({ error: 'blocked_by_partner', name: pairs[1][1].name });
    expect(results[2].statusCode, results[2].body).toBe(200);
    expect(notMine.statusCode, notMine.body).toBe(404);
    expect([results[6].statusCode, sixAgain.statusCode].sort()).toEqual([200, 402]);
    for (const i of [3, 4, 5, 7, 8, 9, 10, 11]) expect(results[i].statusCode, results[i].body).toBe(200);

    for (const [i, [a]] of pairs.entries()) {
      const stored = await storedMessages(convs[i]);
      const expected = [0, 1, 2].includes(i) ? 1 : 2;
      expect(
        stored.map((m) => m.seq),
        `pair ${i}`,
      ).toEqual(Array.from({ length: expected }, (_, k) => k + 1));
      // Every balance is its ledger's sum, and each answer gave the balance after its own message.
      const { credits } = await userRow(a);
      expect(await ledgerSum(a), `pair ${i}`).toBe(credits);
      if (expected === 2 && i !== 6) {
        const body = results[i].json();
        expect(body.credits, `pair ${i}`).toBe(credits);
        expect(body.message).toMatchObject({ conversation_id: convs[i], seq: 2 });
      }
      const [conv] = await t.ctx.db.select().from(conversations).where(eq(conversations.id, convs[i]));
      expect(conv.lastSeq).toBe(expected);
    }
    expect((await userRow(pairs[6][0])).credits).toBe(0);
    expect(results[2].json().message).toMatchObject({ conversation_id: convs[2], seq: 1 });
    expect((await storedMessages(convs[5]))[1]).toMatchObject({ kind: 'gift', gift: 'rose' });
    // One message.created a stored message, to its partner; the retry's rings again.
    await t.ctx.events.idle();
    events.stop();
    const rang = events.seen.map((e) => e.conversationId).sort((x, y) => x - y);
    expect(rang).toEqual([2, 3, 4, 5, 6, 7, 8, 9, 10, 11].map((i) => convs[i]).sort((x, y) => x - y));
    for (const event of events.seen) {
      const i = convs.indexOf(event.conversationId);
      expect(event).toMatchObject({ senderProfileId: pairs[i][0].profileId, recipientProfileId: pairs[i][1].profileId });
    }
    // No batch failed as a whole. On PostgreSQL sends that wait together are stored together; PGlite's one
    // connection serves one unit of work at a time, so there each send comes when the last has committed.
    expect(await metricValue(t.ctx.metrics, 'amora_chat_batches_failed_total')).toBe(failedBefore);
    const batched = (await metricValue(t.ctx.metrics, 'amora_chat_sends_total', { path: 'batched' })) - batchedBefore;
    if (t.ctx.dbKind === 'postgres') expect(batched).toBeGreaterThan(0);
  }, 60_000);
});

describe('rules', () => {
  it('a free member starts at most two conversations, also at the same moment; answering and a premium member are not limited', async () => {
    const a = await member();
    await setCredits(a, PRICE * 10);
    const others = [await member(), await member(), await member(), await member()];
    const results = await Promise.all(others.map((o) => send(a, { profile: o.profileId })));
    expect(results.map((r) => r.statusCode).sort()).toEqual([200, 200, 403, 403]);
    const refused = results.find((r) => r.statusCode === 403);
    expect(refused?.json()).toMatchObject({ error: 'conversation_limit', limit: 2 });
    expect(await t.ctx.db.select().from(conversations).where(eq(conversations.startedByProfileId, a.profileId))).toHaveLength(2);
    expect((await userRow(a)).credits).toBe(PRICE * 8);

    // Removing a chat does not give a new one.
    const started = (await chatsOf(a)).chats[0].conversation.id;
    await as(a, 'DELETE', CHAT, { conversation: started });
    const refusedOther = others[results.findIndex((r) => r.statusCode === 403)];
    expect((await send(a, { profile: refusedOther.profileId })).statusCode).toBe(403);

    // Someone else starts a conversation with A: A can answer.
    const c = await member();
    const { message } = await sendOk(c, { profile: a.profileId });
    await sendOk(a, { conversation: message.conversation_id }, 'Answer');

    // A premium member is not limited.
    await t.ctx.db.update(users).set({ paidUser: true }).where(eq(users.id, a.userId));
    const d = await member();
    await sendOk(a, { profile: d.profileId });
  });

  it('a member whose email is unconfirmed cannot be answered until they confirm; both sides see why', async () => {
    const [u, a] = [await member({ activate: false }), await member()];
    await setCredits(u, PRICE * 2);
    const { message } = await sendOk(u, { profile: a.profileId }, 'Hello from an unconfirmed member');
    const conversation = message.conversation_id;
    const reply = await send(a, { conversation }, 'Answer');
    expect(reply.statusCode, reply.body).toBe(409);
    expect(reply.json()).toMatchObject({ error: 'partner_unconfirmed', name: u.name });
    expect((await chatsOf(a)).chats[0]).toMatchObject({ blocked: 'partner_unconfirmed', num_unread_messages: 1 });
    expect((await chatsOf(u)).chats[0]).toMatchObject({ blocked: 'own_unconfirmed' });
    expect((await messagesOf(a, conversation)).blocked).toBe('partner_unconfirmed');
    expect(await storedMessages(conversation)).toHaveLength(1);
    expect((await userRow(a)).credits).toBe(20);
    // Confirmed: the answer goes through.
    await t.ctx.db.update(users).set({ status: 'confirmed' }).where(eq(users.id, u.userId));
    await t.ctx.db.update(profiles).set({ status: 'active' }).where(eq(profiles.id, u.profileId));
    await sendOk(a, { conversation }, 'Answer');
  });

  it('blocked members cannot message each other: the blocked side learns who blocked them', async () => {
    const [a, b] = [await member(), await member()];
    const { message } = await sendOk(a, { profile: b.profileId });
    const conversation = message.conversation_id;
    await t.ctx.db.insert(blocks).values({ blockerProfileId: b.profileId, blockedProfileId: a.profileId });
    const blocked = await send(a, { conversation });
    expect(blocked.statusCode, blocked.body).toBe(403);
    expect(blocked.json()).toMatchObject({ error: 'blocked_by_partner', message: `You are blocked by ${b.name}`, name: b.name });
    const byProfile = await send(a, { profile: b.profileId });
    expect(byProfile.json()).toMatchObject({ error: 'blocked_by_partner', name: b.name });
    const blocker = await send(b, { conversation });
    expect(blocker.statusCode).toBe(403);
    expect(blocker.json()).toMatchObject({ error: 'blocked_partner' });
    expect((await chatsOf(a)).chats[0].blocked).toBe('blocked_by_partner');
    expect((await chatsOf(b)).chats[0].blocked).toBe('blocked_partner');
    expect(await storedMessages(conversation)).toHaveLength(1);
    expect((await userRow(a)).credits).toBe(20 - PRICE);
  });

  it('an invisible member must message first', async () => {
    const [invisible, a] = [await member(), await member()];
    await t.ctx.db.update(profiles).set({ isInvisible: true }).where(eq(profiles.id, invisible.profileId));
    const refused = await send(a, { profile: invisible.profileId });
    expect(refused.statusCode, refused.body).toBe(404);
    expect((await as(a, 'GET', `/api/member.php?id=${invisible.profileId}`)).statusCode).toBe(404);
    const { message } = await sendOk(invisible, { profile: a.profileId }, 'I write first');
    // Writing is contact: the member written to sees the invisible member's profile, like after a like.
    expect((await as(a, 'GET', `/api/member.php?id=${invisible.profileId}`)).statusCode).toBe(200);
    await sendOk(a, { conversation: message.conversation_id }, 'Hello');
    await sendOk(a, { profile: invisible.profileId }, 'And again');
  });

  it("another member's conversation, another site's profile, an inactive profile: 404, nothing stored", async () => {
    const [a, b, c] = [await member(), await member(), await member()];
    const { message } = await sendOk(a, { profile: b.profileId });
    const conversation = message.conversation_id;
    for (const res of [
      await send(c, { conversation }),
      await as(c, 'GET', `${MESSAGES}?conversation=${conversation}`),
      await as(c, 'POST', READ, { conversation }),
      await as(c, 'DELETE', CHAT, { conversation }),
      await send(c, { conversation: 987654321 }),
    ]) {
      expect(res.statusCode, res.body).toBe(404);
    }
    const herz = await member({ host: HERZ });
    expect((await send(herz, { profile: a.profileId })).statusCode).toBe(404);
    const inactive = await createProfile(t, { status: 'disabled' });
    expect((await send(a, { profile: inactive.id })).statusCode).toBe(404);
    expect(await storedMessages(conversation)).toHaveLength(1);
    expect((await chatsOf(c)).chats).toEqual([]);
    expect((await userRow(c)).credits).toBe(20);
  });
});

describe('bad input', () => {
  it('refuses empty, blank, too long, NUL bytes, a bad client id and a wrong target with a 400 naming the field', async () => {
    const [a, b] = [await member(), await member()];
    const cases: [unknown, string][] = [
      [{ profile: b.profileId, body: '', client_id: clientId() }, 'body'],
      [{ profile: b.profileId, body: '  \n ', client_id: clientId() }, 'body'],
      [{ profile: b.profileId, body: 'a\u0000b', client_id: clientId() }, 'body'],
      [{ profile: b.profileId, body: 'x'.repeat(1001), client_id: clientId() }, 'body'],
      [{ profile: b.profileId, body: 'x'.repeat(20_000), client_id: clientId() }, 'body'],
      [{ profile: b.profileId, body: 'hi', client_id: 'short' }, 'client_id'],
      [{ profile: b.profileId, body: 'hi', client_id: 'has spaces in it' }, 'client_id'],
      [{ profile: b.profileId, body: 'hi' }, 'client_id'],
      [{ body: 'hi', client_id: clientId() }, 'conversation'],
      [{ profile: b.profileId, conversation: 1, body: 'hi', client_id: clientId() }, 'conversation'],
      [{ profile: a.profileId, body: 'hi', client_id: clientId() }, 'profile'],
      [{ profile: -1, body: 'hi', client_id: clientId() }, 'profile'],
      [{ profile: b.profileId, body: 'hi', client_id: clientId(), extra: 1 }, 'extra'],
    ];
    for (const [payload, field] of cases) {
      const res = await as(a, 'POST', MESSAGES, payload);
      expect(res.statusCode, `${JSON.stringify(payload).slice(0, 80)} ${res.body}`).toBe(400);
      expect(res.json().field).toBe(field);
    }
    const nul = await as(a, 'POST', MESSAGES, { profile: b.profileId, body: 'a\u0000b', client_id: clientId() });
    expect(nul.json()).toMatchObject({ message_key: 'errors.invalidCharacters' });
    const long = await as(a, 'POST', MESSAGES, { profile: b.profileId, body: 'x'.repeat(1001), client_id: clientId() });
    expect(long.json()).toMatchObject({ message_key: 'chat.errors.tooLong', max: 1000 });
    // Exactly message_length characters (counted as characters, not UTF-16 units) is fine.
    await sendOk(a, { profile: b.profileId }, '😀'.repeat(1000));
    for (const query of [
      '',
      '?conversation=abc',
      '?conversation=1&after=-1',
      '?conversation=1&after=1&before=3',
      '?conversation=1&limit=0',
      '?conversation=1&limit=101',
    ]) {
      expect((await as(a, 'GET', `${MESSAGES}${query}`)).statusCode, query).toBe(400);
    }
    for (const payload of [{}, { conversation: 'x' }, { conversation: 0 }]) {
      expect((await as(a, 'DELETE', CHAT, payload)).statusCode).toBe(400);
      expect((await as(a, 'POST', READ, payload)).statusCode).toBe(400);
    }
    expect((await userRow(a)).credits).toBe(20 - PRICE);
  });

  it('asks visitors to log in', async () => {
    for (const [method, url, payload] of [
      ['GET', CHATS],
      ['GET', `${MESSAGES}?conversation=1`],
      ['POST', MESSAGES, { profile: 1, body: 'hi', client_id: clientId() }],
      ['POST', READ, { conversation: 1 }],
      ['DELETE', CHAT, { conversation: 1 }],
    ] as const) {
      const res = await as(null, method, url, payload);
      expect(res.statusCode, url).toBe(403);
      expect(res.json().authentication_required).toBe(true);
    }
  });
});

describe('account purge', () => {
  it("removes a purged member's conversations and messages, for the other side too", async () => {
    const [gone, stays] = [await member(), await member()];
    const { message } = await sendOk(gone, { profile: stays.profileId }, 'Goodbye');
    await sendOk(stays, { conversation: message.conversation_id }, 'Bye');
    await t.ctx.db
      .update(users)
      .set({ status: 'deleted', deletedAt: new Date(Date.now() - 15 * 86_400_000) })
      .where(eq(users.id, gone.userId));
    expect((await chatsOf(stays)).chats).toEqual([]);
    await purgeDeletedAccounts(t.ctx);
    expect(await t.ctx.db.select().from(conversations).where(eq(conversations.id, message.conversation_id))).toEqual([]);
    expect(await storedMessages(message.conversation_id)).toEqual([]);
    expect((await as(stays, 'GET', `${MESSAGES}?conversation=${message.conversation_id}`)).statusCode).toBe(404);
  });
});

describe('the message written at signup', () => {
  it('becomes the first message of the conversation once the account is activated, sent and paid once', async () => {
    const b = await member();
    const ip = nextIp();
    const writer = await signup(t, { name: 'Writer', signup_message: 'Hello from the signup', profile_id: b.profileId }, { ip });
    expect((await chatsOf(b)).chats).toEqual([]);
    const token = await latestToken(t, writer.email, 'activation');
    for (let i = 0; i < 2; i++) {
      const res = await call(t, 'GET', `/api/activate.php?token=${token}`, undefined, { ip });
      expect(res.headers.location).toMatch(/\/activate\/done$/);
    }
    const chats = await chatsOf(b);
    expect(chats.chats).toHaveLength(1);
    expect(chats.chats[0]).toMatchObject({
      profile: { id: writer.user.profile.id },
      num_unread_messages: 1,
      last_message: { seq: 1, body: 'Hello from the signup', from_me: false },
      blocked: null,
    });
    expect(await storedMessages(chats.chats[0].conversation.id)).toHaveLength(1);
    const [row] = await t.ctx.db.select().from(users).where(eq(users.id, writer.user.id));
    expect(row.credits).toBe(20 - PRICE);
  });
});

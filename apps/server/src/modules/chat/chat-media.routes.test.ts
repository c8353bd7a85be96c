import { randomUUID } from 'node:crypto';
import { chatsResponseSchema, GIFTS, messagesResponseSchema, sendMessageResponseSchema } from '@amora/contracts';
import { creditLedger, messages, profiles, users } from '@amora/db';
import { asc, eq, sql } from 'drizzle-orm';
import type { LightMyRequestResponse } from 'fastify';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { recordEvents } from '../../test/events';
import { type CallArgs, callAs, createMember, type Member } from '../../test/factories';
import { CLIENT, createTestApp, type TestApp } from '../../test/harness';
import { jpegWithExif, photoJpeg } from '../../test/images';
import { credit, spend } from '../credits/credits.service';

const MESSAGES = '/api/messages.php';
const PHOTO = '/api/chat-photo.php';
const REVEAL = '/api/chat-photo-reveal.php';
/** Amora's gift_credits and photo_credits (seed). */
const GIFT_PRICE = 25;
const PHOTO_PRICE = 5;

let t: TestApp;

beforeAll(async () => {
  t = await createTestApp();
});
afterAll(async () => {
  await t?.close();
});

const member = () => createMember(t);
const as = (...args: CallArgs) => callAs(t, ...args);
const clientId = () => randomUUID();

async function creditsOf(who: Member): Promise<number> {
  const [row] = await t.ctx.db.select({ credits: users.credits }).from(users).where(eq(users.id, who.userId));
  return row.credits;
}

async function setCredits(who: Member, amount: number): Promise<void> {
  const credits = await creditsOf(who);
  const [{ siteId }] = await t.ctx.db.select({ siteId: profiles.siteId }).from(profiles).where(eq(profiles.id, who.profileId));
  if (credits > amount) await spend(t.ctx, { userId: who.userId, siteId, amount: credits - amount, reason: 'test' });
  if (credits < amount) await credit(t.ctx, { userId: who.userId, siteId, amount: amount - credits, reason: 'test' });
}

async function ledgerSum(who: Member): Promise<number> {
  const [row] = await t.ctx.db
    .select({ sum: sql<number>`coalesce(sum(${creditLedger.delta}), 0)::int` })
    .from(creditLedger)
    .where(eq(creditLedger.userId, who.userId));
  return row.sum;
}

const stored = (conversationId: number) =>
  t.ctx.db.select().from(messages).where(eq(messages.conversationId, conversationId)).orderBy(asc(messages.seq));

const storedBy = (who: Member) => t.ctx.db.select().from(messages).where(eq(messages.senderProfileId, who.profileId));

async function messagesOf(who: Member, conversation: number) {
  const res = await as(who, 'GET', `${MESSAGES}?conversation=${conversation}`);
  expect(res.statusCode, res.body).toBe(200);
  return messagesResponseSchema.parse(res.json()).messages;
}

/** Starts a conversation from a to b with a text message; its id. */
async function converse(a: Member, b: Member): Promise<number> {
  const res = await as(a, 'POST', MESSAGES, { profile: b.profileId, body: 'Hi', client_id: clientId() });
  expect(res.statusCode, res.body).toBe(200);
  return res.json().message.conversation_id;
}

async function sendPhoto(
  who: Member,
  query: string,
  bytes: Buffer | null,
  { field = 'photo', type = 'image/jpeg' } = {},
): Promise<LightMyRequestResponse> {
  const form = new FormData();
  if (bytes) form.append(field, new Blob([new Uint8Array(bytes)], { type }), 'chat.jpg');
  const body = new Response(form);
  return (await t.app.inject({
    method: 'POST',
    url: `${PHOTO}?${query}`,
    headers: { host: who.host, ...CLIENT, cookie: who.cookie, 'content-type': body.headers.get('content-type') as string },
    payload: Buffer.from(await body.arrayBuffer()),
    remoteAddress: who.ip,
  })) as LightMyRequestResponse;
}

describe('gifts', () => {
  it('a gift is a message of kind gift, charged gift_credits once however often it is retried', async () => {
    const [a, b] = [await member(), await member()];
    await setCredits(a, 100);
    const conversation = await converse(a, b);
    const id = clientId();
    const racing = await Promise.all(
      Array.from({ length: 5 }, () => as(a, 'POST', MESSAGES, { conversation, gift: 'rose', client_id: id })),
    );
    expect(racing.map((r) => r.statusCode)).toEqual([200, 200, 200, 200, 200]);
    expect(new Set(racing.map((r) => r.json().message.id)).size).toBe(1);
    const again = sendMessageResponseSchema.parse((await as(a, 'POST', MESSAGES, { conversation, gift: 'rose', client_id: id })).json());
    expect(again.message).toMatchObject({ kind: 'gift', gift: 'rose', body: '', price: GIFT_PRICE, from_me: true });
    expect(again.credits).toBe(100 - 10 - GIFT_PRICE);
    expect(await creditsOf(a)).toBe(100 - 10 - GIFT_PRICE);
    expect(await ledgerSum(a)).toBe(100 - 10 - GIFT_PRICE);
    expect((await stored(conversation)).map((m) => [m.seq, m.kind, m.gift])).toEqual([
      [1, 'text', null],
      [2, 'gift', 'rose'],
    ]);
    // The recipient sees the gift, not its price.
    const theirs = (await messagesOf(b, conversation)).at(-1);
    expect(theirs).toMatchObject({ kind: 'gift', gift: 'rose', price: 0, from_me: false });
    // The list names the gift as the last message, to both.
    for (const [who, fromMe] of [
      [a, true],
      [b, false],
    ] as const) {
      const chats = chatsResponseSchema.parse((await as(who, 'GET', '/api/chats.php')).json());
      const chat = chats.chats.find((c) => c.conversation.id === conversation);
      expect(chat?.last_message).toMatchObject({ kind: 'gift', gift: 'rose', from_me: fromMe });
    }
    // A gift may start a conversation too.
    const c = await member();
    await setCredits(c, GIFT_PRICE);
    const started = await as(c, 'POST', MESSAGES, { profile: b.profileId, gift: GIFTS[3], client_id: clientId() });
    expect(started.statusCode, started.body).toBe(200);
    expect(started.json()).toMatchObject({ message: { seq: 1, kind: 'gift', gift: GIFTS[3] }, credits: 0 });
  });

  it('not enough credits for a gift: 402 and nothing stored or charged', async () => {
    const [a, b] = [await member(), await member()];
    await setCredits(a, 50);
    const conversation = await converse(a, b);
    await setCredits(a, GIFT_PRICE - 1);
    const res = await as(a, 'POST', MESSAGES, { conversation, gift: 'teddy', client_id: clientId() });
    expect(res.statusCode, res.body).toBe(402);
    expect(res.json()).toMatchObject({ error: 'not_enough_credits', credits: GIFT_PRICE - 1, price: GIFT_PRICE });
    expect(await stored(conversation)).toHaveLength(1);
    expect(await creditsOf(a)).toBe(GIFT_PRICE - 1);
  });

  it('an unknown gift, a gift with a text, neither, NUL bytes: 400 naming the field, nothing stored', async () => {
    const [a, b] = [await member(), await member()];
    await setCredits(a, 100);
    const conversation = await converse(a, b);
    const cases: [unknown, string][] = [
      [{ conversation, gift: 'diamond', client_id: clientId() }, 'gift'],
      [{ conversation, gift: '', client_id: clientId() }, 'gift'],
      [{ conversation, gift: 'rose\u0000', client_id: clientId() }, 'gift'],
      [{ conversation, gift: 7, client_id: clientId() }, 'gift'],
      [{ conversation, gift: 'rose', body: 'and a note', client_id: clientId() }, 'body'],
      [{ conversation, client_id: clientId() }, 'body'],
      [{ conversation, gift: 'rose', client_id: 'a\u0000bcdefghi' }, 'client_id'],
    ];
    for (const [payload, field] of cases) {
      const res = await as(a, 'POST', MESSAGES, payload);
      expect(res.statusCode, `${JSON.stringify(payload)} ${res.body}`).toBe(400);
      expect(res.json().field).toBe(field);
    }
    expect(await stored(conversation)).toHaveLength(1);
    expect(await creditsOf(a)).toBe(90);
  });

  it("a gift to another member's conversation: 404, nothing stored or charged", async () => {
    const [a, b, c] = [await member(), await member(), await member()];
    const conversation = await converse(a, b);
    await setCredits(c, 100);
    const res = await as(c, 'POST', MESSAGES, { conversation, gift: 'rose', client_id: clientId() });
    expect(res.statusCode, res.body).toBe(404);
    expect(await stored(conversation)).toHaveLength(1);
    expect(await creditsOf(c)).toBe(100);
  });
});

describe('photo messages', () => {
  it('costs photo_credits, reaches only the two members, blurred for the recipient until they reveal it (remembered)', async () => {
    const [a, b, c] = [await member(), await member(), await member()];
    await setCredits(a, 50);
    const conversation = await converse(a, b);
    const id = clientId();
    const res = await sendPhoto(a, `conversation=${conversation}&client_id=${id}`, await jpegWithExif(600, 400));
    expect(res.statusCode, res.body).toBe(200);
    const sent = sendMessageResponseSchema.parse(res.json());
    // Turned upright by its EXIF orientation (the EXIF itself is dropped).
    expect(sent.message).toMatchObject({ kind: 'photo', price: PHOTO_PRICE, photo: { width: 400, height: 600, revealed: true } });
    expect(sent.credits).toBe(50 - 10 - PHOTO_PRICE);
    const messageId = sent.message.id;
    const large = `${PHOTO}?message=${messageId}&v=large`;
    const blur = `${PHOTO}?message=${messageId}&v=blur`;
    expect(sent.message.photo?.url).toBe(large);

    // A retry with the same client id (the upload sent again) stores and charges nothing more.
    const retry = await sendPhoto(a, `conversation=${conversation}&client_id=${id}`, await photoJpeg(300, 300));
    expect(retry.json().message.id).toBe(messageId);
    expect(await creditsOf(a)).toBe(50 - 10 - PHOTO_PRICE);
    expect(await ledgerSum(a)).toBe(50 - 10 - PHOTO_PRICE);
    expect(await stored(conversation)).toHaveLength(2);

    // The sender sees it sharp, without the EXIF it came with.
    const own = await as(a, 'GET', large);
    expect(own.statusCode).toBe(200);
    expect(own.headers['content-type']).toBe('image/webp');
    expect(own.headers['cache-control']).toBe('private, no-store');
    const meta = await sharp(own.rawPayload).metadata();
    expect(meta.exif).toBeUndefined();

    // The recipient gets it blurred, and the sharp file is not theirs until they ask for it.
    const before = (await messagesOf(b, conversation)).at(-1);
    expect(before).toMatchObject({ kind: 'photo', price: 0, photo: { revealed: false, url: blur } });
    expect((await as(b, 'GET', blur)).statusCode).toBe(200);
    expect((await as(b, 'GET', large)).statusCode).toBe(404);

    // Nobody else reaches it: not the file, not the reveal.
    for (const r of [await as(c, 'GET', blur), await as(c, 'GET', large), await as(c, 'POST', REVEAL, { message: messageId })]) {
      expect(r.statusCode, r.body).toBe(404);
    }
    const visitor = await as(null, 'GET', blur);
    expect(visitor.statusCode).toBe(403);
    expect(visitor.json().authentication_required).toBe(true);

    const revealed = await as(b, 'POST', REVEAL, { message: messageId });
    expect(revealed.statusCode, revealed.body).toBe(200);
    expect(revealed.json().message).toMatchObject({ id: messageId, photo: { revealed: true, url: large } });
    expect((await as(b, 'GET', large)).statusCode).toBe(200);
    // Remembered: the next page says so too; a second reveal changes nothing.
    expect((await messagesOf(b, conversation)).at(-1)).toMatchObject({ photo: { revealed: true, url: large } });
    expect((await as(b, 'POST', REVEAL, { message: messageId })).statusCode).toBe(200);
    // The reveal is the recipient's: still sharp for the sender, and never visible to the third member.
    expect((await as(a, 'POST', REVEAL, { message: messageId })).json().message.photo.revealed).toBe(true);
    expect((await as(c, 'GET', large)).statusCode).toBe(404);
  });

  it('the sender learns that the recipient opened the photo, once, and only while both have read receipts on', async () => {
    const [a, b] = [await member(), await member()];
    await setCredits(a, 50);
    const conversation = await converse(a, b);
    const sendOne = async () => {
      const res = await sendPhoto(a, `conversation=${conversation}&client_id=${clientId()}`, await photoJpeg(300, 300));
      expect(res.statusCode, res.body).toBe(200);
      return res.json().message.id as number;
    };
    const photoOf = async (who: Member, id: number) => (await messagesOf(who, conversation)).find((m) => m.id === id)?.photo;
    const first = await sendOne();
    expect(await photoOf(a, first)).toMatchObject({ opened: false });
    // The recipient is never told anything about their own opening.
    expect(await photoOf(b, first)).not.toHaveProperty('opened');

    const events = recordEvents(t.ctx.events, 'chat.photo-opened');
    expect((await as(b, 'POST', REVEAL, { message: first })).statusCode).toBe(200);
    const event = await events.next((e) => e.messageId === first);
    expect(event).toMatchObject({ conversationId: conversation, profileId: b.profileId, recipientProfileId: a.profileId });
    expect(await photoOf(a, first)).toMatchObject({ opened: true });
    // A second reveal, or the sender's own, raises nothing more.
    await as(b, 'POST', REVEAL, { message: first });
    await as(a, 'POST', REVEAL, { message: first });
    await t.ctx.events.idle();
    expect(events.seen.filter((e) => e.conversationId === conversation)).toHaveLength(1);

    // The recipient turned read receipts off: opening a photo says nothing, now or later.
    expect((await as(b, 'POST', '/api/read-receipts.php', { enabled: false })).statusCode).toBe(200);
    const second = await sendOne();
    expect((await as(b, 'POST', REVEAL, { message: second })).statusCode).toBe(200);
    await t.ctx.events.idle();
    expect(events.seen.filter((e) => e.conversationId === conversation)).toHaveLength(1);
    expect(await photoOf(a, second)).not.toHaveProperty('opened');
    expect(await photoOf(a, first)).not.toHaveProperty('opened');
    events.stop();
  });

  it('a photo may start a conversation; a removed chat no longer serves it to that side', async () => {
    const [a, b] = [await member(), await member()];
    const res = await sendPhoto(a, `profile=${b.profileId}&client_id=${clientId()}`, await photoJpeg(320, 240));
    expect(res.statusCode, res.body).toBe(200);
    const { message } = res.json();
    expect(message).toMatchObject({ seq: 1, kind: 'photo' });
    expect((await as(b, 'DELETE', '/api/chat.php', { conversation: message.conversation_id })).statusCode).toBe(200);
    expect((await as(b, 'GET', `${PHOTO}?message=${message.id}&v=blur`)).statusCode).toBe(404);
    expect((await as(a, 'GET', `${PHOTO}?message=${message.id}&v=large`)).statusCode).toBe(200);
  });

  it('not enough credits for a photo: 402, nothing stored or charged', async () => {
    const [a, b] = [await member(), await member()];
    const conversation = await converse(a, b);
    await setCredits(a, PHOTO_PRICE - 1);
    const res = await sendPhoto(a, `conversation=${conversation}&client_id=${clientId()}`, await photoJpeg(200, 200));
    expect(res.statusCode, res.body).toBe(402);
    expect(res.json()).toMatchObject({ error: 'not_enough_credits', price: PHOTO_PRICE });
    expect(await stored(conversation)).toHaveLength(1);
    expect(await creditsOf(a)).toBe(PHOTO_PRICE - 1);
  });

  it("bad input and another member's conversation: 400 or 404, nothing stored or charged", async () => {
    const [a, b, c] = [await member(), await member(), await member()];
    await setCredits(a, 50);
    const conversation = await converse(a, b);
    const jpeg = await photoJpeg(200, 200);
    const cases: [string, Buffer | null, number, { field?: string; type?: string }?][] = [
      [`conversation=${conversation}&client_id=${clientId()}`, Buffer.from('not an image at all'), 400],
      [`conversation=${conversation}&client_id=${clientId()}`, Buffer.from([0, 0, 0, 0, 0, 0, 0, 0]), 400],
      [`conversation=${conversation}&client_id=${clientId()}`, null, 400],
      [`conversation=${conversation}&client_id=${clientId()}`, jpeg, 400, { field: 'file' }],
      [`conversation=${conversation}`, jpeg, 400],
      [`conversation=${conversation}&client_id=short`, jpeg, 400],
      [`conversation=${conversation}&client_id=abc%00defghij`, jpeg, 400],
      [`conversation=abc&client_id=${clientId()}`, jpeg, 400],
      [`client_id=${clientId()}`, jpeg, 400],
      [`conversation=${conversation}&profile=${b.profileId}&client_id=${clientId()}`, jpeg, 400],
      [`profile=${a.profileId}&client_id=${clientId()}`, jpeg, 400],
      [`conversation=${conversation}&client_id=${clientId()}&extra=1`, jpeg, 400],
      [`conversation=987654321&client_id=${clientId()}`, jpeg, 404],
    ];
    for (const [query, bytes, status, options] of cases) {
      const res = await sendPhoto(a, query, bytes, options);
      expect(res.statusCode, `${query} ${res.body}`).toBe(status);
    }
    await setCredits(c, 50);
    expect((await sendPhoto(c, `conversation=${conversation}&client_id=${clientId()}`, jpeg)).statusCode).toBe(404);
    expect(await stored(conversation)).toHaveLength(1);
    expect(await storedBy(c)).toEqual([]);
    expect(await creditsOf(a)).toBe(40);
    expect(await creditsOf(c)).toBe(50);

    for (const query of ['', '?message=1', '?message=abc&v=large', '?message=1&v=thumb', '?message=-1&v=blur', '?message=1&v=blur&x=1']) {
      expect((await as(a, 'GET', `${PHOTO}${query}`)).statusCode, query).toBe(400);
    }
    for (const payload of [{}, { message: 'x' }, { message: 0 }, { message: 1, extra: true }]) {
      expect((await as(a, 'POST', REVEAL, payload)).statusCode, JSON.stringify(payload)).toBe(400);
    }
    // A text message is no photo.
    const [text] = await stored(conversation);
    expect((await as(b, 'GET', `${PHOTO}?message=${text.id}&v=blur`)).statusCode).toBe(404);
    expect((await as(b, 'POST', REVEAL, { message: text.id })).statusCode).toBe(404);
  });
});

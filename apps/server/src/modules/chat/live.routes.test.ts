import { randomUUID } from 'node:crypto';
import type { AddressInfo } from 'node:net';
import { LIVE_CLOSE, LIVE_PATH, type LiveServerFrame, liveServerFrameSchema, sendMessageResponseSchema } from '@amora/contracts';
import { profiles } from '@amora/db';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import { AMORA, HERZ, login, sessionCookie } from '../../test/accounts';
import { callAs, createMember, type Member } from '../../test/factories';
import { createTestApp, type TestApp } from '../../test/harness';
import { credit } from '../credits/credits.service';

interface Live {
  ws: WebSocket;
  frames: LiveServerFrame[];
  /** The first frame (already received or within `ms`) for which `match` holds. */
  next(match: (frame: LiveServerFrame) => boolean, ms?: number): Promise<LiveServerFrame>;
  closed: Promise<{ code: number; reason: string }>;
}

const urlOf = (t: TestApp) => `ws://127.0.0.1:${(t.app.server.address() as AddressInfo).port}${LIVE_PATH}`;

/** A real WebSocket client against a listening app, as `who` (cookie and host), from a page of `origin`. */
function connect(
  t: TestApp,
  who: Member | null,
  {
    host = who?.host ?? AMORA,
    origin = `http://${host}`,
    autoPong = true,
  }: { host?: string; origin?: string | null; autoPong?: boolean } = {},
): Live {
  const headers: Record<string, string> = { host };
  if (who) headers.cookie = who.cookie;
  if (origin) headers.origin = origin;
  const ws = new WebSocket(urlOf(t), { headers, autoPong });
  const frames: LiveServerFrame[] = [];
  const waiters = new Set<{ match: (f: LiveServerFrame) => boolean; resolve: (f: LiveServerFrame) => void }>();
  ws.on('message', (data) => {
    const frame = liveServerFrameSchema.parse(JSON.parse(data.toString()));
    frames.push(frame);
    for (const waiter of waiters) {
      if (waiter.match(frame)) {
        waiters.delete(waiter);
        waiter.resolve(frame);
      }
    }
  });
  const closed = new Promise<{ code: number; reason: string }>((resolve) => {
    ws.on('close', (code, reason) => resolve({ code, reason: reason.toString() }));
  });
  ws.on('error', () => {});
  return {
    ws,
    frames,
    closed,
    next(match, ms = 5_000) {
      const found = frames.find(match);
      if (found) return Promise.resolve(found);
      return new Promise((resolve, reject) => {
        const timer = setTimeout(() => reject(new Error(`no matching frame within ${ms} ms; got ${JSON.stringify(frames)}`)), ms);
        waiters.add({
          match,
          resolve: (f) => {
            clearTimeout(timer);
            resolve(f);
          },
        });
      });
    },
  };
}

async function ready(t: TestApp, who: Member, options?: Parameters<typeof connect>[2]): Promise<Live> {
  const live = connect(t, who, options);
  await live.next((f) => f.type === 'ready');
  return live;
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
const isMessage = (conversation: number, seq: number) => (f: LiveServerFrame) =>
  f.type === 'message' && f.conversation === conversation && f.seq === seq;

let t: TestApp;
const opened: Live[] = [];
const track = (live: Live) => {
  opened.push(live);
  return live;
};

beforeAll(async () => {
  t = await createTestApp();
  await t.app.listen({ port: 0, host: '127.0.0.1' });
});
afterAll(async () => {
  for (const live of opened) live.ws.terminate();
  await t?.close();
});

async function withCredits(who: Member, amount = 100): Promise<void> {
  const [row] = await t.ctx.db.select({ siteId: profiles.siteId }).from(profiles).where(eq(profiles.id, who.profileId));
  await credit(t.ctx, { userId: who.userId, siteId: row.siteId, amount, reason: 'test' });
}

async function sendAs(app: TestApp, who: Member, target: { conversation?: number; profile?: number }, body = 'Hello') {
  const res = await callAs(app, who, 'POST', '/api/messages.php', { ...target, body, client_id: randomUUID() });
  expect(res.statusCode, res.body).toBe(200);
  return sendMessageResponseSchema.parse(res.json()).message;
}

describe('connecting', () => {
  it('refuses a visitor without a session with 4401', async () => {
    const live = track(connect(t, null));
    expect((await live.closed).code).toBe(LIVE_CLOSE.unauthenticated);
    expect(live.frames).toEqual([]);
  });

  it("refuses a session of another site with 4401, and accepts it on its own site's host", async () => {
    const herz = await createMember(t, { host: HERZ });
    const foreign = track(connect(t, herz, { host: AMORA }));
    expect((await foreign.closed).code).toBe(LIVE_CLOSE.unauthenticated);
    const home = track(await ready(t, herz));
    expect(home.ws.readyState).toBe(WebSocket.OPEN);
    expect(t.app.live.count(herz.profileId)).toBe(1);
  });

  it('refuses a page of another origin with 4403 (cross-site WebSocket hijacking), even with a valid session', async () => {
    const a = await createMember(t);
    // The same host under another scheme is another origin too.
    for (const origin of ['https://evil.example', 'null', `http://${HERZ}`, `https://${AMORA}`, `ws://${AMORA}`]) {
      const live = track(connect(t, a, { origin }));
      expect((await live.closed).code).toBe(LIVE_CLOSE.forbiddenOrigin);
      expect(live.frames).toEqual([]);
    }
    expect(t.app.live.count(a.profileId)).toBe(0);
  });

  it('answers 404 to a plain GET of the socket path (no SPA page)', async () => {
    const res = await callAs(t, null, 'GET', LIVE_PATH);
    expect(res.statusCode).toBe(404);
    expect(res.headers['content-type'] ?? '').not.toMatch(/html/);
  });

  it('closes the oldest socket of a member past the limit of sockets', async () => {
    const a = await createMember(t);
    const sockets: Live[] = [];
    for (let i = 0; i < 8; i++) sockets.push(track(await ready(t, a)));
    const ninth = track(await ready(t, a));
    expect((await sockets[0].closed).code).toBe(LIVE_CLOSE.replaced);
    expect(ninth.ws.readyState).toBe(WebSocket.OPEN);
    expect(t.app.live.count(a.profileId)).toBe(8);
  });

  it('closes the socket on a frame over the size limit (1009)', async () => {
    const a = await createMember(t);
    const live = track(await ready(t, a));
    live.ws.send(JSON.stringify({ type: 'typing', conversation: 1, pad: 'x'.repeat(2_000) }));
    expect((await live.closed).code).toBe(LIVE_CLOSE.tooBig);
  });
});

describe('frames', () => {
  it("pushes a message to the recipient's and the sender's sockets, and never to a member outside the conversation", async () => {
    const [a, b, c] = [await createMember(t), await createMember(t), await createMember(t)];
    await withCredits(a);
    const [liveA, liveB, liveC] = [track(await ready(t, a)), track(await ready(t, b)), track(await ready(t, c))];
    const sent = await sendAs(t, a, { profile: b.profileId }, 'Hi B');
    expect(await liveB.next(isMessage(sent.conversation_id, 1))).toEqual({ type: 'message', conversation: sent.conversation_id, seq: 1 });
    await liveA.next(isMessage(sent.conversation_id, 1));
    await t.ctx.events.idle();
    await sleep(50);
    expect(liveC.frames).toEqual([{ type: 'ready' }]);
  });

  it('relays typing and read to the partner only; refuses them for a conversation that is not the member’s', async () => {
    const [a, b, c] = [await createMember(t), await createMember(t), await createMember(t)];
    await withCredits(a);
    const [liveA, liveB, liveC] = [track(await ready(t, a)), track(await ready(t, b)), track(await ready(t, c))];
    const { conversation_id: conversation } = await sendAs(t, a, { profile: b.profileId });

    liveA.ws.send(JSON.stringify({ type: 'typing', conversation }));
    expect(await liveB.next((f) => f.type === 'typing')).toEqual({ type: 'typing', conversation });
    liveB.ws.send(JSON.stringify({ type: 'read', conversation, seq: 1 }));
    expect(await liveA.next((f) => f.type === 'read')).toEqual({ type: 'read', conversation, seq: 1 });

    // C is not in the conversation: refused, and nothing reaches A or B.
    liveC.ws.send(JSON.stringify({ type: 'typing', conversation }));
    liveC.ws.send(JSON.stringify({ type: 'read', conversation, seq: 1 }));
    await liveC.next((f) => f.type === 'error' && f.error === 'not_yours');
    // A read beyond the last sequence is refused too.
    liveB.ws.send(JSON.stringify({ type: 'read', conversation, seq: 99 }));
    await liveB.next((f) => f.type === 'error' && f.error === 'not_yours');
    await t.ctx.events.idle();
    await sleep(50);
    expect(liveA.frames.filter((f) => f.type === 'typing' || f.type === 'read')).toEqual([{ type: 'read', conversation, seq: 1 }]);
    expect(liveB.frames.filter((f) => f.type === 'typing' || f.type === 'read')).toEqual([{ type: 'typing', conversation }]);
    expect(liveC.frames.filter((f) => f.type !== 'ready' && f.type !== 'error')).toEqual([]);
  });

  it("tells a photo's sender, and nobody else, that the recipient opened it", async () => {
    const [a, b] = [await createMember(t), await createMember(t)];
    await withCredits(a);
    const [liveA, liveB] = [track(await ready(t, a)), track(await ready(t, b))];
    const sent = await sendAs(t, a, { profile: b.profileId });
    const [{ siteId }] = await t.ctx.db.select({ siteId: profiles.siteId }).from(profiles).where(eq(profiles.id, a.profileId));
    const conversation = sent.conversation_id;
    t.ctx.events.publish({
      type: 'chat.photo-opened',
      siteId,
      conversationId: conversation,
      messageId: sent.id,
      profileId: b.profileId,
      recipientProfileId: a.profileId,
    });
    expect(await liveA.next((f) => f.type === 'opened')).toEqual({ type: 'opened', conversation, message: sent.id });
    await t.ctx.events.idle();
    await sleep(50);
    expect(liveB.frames.filter((f) => f.type === 'opened')).toEqual([]);
  });

  it('refuses typing and read between a blocked pair, both ways', async () => {
    const [a, b] = [await createMember(t), await createMember(t)];
    await withCredits(a);
    const [liveA, liveB] = [track(await ready(t, a)), track(await ready(t, b))];
    const { conversation_id: conversation } = await sendAs(t, a, { profile: b.profileId });
    expect((await callAs(t, b, 'POST', '/api/block.php', { profile_id: a.profileId })).statusCode).toBe(200);
    liveA.ws.send(JSON.stringify({ type: 'typing', conversation }));
    await liveA.next((f) => f.type === 'error' && f.error === 'not_yours');
    liveB.ws.send(JSON.stringify({ type: 'read', conversation, seq: 1 }));
    await liveB.next((f) => f.type === 'error' && f.error === 'not_yours');
    await t.ctx.events.idle();
    await sleep(50);
    expect(liveA.frames.filter((f) => f.type === 'read')).toEqual([]);
    expect(liveB.frames.filter((f) => f.type === 'typing')).toEqual([]);
  });

  it('passes typing on at most once per conversation every two seconds', async () => {
    const [a, b] = [await createMember(t), await createMember(t)];
    await withCredits(a);
    const [liveA, liveB] = [track(await ready(t, a)), track(await ready(t, b))];
    const { conversation_id: conversation } = await sendAs(t, a, { profile: b.profileId });
    for (let i = 0; i < 5; i++) liveA.ws.send(JSON.stringify({ type: 'typing', conversation }));
    await liveB.next((f) => f.type === 'typing');
    await sleep(200);
    await t.ctx.events.idle();
    expect(liveB.frames.filter((f) => f.type === 'typing')).toHaveLength(1);
  });

  it('answers bad frames with bad_frame and closes a socket that floods (1008)', async () => {
    const a = await createMember(t);
    const live = track(await ready(t, a));
    for (const bad of ['not json', '{"type":"typing"}', '{"type":"typing","conversation":-1}', '{"type":"send","body":"x"}']) {
      live.ws.send(bad);
    }
    await sleep(100);
    expect(live.frames.filter((f) => f.type === 'error')).toEqual(Array(4).fill({ type: 'error', error: 'bad_frame' }));
    for (let i = 0; i < 40; i++) live.ws.send('{}');
    expect((await live.closed).code).toBe(LIVE_CLOSE.policy);
  });

  it('tells a liked member, and both members of a match, saying who liked first', async () => {
    const [a, b] = [await createMember(t), await createMember(t)];
    const [liveA, liveB] = [track(await ready(t, a)), track(await ready(t, b))];
    expect((await callAs(t, a, 'POST', '/api/like.php', { profile_id: b.profileId, source: 'profile' })).statusCode).toBe(200);
    await liveB.next((f) => f.type === 'like');
    expect((await callAs(t, b, 'POST', '/api/like.php', { profile_id: a.profileId, source: 'profile' })).statusCode).toBe(200);
    // A liked first: the live dialog is for them; B, who liked back, saw the match on their own like.
    expect(await liveA.next((f) => f.type === 'match')).toEqual({ type: 'match', profile: b.profileId, liked_first: true });
    expect(await liveB.next((f) => f.type === 'match')).toEqual({ type: 'match', profile: a.profileId, liked_first: false });
  });
});

describe('heartbeat and shutdown', () => {
  it('drops a socket that does not answer pings, and keeps one that does', async () => {
    const [a, b] = [await createMember(t), await createMember(t)];
    const dead = track(await ready(t, a, { autoPong: false }));
    const alive = track(await ready(t, b));
    t.app.live.sweep(); // pings both
    await sleep(200); // the live one answers
    t.app.live.sweep(); // the dead one has not: dropped
    await dead.closed;
    expect(t.app.live.count(a.profileId)).toBe(0);
    expect(alive.ws.readyState).toBe(WebSocket.OPEN);
    expect(t.app.live.count(b.profileId)).toBe(1);
  });
});

describe('shutdown', () => {
  it('closes every socket with 1001 (Going Away) when the server closes, so clients reconnect elsewhere', async () => {
    const s = await createTestApp();
    try {
      await s.app.listen({ port: 0, host: '127.0.0.1' });
      const a = await createMember(s);
      const live = await ready(s, a);
      const closing = s.app.close();
      expect((await live.closed).code).toBe(LIVE_CLOSE.goingAway);
      await closing;
    } finally {
      await s.close();
    }
  });
});

// A second server process: its own connections to the same PostgreSQL database and to Redis.
const withRedis = process.env.AMORA_TEST_DB === 'postgres' && Boolean(process.env.TEST_REDIS_URL);

describe.skipIf(!withRedis)('two processes on one database and Redis', () => {
  let other: TestApp;
  beforeAll(async () => {
    other = await createTestApp({}, { joining: t });
    await other.app.listen({ port: 0, host: '127.0.0.1' });
  });
  afterAll(async () => {
    await other?.close();
  });

  it("a message sent through one process reaches the recipient's socket on the other, and typing crosses too", async () => {
    const [a, b, c] = [await createMember(t), await createMember(t), await createMember(t)];
    await withCredits(a);
    const liveB = track(await ready(other, b));
    const liveC = track(await ready(other, c));
    const liveA = track(await ready(t, a));
    const first = await sendAs(t, a, { profile: b.profileId }, 'Across processes');
    const conversation = first.conversation_id;
    expect(await liveB.next(isMessage(conversation, 1))).toEqual({ type: 'message', conversation, seq: 1 });
    await liveA.next(isMessage(conversation, 1));
    // The recipient fetches after its last sequence from its own process: the message is there.
    const res = await callAs(other, b, 'GET', `/api/messages.php?conversation=${conversation}&after=0`);
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().messages.map((m: { seq: number; body: string }) => [m.seq, m.body])).toEqual([[1, 'Across processes']]);

    liveB.ws.send(JSON.stringify({ type: 'typing', conversation }));
    expect(await liveA.next((f) => f.type === 'typing')).toEqual({ type: 'typing', conversation });
    await sendAs(other, a, { conversation }, 'Second, through the other process');
    await liveB.next(isMessage(conversation, 2));
    await liveA.next(isMessage(conversation, 2));
    await Promise.all([t.ctx.events.idle(), other.ctx.events.idle()]);
    await sleep(100);
    expect(liveC.frames).toEqual([{ type: 'ready' }]);
  });

  it('after its Redis subscription was dropped, a process says ready again on every socket, and the client fetches what it missed', async () => {
    const [a, b] = [await createMember(t), await createMember(t)];
    await withCredits(a);
    const liveB = track(await ready(other, b));
    const first = await sendAs(t, a, { profile: b.profileId }, 'Before the outage');
    const conversation = first.conversation_id;
    await liveB.next(isMessage(conversation, 1));
    // Redis drops the other process's subscriber connection (CLIENT KILL TYPE pubsub would drop every one).
    const list = (await (t.ctx.redis as NonNullable<typeof t.ctx.redis>).client('LIST')) as string;
    const ids = list
      .split('\n')
      .filter((line) => line.includes(` name=${other.shared.redisPrefix}events:subscriber `))
      .map((line) => /\bid=(\d+)/.exec(line)?.[1] as string);
    expect(ids.length).toBeGreaterThan(0);
    // Both apps' buses share the channel name; killing both is what a Redis failover does.
    for (const id of ids) await (t.ctx.redis as NonNullable<typeof t.ctx.redis>).client('KILL', 'ID', id);
    await sendAs(t, a, { conversation }, 'During the outage');
    await liveB.next((f) => f.type === 'ready' && liveB.frames.filter((g) => g.type === 'ready').length === 2, 10_000);
    const res = await callAs(other, b, 'GET', `/api/messages.php?conversation=${conversation}&after=1`);
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().messages.map((m: { seq: number }) => m.seq)).toEqual([2]);
    // Live again: the next message's frame arrives.
    await sendAs(t, a, { conversation }, 'After the outage');
    await liveB.next(isMessage(conversation, 3), 10_000);
  });
});

describe('sessions', () => {
  it('closes the sockets of a session that logs out (4401), and keeps those of its other sessions', async () => {
    const a = await createMember(t);
    const res = await login(t, a.email, a.password, { host: a.host, ip: a.ip });
    expect(res.statusCode, res.body).toBe(200);
    const second: Member = { ...a, cookie: sessionCookie(res) };
    const first = track(await ready(t, a));
    const other = track(await ready(t, second));
    expect((await callAs(t, a, 'GET', '/api/logout.php')).statusCode).toBeLessThan(400);
    expect((await first.closed).code).toBe(LIVE_CLOSE.unauthenticated);
    await sleep(400);
    expect(other.ws.readyState).toBe(WebSocket.OPEN);
    expect(t.app.live.count(a.profileId)).toBe(1);
  });
});

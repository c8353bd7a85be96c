import { type ChildProcess, spawn } from 'node:child_process';
import { randomBytes, randomUUID } from 'node:crypto';
import { closeSync, mkdtempSync, openSync, readFileSync, rmSync } from 'node:fs';
import { request } from 'node:http';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { type LiveServerFrame, liveServerFrameSchema } from '@amora/contracts';
import { profiles, sites } from '@amora/db';
import { eq, sql } from 'drizzle-orm';
import { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import { createMember, type Member } from '../../test/factories';
import { createTestApp, type TestApp } from '../../test/harness';
import { credit } from '../credits/credits.service';

/**
 * Durability of chat through failures (issue 16): three real server processes (main.ts from the sources) on one
 * PostgreSQL database and Redis. PAIRS pairs of members write MESSAGES messages in all per pair, both members of
 * a pair at once, each send to a random process and retried with the same client_id on another one after a
 * network error or a 5xx. At 40% of the messages one process is killed with SIGKILL, at 55% Redis drops the
 * processes' pub/sub connections, at 70% the killed process starts again. Every member keeps a WebSocket on a
 * random process, reconnects elsewhere when it closes, and fetches after its last sequence on every `ready` and
 * on a gap in the sequences (what the web client does).
 *
 * Afterwards: every conversation holds exactly sequences 1..n, n the messages acknowledged, each acknowledged
 * client_id stored once with the sequence its answer named; each member's ledger has one row per message sent,
 * price credits each, and sums to the balance; every member saw every message of their conversation, by frame
 * or by a fetch.
 *
 * The issue's full size is 50 pairs × 200 messages; CI runs 10 × 40 (CHAT_DURABILITY_PAIRS and
 * CHAT_DURABILITY_MESSAGES set others). PostgreSQL run with TEST_REDIS_URL only.
 */
const withRedis = process.env.AMORA_TEST_DB === 'postgres' && Boolean(process.env.TEST_REDIS_URL);
const PAIRS = Number(process.env.CHAT_DURABILITY_PAIRS ?? 10);
const MESSAGES = Number(process.env.CHAT_DURABILITY_MESSAGES ?? 40);
const PROCESSES = 3;
/** Ports the processes may take: the first free ones of this range. */
const PORT_RANGE = [3260, 3269] as const;
const HOST = 'localhost:3000';
const MAIN = fileURLToPath(new URL('../../main.ts', import.meta.url));

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
const pick = <T>(items: readonly T[]): T => items[Math.floor(Math.random() * items.length)];

function portIsFree(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const probe = createServer();
    probe.once('error', () => resolve(false));
    probe.listen(port, '127.0.0.1', () => probe.close(() => resolve(true)));
  });
}

async function freePorts(count: number): Promise<number[]> {
  const found: number[] = [];
  for (let port = PORT_RANGE[0]; port <= PORT_RANGE[1] && found.length < count; port++) {
    if (await portIsFree(port)) found.push(port);
  }
  if (found.length < count) throw new Error(`fewer than ${count} free ports in ${PORT_RANGE.join('-')}`);
  return found;
}

interface Reply {
  status: number;
  body: string;
}

/** One HTTP call to a process as a member; rejects on a network error (refused, reset, 15 s without answer). */
function httpCall(port: number, method: 'GET' | 'POST', path: string, cookie: string, body?: unknown): Promise<Reply> {
  return new Promise((resolve, reject) => {
    const data = body === undefined ? undefined : JSON.stringify(body);
    const req = request(
      {
        host: '127.0.0.1',
        port,
        path,
        method,
        timeout: 15_000,
        headers: {
          host: HOST,
          cookie,
          'x-request-type': 'client',
          ...(data ? { 'content-type': 'application/json', 'content-length': Buffer.byteLength(data) } : {}),
        },
      },
      (res) => {
        let text = '';
        res.setEncoding('utf8');
        res.on('data', (chunk) => {
          text += chunk;
        });
        res.on('end', () => resolve({ status: res.statusCode ?? 0, body: text }));
        res.on('error', reject);
      },
    );
    req.on('timeout', () => req.destroy(new Error('timed out')));
    req.on('error', reject);
    req.end(data);
  });
}

/** A server process: main.ts through tsx, on the test's database and Redis, its log in `dir`. */
class ServerProcess {
  child: ChildProcess | null = null;
  up = false;
  constructor(
    readonly port: number,
    private readonly dir: string,
    private readonly env: Record<string, string>,
  ) {}

  async start(): Promise<void> {
    const log = openSync(join(this.dir, `server-${this.port}.log`), 'a');
    const child = spawn(process.execPath, ['--import', 'tsx', MAIN], {
      env: { ...process.env, ...this.env, PORT: String(this.port) },
      stdio: ['ignore', log, log],
    });
    closeSync(log);
    this.child = child;
    let exited = false;
    child.once('exit', () => {
      exited = true;
      this.up = false;
    });
    const deadline = Date.now() + 120_000;
    while (Date.now() < deadline && !exited) {
      const res = await httpCall(this.port, 'GET', '/api/health.php', '').catch(() => null);
      if (res?.status === 200) {
        this.up = true;
        return;
      }
      await sleep(100);
    }
    child.kill('SIGKILL');
    throw new Error(`server on ${this.port} did not start: ${this.log().slice(-2000)}`);
  }

  log(): string {
    try {
      return readFileSync(join(this.dir, `server-${this.port}.log`), 'utf8');
    } catch {
      return '';
    }
  }

  async kill(signal: NodeJS.Signals): Promise<void> {
    const child = this.child;
    if (!child || child.exitCode !== null || child.signalCode !== null) return;
    const exited = new Promise((resolve) => child.once('exit', resolve));
    this.up = false;
    child.kill(signal);
    await Promise.race([exited, sleep(10_000)]);
  }
}

/** A member's live socket, kept open on some process, with what it learnt of its conversation. */
class Receiver {
  /** Sequences seen in a message frame. */
  readonly byFrame = new Set<number>();
  /** Sequences fetched with GET messages.php?after= (on ready or on a gap). */
  readonly byFetch = new Set<number>();
  conversation: number | null = null;
  reconnects = 0;
  private ws: WebSocket | null = null;
  private stopped = false;
  private fetching: Promise<void> = Promise.resolve();

  constructor(
    readonly member: Member,
    private readonly servers: ServerProcess[],
  ) {}

  /** Highest n with 1..n all known. */
  contiguous(): number {
    let n = 0;
    while (this.byFrame.has(n + 1) || this.byFetch.has(n + 1)) n++;
    return n;
  }

  start(): Promise<void> {
    return this.connect();
  }

  private connect(): Promise<void> {
    return new Promise((resolve) => {
      const server = pick(this.servers.filter((s) => s.up).length ? this.servers.filter((s) => s.up) : this.servers);
      const ws = new WebSocket(`ws://127.0.0.1:${server.port}/api/live`, {
        headers: { host: HOST, cookie: this.member.cookie, origin: `http://${HOST}` },
      });
      this.ws = ws;
      let settled = false;
      ws.on('message', (data) => {
        const frame: LiveServerFrame = liveServerFrameSchema.parse(JSON.parse(data.toString()));
        if (frame.type === 'ready') {
          if (!settled) {
            settled = true;
            resolve();
          }
          this.catchUp(server.port);
        } else if (frame.type === 'message') {
          this.conversation ??= frame.conversation;
          this.byFrame.add(frame.seq);
          // A sequence beyond the next: the ones between were missed (their frame went with a process).
          if (frame.seq > this.contiguous() + 1) this.catchUp(server.port);
        }
      });
      ws.on('error', () => {});
      ws.on('close', () => {
        if (!settled) {
          settled = true;
          resolve();
        }
        if (this.stopped) return;
        this.reconnects++;
        setTimeout(() => void this.connect(), 200 + Math.random() * 300);
      });
    });
  }

  /** Fetches every message after the last contiguous sequence, page by page (one fetch at a time). */
  private catchUp(port: number): void {
    this.fetching = this.fetching.then(async () => {
      if (this.conversation === null) return;
      try {
        let after = this.contiguous();
        for (;;) {
          const res = await httpCall(port, 'GET', `/api/messages.php?conversation=${this.conversation}&after=${after}`, this.member.cookie);
          if (res.status !== 200) throw new Error(`messages.php: ${res.status}`);
          const page = JSON.parse(res.body) as { messages: { seq: number }[]; has_more_after: boolean };
          for (const m of page.messages) this.byFetch.add(m.seq);
          if (!page.has_more_after || page.messages.length === 0) return;
          after = page.messages.at(-1)?.seq ?? after;
        }
      } catch {
        // The process went away: the socket's close reconnects, and its next 'ready' fetches again.
      }
    });
  }

  stop(): void {
    this.stopped = true;
    this.ws?.terminate();
  }
}

describe.skipIf(!withRedis)('chat durability: three processes, a killed one, dropped pub/sub', () => {
  let t: TestApp;
  let dir: string;
  let redis: Redis;
  const servers: ServerProcess[] = [];
  const receivers: Receiver[] = [];
  let prefix: string;

  beforeAll(async () => {
    t = await createTestApp();
    dir = mkdtempSync(join(tmpdir(), 'amora-chat-durability-'));
    redis = new Redis(process.env.TEST_REDIS_URL as string, { maxRetriesPerRequest: 2 });
    prefix = `amora:test:durability:${randomBytes(4).toString('hex')}:`;
    const env = {
      NODE_ENV: 'test',
      HOST: '127.0.0.1',
      DATABASE_URL: t.shared.databaseUrl as string,
      REDIS_URL: process.env.TEST_REDIS_URL as string,
      REDIS_PREFIX: prefix,
      SEED_DEMO: 'false',
      WEB_DIST: join(dir, 'no-web'),
      DATA_DIR: dir,
      API_RATE_LIMIT: '100000000',
      LOG_LEVEL: 'warn',
    };
    for (const port of await freePorts(PROCESSES)) servers.push(new ServerProcess(port, dir, env));
    await Promise.all(servers.map((s) => s.start()));
  }, 180_000);

  afterAll(async () => {
    for (const r of receivers) r.stop();
    for (const s of servers) await s.kill('SIGTERM');
    redis?.disconnect();
    await t?.close();
    if (dir) rmSync(dir, { recursive: true, force: true });
  }, 60_000);

  it(`stores ${PAIRS} pairs × ${MESSAGES} messages exactly once, charged once, and every member sees them all`, async () => {
    const members: Member[] = [];
    for (let i = 0; i < PAIRS * 2; i++) members.push(await createMember(t));
    const [{ siteId }] = await t.ctx.db.select({ siteId: profiles.siteId }).from(profiles).where(eq(profiles.id, members[0].profileId));
    const [{ price }] = await t.ctx.db.select({ price: sites.messageCredits }).from(sites).where(eq(sites.id, siteId));
    const grant = MESSAGES * Math.max(price, 1);
    for (const m of members) await credit(t.ctx, { userId: m.userId, siteId, amount: grant, reason: 'test' });
    const balanceBefore = new Map<number, number>();
    for (const m of members) {
      const rows = (await t.ctx.db.execute(sql`select credits from users where id = ${m.userId}`)) as unknown as {
        rows: { credits: number }[];
      };
      balanceBefore.set(m.userId, rows.rows[0].credits);
    }

    for (const m of members) {
      const r = new Receiver(m, servers);
      receivers.push(r);
      await r.start();
    }

    const started = performance.now();
    const total = PAIRS * MESSAGES;
    let acked = 0;
    let retries = 0;
    const figures = { networkErrors: 0, serverErrors: 0, killedAt: 0, restartedAt: 0, pubsubDroppedAt: 0, pubsubKilled: 0 };
    /** client_id → what its answer said. */
    const acks = new Map<string, { conversation: number; seq: number; sender: number }>();
    const conversationOfPair: (number | null)[] = Array.from({ length: PAIRS }, () => null);
    const victim = servers[1];
    const milestones: Promise<void>[] = [];
    let killed = false;
    let dropped = false;
    let restarted = false;

    const onAck = () => {
      acked++;
      if (!killed && acked >= total * 0.4) {
        killed = true;
        figures.killedAt = acked;
        milestones.push(victim.kill('SIGKILL'));
      }
      if (!dropped && acked >= total * 0.55) {
        dropped = true;
        figures.pubsubDroppedAt = acked;
        milestones.push(
          (async () => {
            // CLIENT KILL TYPE pubsub, limited to this test's processes (their subscriber connections are named after
            // the channel): other suites may share this Redis.
            const list = (await redis.call('CLIENT', 'LIST', 'TYPE', 'pubsub')) as string;
            const ids = list
              .split('\n')
              .filter((line) => line.includes(` name=${prefix}events:subscriber `))
              .map((line) => /\bid=(\d+)/.exec(line)?.[1] as string);
            for (const id of ids) await redis.client('KILL', 'ID', id);
            figures.pubsubKilled = ids.length;
          })(),
        );
      }
      if (!restarted && acked >= total * 0.7) {
        restarted = true;
        figures.restartedAt = acked;
        milestones.push(victim.start());
      }
    };

    /** One message, to random processes until one answers 200 (same client_id every time). */
    async function send(pair: number, from: Member, to: Member, n: number): Promise<void> {
      const clientId = randomUUID();
      const conversation = conversationOfPair[pair];
      const body = conversation === null ? { profile: to.profileId } : { conversation };
      let tried: ServerProcess | null = null;
      for (let attempt = 0; attempt < 200; attempt++) {
        const server = pick(servers.filter((s) => s !== tried));
        tried = server;
        if (attempt > 0) retries++;
        let res: Reply;
        try {
          res = await httpCall(server.port, 'POST', '/api/messages.php', from.cookie, {
            ...body,
            body: `Message ${n} of pair ${pair}`,
            client_id: clientId,
          });
        } catch {
          figures.networkErrors++;
          await sleep(20 + Math.random() * 80);
          continue;
        }
        if (res.status >= 500) {
          figures.serverErrors++;
          await sleep(20 + Math.random() * 80);
          continue;
        }
        expect(res.status, res.body).toBe(200);
        const message = (JSON.parse(res.body) as { message: { conversation_id: number; seq: number } }).message;
        expect(acks.has(clientId)).toBe(false);
        acks.set(clientId, { conversation: message.conversation_id, seq: message.seq, sender: from.profileId });
        conversationOfPair[pair] ??= message.conversation_id;
        onAck();
        return;
      }
      throw new Error(`message ${n} of pair ${pair} was never acknowledged`);
    }

    // Each pair: its first message alone (it starts the conversation), then both members at once, taking turns
    // at random, until the pair has sent MESSAGES.
    await Promise.all(
      Array.from({ length: PAIRS }, async (_, pair) => {
        const [a, b] = [members[2 * pair], members[2 * pair + 1]];
        await send(pair, a, b, 1);
        let next = 2;
        for (const r of [receivers[2 * pair], receivers[2 * pair + 1]]) r.conversation ??= conversationOfPair[pair];
        const lane = async (from: Member, to: Member) => {
          while (next <= MESSAGES) await send(pair, from, to, next++);
        };
        await Promise.all([lane(a, b), lane(b, a)]);
      }),
    );
    await Promise.all(milestones);
    const sendSeconds = (performance.now() - started) / 1000;

    // The database: per conversation exactly 1..n, n the messages acknowledged in it.
    expect(acks.size).toBe(total);
    const rows = (
      (await t.ctx.db.execute(sql`select m.conversation_id as c, m.seq, m.client_id, m.sender_profile_id as sender, m.price
        from messages m where m.conversation_id in ${sql.raw(`(${conversationOfPair.join(',')})`)} order by m.conversation_id, m.seq`)) as unknown as {
        rows: { c: number; seq: number; client_id: string; sender: number; price: number }[];
      }
    ).rows.map((r) => ({ ...r, c: Number(r.c), seq: Number(r.seq), sender: Number(r.sender) }));
    for (const conversation of conversationOfPair) {
      const seqs = rows.filter((r) => r.c === conversation).map((r) => r.seq);
      expect(seqs).toEqual(Array.from({ length: MESSAGES }, (_, i) => i + 1));
    }
    // Every acknowledged client_id stored once, with the sequence its answer named.
    const byClientId = new Map<string, (typeof rows)[number][]>();
    for (const r of rows) byClientId.set(r.client_id, [...(byClientId.get(r.client_id) ?? []), r]);
    expect(byClientId.size).toBe(rows.length);
    for (const [clientId, ack] of acks) {
      const stored = byClientId.get(clientId) ?? [];
      expect(stored.map((s) => [s.c, s.seq, s.sender])).toEqual([[ack.conversation, ack.seq, ack.sender]]);
    }

    // Credits: each member paid price per stored message of theirs, once, and the ledger sums to the balance.
    for (const m of members) {
      const sent = rows.filter((r) => r.sender === m.profileId);
      expect(sent.every((r) => r.price === price)).toBe(true);
      const [ledger] = (
        (await t.ctx.db.execute(sql`select coalesce(sum(delta), 0)::int as total,
            coalesce(sum(delta) filter (where reason = 'message'), 0)::int as messages,
            count(*) filter (where reason = 'message')::int as message_rows,
            (select credits from users where id = ${m.userId}) as balance
          from credit_ledger where user_id = ${m.userId}`)) as unknown as {
          rows: { total: number; messages: number; message_rows: number; balance: number }[];
        }
      ).rows;
      expect(ledger.messages).toBe(-sent.length * price);
      expect(ledger.message_rows).toBe(price > 0 ? sent.length : 0);
      expect(ledger.total).toBe(ledger.balance);
      expect(ledger.balance).toBe((balanceBefore.get(m.userId) ?? 0) - sent.length * price);
    }

    // The sockets: every member saw every message of their conversation, by frame or by a fetch.
    const deadline = Date.now() + 15_000;
    while (receivers.some((r) => r.contiguous() < MESSAGES) && Date.now() < deadline) await sleep(100);
    const missing = receivers.filter((r) => r.contiguous() < MESSAGES).map((r) => [r.member.profileId, r.contiguous()]);
    expect(missing).toEqual([]);
    const byFrame = receivers.reduce((sum, r) => sum + r.byFrame.size, 0);
    const onlyFetched = receivers.reduce((sum, r) => sum + [...r.byFetch].filter((s) => !r.byFrame.has(s)).length, 0);
    console.info(
      JSON.stringify({
        pairs: PAIRS,
        messages: MESSAGES,
        stored: rows.length,
        retries,
        ...figures,
        receiverReconnects: receivers.reduce((sum, r) => sum + r.reconnects, 0),
        deliveredByFrame: byFrame,
        deliveredOnlyByFetch: onlyFetched,
        sendSeconds: Math.round(sendSeconds * 10) / 10,
        messagesPerSecond: Math.round(total / sendSeconds),
      }),
    );
    // The killed process's socket holders and the pub/sub drop really happened.
    expect(figures.pubsubKilled).toBeGreaterThanOrEqual(PROCESSES - 1);
    expect(victim.up).toBe(true);
  }, 900_000);
});

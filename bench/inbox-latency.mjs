// The console inbox's latency: how soon a member's message to a fictional profile shows in an operator's open
// inbox. The built server as `npm start` runs it (embedded PGlite, demo data, production mode); the demo operator
// signs in (password and authenticator code) and opens the console's live channel (GET /api/console/live,
// Server-Sent Events); the demo member writes to the fictional profile of their demo chat, one message after
// another. Per message: from the member's send answer to the channel's notice, and to the inbox list showing it
// (GET /api/console/inbox, called when the notice arrives, until its waiting count is the new one).
// A notice may arrive before the send's answer does (the event follows the commit, the answer is written after
// it): those are negative.
// Run: npm run bench -- inbox   (builds the server first; writes bench/results/inbox.json)
// BENCH_INBOX_MESSAGES (200) messages, BENCH_INBOX_GAP_MS (100) between them, port BENCH_INBOX_PORT (3240);
// BENCH_INBOX_DATA_DIR reuses a data folder (the first start makes the demo data, which takes a while).
import { createHmac } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { Agent, request } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { startAmora } from './servers.mjs';

const HOST = 'amora.localhost';
const PORT = Number(process.env.BENCH_INBOX_PORT ?? 3240);
const MESSAGES = Number(process.env.BENCH_INBOX_MESSAGES ?? 200);
const GAP_MS = Number(process.env.BENCH_INBOX_GAP_MS ?? 100);
const WARM_UP = 5;
// The demo data's logins (packages/db/src/seed.ts: DEMO_MEMBERS, DEMO_STAFF, their password and authenticator).
const MEMBER = { email: 'demo@amora.example', password: 'amora-demo-2026' };
const STAFF_PASSWORD = 'amora-console-2026';
const STAFF_TOTP_SECRET = 'JBSWY3DPEHPK3PXPAMORADEMOCONSOLE';

const agent = new Agent({ keepAlive: true, maxSockets: 8 });
const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));
const percentile = (sorted, p) => sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))];
const round1 = (n) => Math.round(n * 10) / 10;

function summary(values) {
  const sorted = [...values].sort((a, b) => a - b);
  return {
    p50: round1(percentile(sorted, 50)),
    p99: round1(percentile(sorted, 99)),
    min: round1(sorted[0]),
    max: round1(sorted.at(-1)),
  };
}

/** One API call with our Host header and cookies; the answer as { status, body, cookies }. */
function call(method, path, { cookie, body } = {}) {
  return new Promise((resolve, reject) => {
    const data = body === undefined ? undefined : JSON.stringify(body);
    const req = request(
      `http://127.0.0.1:${PORT}${path}`,
      {
        method,
        agent,
        headers: {
          host: HOST,
          'x-request-type': 'client',
          ...(cookie ? { cookie } : {}),
          ...(data ? { 'content-type': 'application/json', 'content-length': Buffer.byteLength(data) } : {}),
        },
      },
      (res) => {
        let text = '';
        res.setEncoding('utf8');
        res.on('data', (chunk) => {
          text += chunk;
        });
        res.on('end', () => {
          const cookies = (res.headers['set-cookie'] ?? []).map((c) => c.split(';')[0]);
          let json = null;
          try {
            json = JSON.parse(text);
          } catch {
            // not JSON
          }
          resolve({ status: res.statusCode, body: json ?? text, cookies });
        });
      },
    );
    req.on('error', reject);
    req.end(data);
  });
}

async function ok(method, path, options) {
  const res = await call(method, path, options);
  if (res.status !== 200) throw new Error(`${method} ${path}: HTTP ${res.status} ${JSON.stringify(res.body)}`);
  return res;
}

/** An authenticator's code now (RFC 6238: HMAC-SHA-1 of the 30-second step, six digits), as the staff's app shows it. */
function totp(base32) {
  const alphabet = 'ABCDEFGHIJKLMNOPQRSTUVWXYZ234567';
  let bits = '';
  for (const char of base32.replace(/=+$/, '')) bits += alphabet.indexOf(char).toString(2).padStart(5, '0');
  const key = Buffer.from(bits.match(/.{8}/g).map((byte) => Number.parseInt(byte, 2)));
  const step = Buffer.alloc(8);
  step.writeBigUInt64BE(BigInt(Math.floor(Date.now() / 30_000)));
  const mac = createHmac('sha1', key).update(step).digest();
  const offset = mac[mac.length - 1] & 0xf;
  return String((mac.readUInt32BE(offset) & 0x7fffffff) % 1_000_000).padStart(6, '0');
}

/** A demo staff member signed in: the password, then the authenticator's current code. Their console cookie. */
async function signInStaff(email) {
  const first = await ok('POST', '/api/console/login', { body: { email, password: STAFF_PASSWORD } });
  const cookie = first.cookies.find((c) => c.startsWith('amora_staff='));
  const code = totp(STAFF_TOTP_SECRET);
  await ok('POST', '/api/console/login/second-factor', { cookie, body: { code } });
  return cookie;
}

/** The console's live channel as a browser's EventSource reads it: each frame to `onFrame` with its arrival time. */
function openStream(cookie, onFrame) {
  return new Promise((resolve, reject) => {
    const req = request(`http://127.0.0.1:${PORT}/api/console/live`, {
      headers: { host: HOST, cookie, accept: 'text/event-stream' },
    });
    req.on('response', (res) => {
      if (res.statusCode !== 200) {
        reject(new Error(`live channel: HTTP ${res.statusCode}`));
        return;
      }
      let buffered = '';
      res.setEncoding('utf8');
      res.on('data', (chunk) => {
        const at = performance.now();
        buffered += chunk;
        let cut = buffered.indexOf('\n\n');
        while (cut >= 0) {
          const event = buffered.slice(0, cut);
          buffered = buffered.slice(cut + 2);
          cut = buffered.indexOf('\n\n');
          const data = event
            .split('\n')
            .filter((line) => line.startsWith('data: '))
            .map((line) => line.slice(6))
            .join('\n');
          if (data) onFrame(JSON.parse(data), at);
        }
      });
      resolve(req);
    });
    req.on('error', reject);
    req.end();
  });
}

export async function runInboxLatencyBenchmark() {
  const dataDir = process.env.BENCH_INBOX_DATA_DIR ?? mkdtempSync(join(tmpdir(), 'amora-bench-inbox-'));
  const server = await startAmora(PORT, dataDir);
  let stream = null;
  try {
    const operator = await signInStaff('operator@amora.example');
    const admin = await signInStaff('admin@amora.example');

    // The demo member, with credits enough for every message (an admin's adjustment, as support would make it).
    const found = await ok('GET', `/api/console/members?q=${encodeURIComponent(MEMBER.email)}`, { cookie: admin });
    const hit = found.body.members.find((m) => m.email === MEMBER.email);
    await ok('POST', `/api/console/members/${hit.user_id}/credits`, {
      cookie: admin,
      body: { amount: 20 * (MESSAGES + WARM_UP + 5), reason: 'Inbox latency benchmark' },
    });
    const login = await ok('POST', '/api/user.php', { body: MEMBER });
    const member = login.cookies.join('; ');

    // The member's demo chat with a fictional profile (the demo data has one waiting on each site).
    const chats = await ok('GET', '/api/chats.php', { cookie: member });
    const chat = chats.body.chats.find((c) => c.profile.is_fictional);
    if (!chat) throw new Error('the demo member has no chat with a fictional profile');
    const conversation = chat.conversation.id;
    const siteId = hit.site.id;

    /** The conversation's waiting count as the inbox lists it (the pages of the member's site), or null. */
    async function listed() {
      let page = 1;
      for (;;) {
        const res = await ok('GET', `/api/console/inbox?site=${siteId}&page=${page}`, { cookie: operator });
        const item = res.body.items.find((i) => i.conversation_id === conversation);
        if (item) return item.waiting;
        if (page >= res.body.pages) return null;
        // The conversation just written to waits the shortest time: it is on the last page.
        page = res.body.pages;
      }
    }

    let waitingFor = null;
    stream = await openStream(operator, (frame, at) => {
      if (frame.type !== 'inbox' || frame.conversation_id !== conversation) return;
      if (waitingFor) {
        const resolve = waitingFor;
        waitingFor = null;
        resolve(at);
      }
    });
    await sleep(200);

    let waiting = (await listed()) ?? 0;
    const rows = [];
    for (let i = 0; i < WARM_UP + MESSAGES; i++) {
      const noticed = new Promise((resolve) => {
        waitingFor = resolve;
      });
      const timeout = sleep(5_000).then(() => null);
      const sentAt = performance.now();
      await ok('POST', '/api/messages.php', {
        cookie: member,
        body: { conversation, body: `Message ${i + 1} of the inbox benchmark`, client_id: crypto.randomUUID() },
      });
      const answeredAt = performance.now();
      waiting += 1;
      const noticeAt = await Promise.race([noticed, timeout]);
      if (noticeAt === null) {
        waitingFor = null;
        rows.push({ lost: true });
        continue;
      }
      // The console reads the list when told; until it shows the new count (it does at the first read).
      let reads = 0;
      let shown = null;
      while (shown !== waiting && reads < 20) {
        reads++;
        shown = await listed();
      }
      const listedAt = performance.now();
      if (i >= WARM_UP) {
        rows.push({
          sendMs: answeredAt - sentAt,
          noticeAfterAnswerMs: noticeAt - answeredAt,
          noticeAfterSendMs: noticeAt - sentAt,
          listAfterAnswerMs: listedAt - answeredAt,
          listAfterNoticeMs: listedAt - noticeAt,
          reads,
        });
      }
      await sleep(GAP_MS);
    }
    const done = rows.filter((r) => !r.lost);
    return {
      setup: 'built server, embedded PGlite, production mode, one process; the operator’s live channel and the member on it',
      messages: done.length,
      lost: rows.length - done.length,
      gapMs: GAP_MS,
      send: summary(done.map((r) => r.sendMs)),
      noticeAfterAnswer: summary(done.map((r) => r.noticeAfterAnswerMs)),
      noticeAfterSend: summary(done.map((r) => r.noticeAfterSendMs)),
      noticeBeforeAnswer: done.filter((r) => r.noticeAfterAnswerMs < 0).length,
      listAfterAnswer: summary(done.map((r) => r.listAfterAnswerMs)),
      listAfterNotice: summary(done.map((r) => r.listAfterNoticeMs)),
      listReadsMax: Math.max(...done.map((r) => r.reads)),
    };
  } finally {
    stream?.destroy();
    agent.destroy();
    const exited = new Promise((resolve) => server.once('exit', resolve));
    server.kill('SIGTERM');
    await Promise.race([exited, sleep(10_000)]);
    if (!process.env.BENCH_INBOX_DATA_DIR) rmSync(dataDir, { recursive: true, force: true });
  }
}

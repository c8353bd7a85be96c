// Activity mails while the receiver is away (issue 26's measures), on the built server with PostgreSQL and a real
// SMTP server in this process:
// - latency: 100 senders each write one message to a receiver of their own, paced over 10 s; for each receiver,
//   the time from the message's answer to its mail reaching the SMTP server, p50/p99 (the mail is due a minute
//   after the first message by design, MESSAGE_MAIL_DELAY_MS; the rest is the job worker's poll and SMTP);
// - batching: 10 senders each write 20 messages in one minute to a receiver of their own; the mails each of those
//   receivers gets within the digest window (target 1).
// Run: npm run bench -- notices   (builds the server first; writes bench/results/notices.json). About 2.5 minutes.
// BENCH_DATABASE_URL (or TEST_DATABASE_URL) names the PostgreSQL server (its database amora_bench_notices is made
// and dropped). Ports 3250 (HTTP) and 3251 (SMTP).

import { randomUUID } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import { SMTPServer } from 'smtp-server';
import { makeMembers, post, stop } from './chat.mjs';
import { startAmora } from './servers.mjs';
import { freshDatabase } from './two-processes.mjs';

const PORT = Number(process.env.BENCH_NOTICES_PORT ?? 3250);
const SMTP_PORT = PORT + 1;
const PAIRS = 100;
const BATCH_PAIRS = 10;
const BATCH_MESSAGES = 20;
/** How long the run waits for the mails: the first delay, a digest window's end for the batches, and slack. */
const WAIT_MS = 100_000;

const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));
const percentile = (sorted, p) => (sorted.length ? sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] : null);

/** The SMTP server the built server delivers to: when each mail to each address arrived. */
function startSmtp() {
  const arrivals = new Map(); // address → [ms]
  const server = new SMTPServer({
    authOptional: true,
    disabledCommands: ['STARTTLS'],
    logger: false,
    onData(stream, session, callback) {
      stream.on('data', () => {});
      stream.on('end', () => {
        const at = Date.now();
        for (const rcpt of session.envelope.rcptTo) {
          const address = rcpt.address.toLowerCase();
          arrivals.set(address, [...(arrivals.get(address) ?? []), at]);
        }
        callback();
      });
    },
  });
  return new Promise((resolve) => server.listen(SMTP_PORT, '127.0.0.1', () => resolve({ server, arrivals })));
}

export async function runNoticesBenchmark() {
  const fresh = await freshDatabase('notices');
  const dir = mkdtempSync(join(tmpdir(), 'amora-bench-notices-'));
  const smtp = await startSmtp();
  const db = new pg.Client({ connectionString: fresh.databaseUrl });
  let child = null;
  try {
    child = await startAmora(PORT, dir, {
      DATABASE_URL: fresh.databaseUrl,
      SEED_DEMO: 'false',
      SMTP_URL: `smtp://127.0.0.1:${SMTP_PORT}`,
    });
    await db.connect();
    const senders = await makeMembers(db, PAIRS + BATCH_PAIRS, 0, 'bench-notice-sender');
    const receivers = await makeMembers(db, PAIRS + BATCH_PAIRS, 0, 'bench-notice-receiver');
    const addressOf = (i) => `bench-notice-receiver-${i + 1}@example.com`;
    const send = async (i) => {
      const res = await post(PORT, '/api/messages.php', senders[i].cookie, {
        profile: receivers[i].profileId,
        body: 'Hello, how are you?',
        client_id: randomUUID(),
      });
      if (res.status !== 200) throw new Error(`send ${i}: ${res.status} ${res.body}`);
      return Date.now();
    };

    const start = Date.now();
    const sentAt = [];
    const batches = [];
    // The batches: 20 messages each in one minute (one every 3 s), beside the paced single messages.
    for (let b = 0; b < BATCH_PAIRS; b++) {
      const i = PAIRS + b;
      batches.push(
        (async () => {
          for (let m = 0; m < BATCH_MESSAGES; m++) {
            await send(i);
            await sleep(3_000);
          }
        })(),
      );
    }
    for (let i = 0; i < PAIRS; i++) {
      const due = start + (i * 10_000) / PAIRS;
      await sleep(Math.max(0, due - Date.now()));
      sentAt[i] = await send(i);
    }
    await Promise.all(batches);
    await sleep(Math.max(0, start + WAIT_MS - Date.now()));

    const latencies = [];
    let missing = 0;
    for (let i = 0; i < PAIRS; i++) {
      const first = smtp.arrivals.get(addressOf(i))?.[0];
      if (first === undefined) missing++;
      else latencies.push(first - sentAt[i]);
    }
    latencies.sort((a, b) => a - b);
    const mailsPerBatch = Array.from({ length: BATCH_PAIRS }, (_, b) => smtp.arrivals.get(addressOf(PAIRS + b))?.length ?? 0);
    const seconds = (ms) => (ms === null ? null : Math.round(ms / 100) / 10);
    return {
      pairs: PAIRS,
      mailDelayDesignedS: 60,
      latencyS: {
        p50: seconds(percentile(latencies, 50)),
        p99: seconds(percentile(latencies, 99)),
        max: seconds(latencies.at(-1) ?? null),
      },
      missing,
      batches: { receivers: BATCH_PAIRS, messagesEach: BATCH_MESSAGES, inSeconds: 60, mailsEach: mailsPerBatch },
      pass: missing === 0 && mailsPerBatch.every((n) => n === 1),
    };
  } finally {
    await db.end().catch(() => {});
    if (child) await stop(child);
    smtp.server.close();
    await fresh.drop();
    rmSync(dir, { recursive: true, force: true });
  }
}

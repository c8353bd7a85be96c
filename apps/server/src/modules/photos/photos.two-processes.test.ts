import { type ChildProcess, spawn } from 'node:child_process';
import { randomBytes, randomUUID } from 'node:crypto';
import { closeSync, mkdtempSync, openSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { request } from 'node:http';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { profiles } from '@amora/db';
import { eq } from 'drizzle-orm';
import type { LightMyRequestResponse } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type MediaStore, mediaStoreOf } from '../../lib/media-storage';
import { callAs, createMember, type Member, uploadPhoto } from '../../test/factories';
import { CLIENT, createTestApp, type TestApp } from '../../test/harness';
import { photoJpeg } from '../../test/images';
import { startS3Server, type TestS3Server } from '../../test/s3-server';
import { credit } from '../credits/credits.service';
import { purgeDeletedAccounts } from '../deletion/deletion.service';

/**
 * Two server processes that share nothing but PostgreSQL, Redis and the bucket: each has its own DATA_DIR, its own
 * connections and its own copy of every cache (createTestApp's `joining`, as the other two-process tests).
 */
const withRedis = process.env.AMORA_TEST_DB === 'postgres' && Boolean(process.env.TEST_REDIS_URL);
const DAY = 86_400_000;

describe.skipIf(!withRedis)('media in a bucket, two processes', () => {
  let s3: TestS3Server;
  let one: TestApp;
  let two: TestApp;
  let bucket: MediaStore;
  let dirs: string[] = [];

  beforeAll(async () => {
    dirs = [mkdtempSync(join(tmpdir(), 'amora-one-')), mkdtempSync(join(tmpdir(), 'amora-two-'))];
    s3 = await startS3Server();
    const media = await s3.bucket();
    one = await createTestApp({ dataDir: dirs[0], media });
    two = await createTestApp({ dataDir: dirs[1], media }, { joining: one });
    bucket = mediaStoreOf(one.ctx.config);
  });
  afterAll(async () => {
    await two?.close();
    await one?.close();
    await s3?.close();
    for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
  });

  const keysUnder = async (prefix: string) => {
    const keys = [];
    for await (const object of bucket.list(prefix)) keys.push(object.key);
    return keys;
  };
  /** Files either process left in its own DATA_DIR (none: the media are in the bucket). */
  const localFiles = () => dirs.flatMap((dir) => readdirSync(dir, { recursive: true, withFileTypes: true }).filter((e) => e.isFile()));

  it('both are ready: their readiness check asks the bucket', async () => {
    for (const t of [one, two]) {
      const res = await t.app.inject({ url: '/health/ready', headers: { host: '10.0.0.7' } });
      expect(res.statusCode, res.body).toBe(200);
      expect(res.json().checks.storage).toBe('ok');
    }
    const lost = await createTestApp({ dataDir: dirs[0], media: { ...(await s3.bucket()), bucket: 'not-there' } }, { joining: one });
    try {
      const res = await lost.app.inject({ url: '/health/ready', headers: { host: '10.0.0.7' } });
      expect(res.statusCode).toBe(503);
      expect(res.json().checks.storage).not.toBe('ok');
    } finally {
      await lost.close();
    }
  });

  it('a photo uploaded through one is served by the other, from the bucket', async () => {
    const me = await createMember(one);
    const photo = await uploadPhoto(one, me, { seed: 3 });
    const [owned] = await keysUnder(`media/${me.userId}/`);
    expect(owned).toMatch(new RegExp(`^media/${me.userId}/[0-9a-f]{32}/`));
    expect(await keysUnder(`media/${me.userId}/`)).toHaveLength(4);

    for (const variant of ['large', 'thumb', 'match', 'blur']) {
      const url = `/api/photo.php?id=${photo.id}&v=${variant}`;
      const [here, there] = [await callAs(one, me, 'GET', url), await callAs(two, me, 'GET', url)];
      expect(there.statusCode, there.body).toBe(200);
      expect(there.headers['content-type']).toBe('image/webp');
      expect(there.rawPayload.equals(here.rawPayload)).toBe(true);
    }
    // Still behind the access check: a free member sees only the blur of a photo that is not the main one.
    const second = await uploadPhoto(one, me, { seed: 4 });
    const stranger = await createMember(two);
    expect((await callAs(two, stranger, 'GET', `/api/photo.php?id=${second.id}&v=blur`)).statusCode).toBe(200);
    expect((await callAs(two, stranger, 'GET', `/api/photo.php?id=${second.id}&v=large`)).statusCode).toBe(404);
    expect(localFiles()).toEqual([]);

    // Deleted through the other process: gone from the bucket, and served by neither.
    const deleted = await callAs(two, me, 'DELETE', '/api/photos.php', { id: photo.id });
    expect(deleted.statusCode, deleted.body).toBe(200);
    expect(await keysUnder(`media/${me.userId}/`)).toHaveLength(4);
    expect((await keysUnder(`media/${me.userId}/`)).some((key) => key.startsWith(owned.slice(0, owned.lastIndexOf('/'))))).toBe(false);
    expect((await callAs(one, me, 'GET', `/api/photo.php?id=${photo.id}&v=large`)).statusCode).toBe(404);
  });

  it('a chat photo sent on one is revealed on the other', async () => {
    const [a, b] = [await createMember(one), await createMember(one)];
    const [{ siteId }] = await one.ctx.db.select({ siteId: profiles.siteId }).from(profiles).where(eq(profiles.id, a.profileId));
    await credit(one.ctx, { userId: a.userId, siteId, amount: 50, reason: 'test' });
    const started = await callAs(one, a, 'POST', '/api/messages.php', { profile: b.profileId, body: 'Hi', client_id: randomUUID() });
    expect(started.statusCode, started.body).toBe(200);
    const conversation = started.json().message.conversation_id;

    const sent = await sendChatPhoto(one, a, `conversation=${conversation}&client_id=${randomUUID()}`);
    expect(sent.statusCode, sent.body).toBe(200);
    const message = sent.json().message.id;
    const large = `/api/chat-photo.php?message=${message}&v=large`;
    expect(await keysUnder(`media/${a.userId}/`)).toHaveLength(4);

    expect((await callAs(two, b, 'GET', `/api/chat-photo.php?message=${message}&v=blur`)).statusCode).toBe(200);
    expect((await callAs(two, b, 'GET', large)).statusCode).toBe(404);
    const revealed = await callAs(two, b, 'POST', '/api/chat-photo-reveal.php', { message });
    expect(revealed.statusCode, revealed.body).toBe(200);
    const [there, own] = [await callAs(two, b, 'GET', large), await callAs(one, a, 'GET', large)];
    expect(there.statusCode).toBe(200);
    expect(there.rawPayload.equals(own.rawPayload)).toBe(true);
    expect(localFiles()).toEqual([]);
  });

  it("a data export prepared by one process's job is downloaded through the other", async () => {
    const me = await createMember(one);
    await uploadPhoto(one, me, { seed: 5 });
    expect((await callAs(one, me, 'POST', '/api/data-export.php')).statusCode).toBe(200);
    await two.ctx.jobs.runDue();
    expect(await keysUnder('exports/')).toHaveLength(1);
    const download = await callAs(one, me, 'GET', '/api/data-export.php?download=latest');
    expect(download.statusCode, download.body).toBe(200);
    expect(download.headers['content-type']).toBe('application/zip');
    expect(download.rawPayload.subarray(0, 2).toString()).toBe('PK');
    expect(Number(download.headers['content-length'])).toBe(download.rawPayload.length);
    expect(localFiles().filter((f) => !f.parentPath.endsWith('tmp'))).toEqual([]);
  });

  it('the account purge on one process removes every object of the member that deleted their account on the other', async () => {
    const me = await createMember(one);
    await uploadPhoto(one, me, { seed: 7 });
    await uploadPhoto(one, me, { seed: 8 });
    expect((await callAs(one, me, 'POST', '/api/data-export.php')).statusCode).toBe(200);
    await one.ctx.jobs.runDue();
    const exportsBefore = await keysUnder('exports/');
    const keeper = await createMember(one);
    await uploadPhoto(one, keeper, { seed: 9 });
    expect(await keysUnder(`media/${me.userId}/`)).toHaveLength(8);

    const gone = await callAs(one, me, 'DELETE', '/api/user.php', { password: me.password, reason: 'privacy' });
    expect(gone.statusCode, gone.body).toBe(200);
    two.clock.advance(15 * DAY);
    expect(await purgeDeletedAccounts(two.ctx)).toBeGreaterThanOrEqual(1);
    expect(await keysUnder(`media/${me.userId}/`)).toEqual([]);
    expect((await keysUnder('exports/')).length).toBe(exportsBefore.length - 1);
    expect(await keysUnder(`media/${keeper.userId}/`)).toHaveLength(4);
  });
});

async function sendChatPhoto(t: TestApp, who: Member, query: string): Promise<LightMyRequestResponse> {
  const form = new FormData();
  form.append('photo', new Blob([new Uint8Array(await photoJpeg(400, 300))], { type: 'image/jpeg' }), 'chat.jpg');
  const body = new Response(form);
  return (await t.app.inject({
    method: 'POST',
    url: `/api/chat-photo.php?${query}`,
    headers: { host: who.host, ...CLIENT, cookie: who.cookie, 'content-type': body.headers.get('content-type') as string },
    payload: Buffer.from(await body.arrayBuffer()),
    remoteAddress: who.ip,
  })) as LightMyRequestResponse;
}

/** Two real server processes (main.ts from the sources, as chat.durability.test.ts starts them). */
const MAIN = fileURLToPath(new URL('../../main.ts', import.meta.url));
const PORTS = [4710, 4719] as const;

function portIsFree(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const probe = createServer();
    probe.once('error', () => resolve(false));
    probe.listen(port, '127.0.0.1', () => probe.close(() => resolve(true)));
  });
}

async function startServer(port: number, dataDir: string, env: Record<string, string>): Promise<ChildProcess> {
  const logFile = join(dataDir, 'server.log');
  const log = openSync(logFile, 'a');
  const child = spawn(process.execPath, ['--import', 'tsx', MAIN], {
    env: { ...process.env, ...env, PORT: String(port), DATA_DIR: dataDir },
    stdio: ['ignore', log, log],
  });
  closeSync(log);
  const deadline = Date.now() + 120_000;
  while (Date.now() < deadline && child.exitCode === null) {
    const res = await fetch(`http://127.0.0.1:${port}/health/ready`).catch(() => null);
    if (res?.status === 200) return child;
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
  child.kill('SIGKILL');
  throw new Error(`the server on ${port} did not start: ${readFileSync(logFile, 'utf8').slice(-2000)}`);
}

describe.skipIf(!withRedis)('media in a bucket, two server processes', () => {
  let t: TestApp;
  let s3: TestS3Server;
  let bucket: MediaStore;
  const servers: { port: number; child: ChildProcess; dir: string }[] = [];

  beforeAll(async () => {
    t = await createTestApp();
    s3 = await startS3Server();
    const media = await s3.bucket();
    bucket = mediaStoreOf({ dataDir: tmpdir(), media });
    const env = {
      NODE_ENV: 'test',
      HOST: '127.0.0.1',
      DATABASE_URL: t.shared.databaseUrl as string,
      REDIS_URL: process.env.TEST_REDIS_URL as string,
      REDIS_PREFIX: `amora:test:media:${randomBytes(4).toString('hex')}:`,
      SEED_DEMO: 'false',
      WEB_DIST: '/nonexistent',
      API_RATE_LIMIT: '100000000',
      LOG_LEVEL: 'warn',
      S3_BUCKET: media.bucket,
      S3_ENDPOINT: s3.endpoint,
      S3_ACCESS_KEY_ID: 'S3RVER',
      S3_SECRET_ACCESS_KEY: 'S3RVER',
    };
    const ports = [];
    for (let port = PORTS[0]; port <= PORTS[1] && ports.length < 2; port++) if (await portIsFree(port)) ports.push(port);
    if (ports.length < 2) throw new Error(`fewer than 2 free ports in ${PORTS.join('-')}`);
    await Promise.all(
      ports.map(async (port) => {
        const dir = mkdtempSync(join(tmpdir(), `amora-process-${port}-`));
        servers.push({ port, dir, child: await startServer(port, dir, env) });
      }),
    );
  }, 180_000);

  afterAll(async () => {
    for (const server of servers) {
      const exited = new Promise((resolve) => server.child.once('exit', resolve));
      server.child.kill('SIGTERM');
      await Promise.race([exited, new Promise((resolve) => setTimeout(resolve, 10_000))]);
      rmSync(server.dir, { recursive: true, force: true });
    }
    await s3?.close();
    await t?.close();
  }, 60_000);

  /** A call as the member (node:http: fetch would not send the site's Host header). */
  const http = (port: number, who: Member, method: string, path: string, body?: { type: string; data: Buffer }) =>
    new Promise<{ status: number; type: string | undefined; body: Buffer }>((resolve, reject) => {
      const req = request(
        {
          host: '127.0.0.1',
          port,
          path,
          method,
          headers: {
            host: who.host,
            cookie: who.cookie,
            ...CLIENT,
            ...(body ? { 'content-type': body.type, 'content-length': body.data.length } : {}),
          },
        },
        (res) => {
          const chunks: Buffer[] = [];
          res.on('data', (chunk: Buffer) => chunks.push(chunk));
          res.on('end', () => resolve({ status: res.statusCode ?? 0, type: res.headers['content-type'], body: Buffer.concat(chunks) }));
          res.on('error', reject);
        },
      );
      req.on('error', reject);
      req.end(body?.data);
    });

  it('a photo uploaded through one process is served by the other and deleted through it from the bucket', async () => {
    const [one, two] = servers;
    const me = await createMember(t);
    const form = new FormData();
    form.append('photo', new Blob([new Uint8Array(await photoJpeg(320, 400, { seed: 11 }))], { type: 'image/jpeg' }), 'me.jpg');
    const multipart = new Response(form);
    const uploaded = await http(one.port, me, 'POST', '/api/photos.php', {
      type: multipart.headers.get('content-type') as string,
      data: Buffer.from(await multipart.arrayBuffer()),
    });
    expect(uploaded.status, uploaded.body.toString()).toBe(200);
    const photo = JSON.parse(uploaded.body.toString()).photo as { id: number };
    const keys = async () => {
      const found = [];
      for await (const object of bucket.list(`media/${me.userId}/`)) found.push(object.key);
      return found;
    };
    expect(await keys()).toHaveLength(4);

    const [here, there] = await Promise.all(
      [one, two].map(async (server) => {
        const res = await http(server.port, me, 'GET', `/api/photo.php?id=${photo.id}&v=large`);
        expect(res.status).toBe(200);
        expect(res.type).toBe('image/webp');
        return res.body;
      }),
    );
    expect(there.equals(here)).toBe(true);
    for (const server of servers) {
      expect(
        readdirSync(server.dir, { recursive: true, withFileTypes: true })
          .filter((e) => e.isFile())
          .map((e) => e.name),
      ).toEqual(['server.log']);
    }

    const deleted = await http(two.port, me, 'DELETE', '/api/photos.php', {
      type: 'application/json',
      data: Buffer.from(JSON.stringify({ id: photo.id })),
    });
    expect(deleted.status, deleted.body.toString()).toBe(200);
    expect(await keys()).toEqual([]);
    expect((await http(one.port, me, 'GET', `/api/photo.php?id=${photo.id}&v=large`)).status).toBe(404);
  });
});

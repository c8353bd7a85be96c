import { randomUUID } from 'node:crypto';
import { mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
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

import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { LightMyRequestResponse } from 'fastify';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AMORA, call, signup } from '../../test/accounts';
import { recordEvents } from '../../test/events';
import { CLIENT, createTestApp, type TestApp } from '../../test/harness';

let t: TestApp;
const dataDir = mkdtempSync(join(tmpdir(), 'amora-profile-events-'));
beforeAll(async () => {
  t = await createTestApp({ dataDir });
});
afterAll(async () => {
  await t?.close();
  rmSync(dataDir, { recursive: true, force: true });
});

const ip = `10.${Math.floor(Math.random() * 250) + 1}.${Math.floor(Math.random() * 250)}.9`;

async function member() {
  const res = await signup(t, {}, { ip });
  return { cookie: res.cookie, profileId: res.user.profile.id as number };
}

const as = (who: { cookie: string }, method: 'PUT' | 'DELETE', url: string, payload: unknown) =>
  call(t, method, url, payload, { cookie: who.cookie, ip });

async function uploadOk(who: { cookie: string }): Promise<number> {
  const jpeg = await sharp({ create: { width: 400, height: 500, channels: 3, background: { r: 200, g: 40, b: 60 } } })
    .jpeg()
    .toBuffer();
  const form = new FormData();
  form.append('photo', new Blob([new Uint8Array(jpeg)], { type: 'image/jpeg' }), 'me.jpg');
  const body = new Response(form);
  const res = (await t.app.inject({
    method: 'POST',
    url: '/api/photos.php',
    headers: { host: AMORA, cookie: who.cookie, 'content-type': body.headers.get('content-type') as string, ...CLIENT },
    payload: Buffer.from(await body.arrayBuffer()),
    remoteAddress: ip,
  })) as LightMyRequestResponse;
  expect(res.statusCode, res.body).toBe(200);
  return res.json().photo.id;
}

describe('profile.changed', () => {
  it('is raised after an own profile edit, naming the fields sent; not for a refused one', async () => {
    const changes = recordEvents(t.ctx.events, 'profile.changed');
    const a = await member();
    const siteId = (await t.ctx.sites.forHost(AMORA))?.id;
    expect((await as(a, 'PUT', '/api/profile.php', { about: 'Hello there', is_invisible: false })).statusCode).toBe(200);
    expect((await as(a, 'PUT', '/api/profile.php', { gender: 'nobody' })).statusCode).toBe(400);
    await t.ctx.events.idle();
    expect(changes.seen.filter((e) => e.profileId === a.profileId)).toEqual([
      { type: 'profile.changed', siteId, profileId: a.profileId, fields: ['about', 'is_invisible'] },
    ]);
    changes.stop();
  });

  it('is raised when the main photo changes: the first photo, another made main, the main one deleted', async () => {
    const changes = recordEvents(t.ctx.events, 'profile.changed');
    const a = await member();
    const first = await uploadOk(a);
    const second = await uploadOk(a);
    expect((await as(a, 'PUT', '/api/main-photo.php', { id: second })).statusCode).toBe(200);
    expect((await as(a, 'DELETE', '/api/photos.php', { id: first })).statusCode).toBe(200);
    await t.ctx.events.idle();
    expect(changes.seen.filter((e) => e.profileId === a.profileId)).toHaveLength(2);
    expect((await as(a, 'DELETE', '/api/photos.php', { id: second })).statusCode).toBe(200);
    expect((await as(a, 'PUT', '/api/main-photo.php', { id: first })).statusCode).toBe(404);
    await t.ctx.events.idle();
    const ours = changes.seen.filter((e) => e.profileId === a.profileId);
    expect(ours).toHaveLength(3);
    for (const event of ours) expect(event).toMatchObject({ type: 'profile.changed', fields: ['main_photo'] });
    changes.stop();
  });
});

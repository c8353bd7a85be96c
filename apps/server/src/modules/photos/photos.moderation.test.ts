import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { photos, sites } from '@amora/db';
import { eq } from 'drizzle-orm';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../test/harness';

let t: TestApp;
let dataDir: string;
beforeAll(async () => {
  dataDir = mkdtempSync(join(tmpdir(), 'amora-moderation-'));
  t = await createTestApp({ dataDir });
  await t.ctx.db.update(sites).set({ moderatePhotos: true }).where(eq(sites.domain, 'amora.localhost'));
  t.ctx.sites.invalidate();
});
afterAll(async () => {
  await t.close();
  rmSync(dataDir, { recursive: true, force: true });
});

describe('photo moderation', () => {
  it('keeps new photos pending on a site that moderates, and a pending photo is not the main one', async () => {
    const signup = await t.app.inject({
      method: 'POST',
      url: '/api/signup.php',
      headers: { host: 'localhost', 'x-request-type': 'client' },
      remoteAddress: '10.77.0.1',
      payload: { email: 'moderated@example.com', name: 'Mo', password: 'long enough secret', date_of_birth: '1990-01-01', terms: true },
    });
    const cookie = signup.cookies.map((c) => `${c.name}=${c.value}`).join('; ');
    const image = await sharp({ create: { width: 400, height: 500, channels: 3, background: '#c8213a' } })
      .jpeg()
      .toBuffer();
    const form = new FormData();
    form.append('photo', new Blob([new Uint8Array(image)], { type: 'image/jpeg' }), 'a.jpg');
    const body = new Response(form);
    const upload = await t.app.inject({
      method: 'POST',
      url: '/api/photos.php',
      headers: { host: 'localhost', cookie, 'x-request-type': 'client', 'content-type': body.headers.get('content-type') as string },
      payload: Buffer.from(await body.arrayBuffer()),
    });
    expect(upload.statusCode).toBe(200);
    expect(upload.json().photo).toMatchObject({ status: 'pending', is_main: false });
    const [row] = await t.ctx.db.select().from(photos).where(eq(photos.id, upload.json().photo.id));
    expect(row.status).toBe('pending');
    const user = await t.app.inject({ url: '/api/user.php', headers: { host: 'localhost', cookie } });
    expect(user.json().user.profile.main_image).toBeNull();
  });
});

import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { photos } from '@amora/db';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { withTransaction } from '../../lib/transaction';
import { createMember, uploadPhoto } from '../../test/factories';
import { createTestApp, type TestApp } from '../../test/harness';
import { deletePhoto } from './photos.service';
import { ownerKeyOf, readPhotoFile } from './photos.storage';

let t: TestApp;
const dataDir = mkdtempSync(join(tmpdir(), 'amora-photo-units-'));
beforeAll(async () => {
  t = await createTestApp({ dataDir });
});
afterAll(async () => {
  await t?.close();
  rmSync(dataDir, { recursive: true, force: true });
});

describe('a photo deletion inside a unit of work', () => {
  it('removes the files only once the unit commits: a unit that rolls back keeps the row and its files', async () => {
    const member = await createMember(t);
    const photo = await uploadPhoto(t, member);
    const [row] = await t.ctx.db.select().from(photos).where(eq(photos.id, photo.id));
    const ownerKey = ownerKeyOf({ userId: member.userId, profileId: member.profileId });
    const file = () => readPhotoFile(dataDir, ownerKey, row.storageKey, 'thumb');
    expect(await file()).not.toBeNull();

    await expect(
      withTransaction(t.ctx, async () => {
        await deletePhoto(t.ctx, { profileId: member.profileId, photoId: photo.id });
        throw new Error('the change around it failed');
      }),
    ).rejects.toThrow('the change around it failed');
    expect(await t.ctx.db.select().from(photos).where(eq(photos.id, photo.id))).toHaveLength(1);
    expect(await file()).not.toBeNull();

    await withTransaction(t.ctx, () => deletePhoto(t.ctx, { profileId: member.profileId, photoId: photo.id }));
    expect(await t.ctx.db.select().from(photos).where(eq(photos.id, photo.id))).toHaveLength(0);
    await expect.poll(file).toBeNull();
  });
});

import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { photos } from '@amora/db';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { localMediaStore } from '../../lib/media-storage';
import { withTransaction } from '../../lib/transaction';
import { createMember, uploadPhoto } from '../../test/factories';
import { createTestApp, type TestApp } from '../../test/harness';
import { photoJpeg } from '../../test/images';
import { addPhoto, deletePhoto } from './photos.service';
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
    const file = () => readPhotoFile(localMediaStore(dataDir), ownerKey, row.storageKey, 'thumb');
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

/** Fails instead of hanging when `work` waits for something that never comes. */
function within<T>(ms: number, work: Promise<T>): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`still waiting after ${ms} ms`)), ms);
  });
  return Promise.race([work, late]).finally(() => clearTimeout(timer));
}

describe('a photo upload inside a unit of work', () => {
  it('joins it (on PGlite it waited forever for its own transaction) and rolls back with it', async () => {
    const member = await createMember(t);
    const buffer = await photoJpeg(240, 320, { seed: 3 });
    const input = { profileId: member.profileId, userId: member.userId, isPremium: false, buffer };
    await expect(
      within(
        10_000,
        withTransaction(t.ctx, async () => {
          await addPhoto(t.ctx, input);
          throw new Error('the change around it failed');
        }),
      ),
    ).rejects.toThrow('the change around it failed');
    expect(await t.ctx.db.select().from(photos).where(eq(photos.profileId, member.profileId))).toHaveLength(0);

    const added = await within(
      10_000,
      withTransaction(t.ctx, () => addPhoto(t.ctx, input)),
    );
    expect(added.isMain).toBe(true);
    expect(await t.ctx.db.select().from(photos).where(eq(photos.profileId, member.profileId))).toHaveLength(1);
  });
});

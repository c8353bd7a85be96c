import { mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { localMediaStore } from '../../lib/media-storage';
import { newStorageKey, ownerKeyOf, readPhotoFile, removeOwnerMedia, removePhotoFiles, writePhotoFiles } from './photos.storage';

const dataDir = mkdtempSync(join(tmpdir(), 'amora-photo-storage-'));
afterAll(() => rmSync(dataDir, { recursive: true, force: true }));
const store = localMediaStore(dataDir);

const variants = {
  large: Buffer.from('large'),
  thumb: Buffer.from('thumb'),
  match: Buffer.from('match'),
  blur: Buffer.from('blur'),
};

describe('photo storage', () => {
  it('names owners by user id, or p<profileId> without an account, and storage keys by 16 random bytes', () => {
    expect(ownerKeyOf({ userId: 42, profileId: 7 })).toBe('42');
    expect(ownerKeyOf({ userId: null, profileId: 7 })).toBe('p7');
    const a = newStorageKey();
    expect(a).toMatch(/^[0-9a-f]{32}$/);
    expect(newStorageKey()).not.toBe(a);
  });

  it('writes the variants under media/<owner>/<key>/, leaving no temp file, and removes them', async () => {
    const key = newStorageKey();
    await writePhotoFiles(store, '42', key, variants);
    expect(readdirSync(join(dataDir, 'media', '42', key)).sort()).toEqual(['blur.webp', 'large.webp', 'match.webp', 'thumb.webp']);
    expect((await readPhotoFile(store, '42', key, 'thumb'))?.toString()).toBe('thumb');
    await removePhotoFiles(store, '42', key);
    expect(await readPhotoFile(store, '42', key, 'thumb')).toBeNull();
  });

  it('removes every photo of an owner', async () => {
    await writePhotoFiles(store, 'p9', newStorageKey(), variants);
    await writePhotoFiles(store, 'p9', newStorageKey(), variants);
    await removeOwnerMedia(store, 'p9');
    expect(readdirSync(join(dataDir, 'media'))).not.toContain('p9');
  });

  it('refuses keys that are not ours (no path outside the media folder can be built)', async () => {
    await expect(writePhotoFiles(store, '../etc', newStorageKey(), variants)).rejects.toThrow('invalid photo storage key');
    await expect(readPhotoFile(store, '42', '../../secret', 'large')).rejects.toThrow('invalid photo storage key');
    await expect(removePhotoFiles(store, '42', '')).rejects.toThrow('invalid photo storage key');
    await expect(removeOwnerMedia(store, '..')).rejects.toThrow('invalid photo owner key');
    await expect(removeOwnerMedia(store, '')).rejects.toThrow('invalid photo owner key');
  });
});

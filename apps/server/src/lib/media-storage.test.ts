import { mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { text } from 'node:stream/consumers';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startS3Server, type TestS3Server } from '../test/s3-server';
import { localMediaStore, type MediaStore, mediaStoreOf, s3MediaStore } from './media-storage';

const folder = mkdtempSync(join(tmpdir(), 'amora-media-store-'));
let s3: TestS3Server;
const stores: Record<string, MediaStore> = {};
beforeAll(async () => {
  s3 = await startS3Server();
  stores.bucket = s3MediaStore(await s3.bucket());
  stores.folder = localMediaStore(join(folder, 'data'));
});
afterAll(async () => {
  await s3?.close();
  rmSync(folder, { recursive: true, force: true });
});

const all = async (store: MediaStore, prefix: string) => {
  const found = [];
  for await (const object of store.list(prefix)) found.push(object);
  return found;
};

describe.each(['folder', 'bucket'])('the media store in a %s', (kind) => {
  const store = () => stores[kind];

  it('gives back what was put under a key, and null for a key with nothing', async () => {
    await store().put('media/1/aa/large.webp', Buffer.from('large bytes'));
    expect((await store().get('media/1/aa/large.webp'))?.toString()).toBe('large bytes');
    await store().put('media/1/aa/large.webp', Buffer.from('replaced'));
    expect((await store().get('media/1/aa/large.webp'))?.toString()).toBe('replaced');
    expect(await store().get('media/1/aa/none.webp')).toBeNull();
    expect(await store().open('exports/none.zip')).toBeNull();
  });

  it('stores a local file, which stays, and streams it back with its size', async () => {
    const file = join(folder, `upload-${kind}.zip`);
    writeFileSync(file, 'zip'.repeat(10_000));
    expect(await store().putFile('exports/0123.zip', file)).toBe(30_000);
    expect(readdirSync(folder)).toContain(`upload-${kind}.zip`);
    const opened = await store().open('exports/0123.zip');
    expect(opened?.size).toBe(30_000);
    expect(await text(opened?.stream as NodeJS.ReadableStream)).toBe('zip'.repeat(10_000));
  });

  it('lists the objects under a prefix with their sizes, and removes some, or all under a prefix', async () => {
    await store().put('media/7/bb/large.webp', Buffer.from('1234'));
    await store().put('media/7/bb/thumb.webp', Buffer.from('12'));
    await store().put('media/7/cc/large.webp', Buffer.from('1'));
    await store().put('media/77/dd/large.webp', Buffer.from('1'));
    expect(await all(store(), 'media/7/')).toEqual([
      { key: 'media/7/bb/large.webp', size: 4 },
      { key: 'media/7/bb/thumb.webp', size: 2 },
      { key: 'media/7/cc/large.webp', size: 1 },
    ]);
    await store().remove(['media/7/cc/large.webp', 'media/7/cc/never-there.webp']);
    expect((await all(store(), 'media/7/')).map((o) => o.key)).toEqual(['media/7/bb/large.webp', 'media/7/bb/thumb.webp']);
    // media/7/ is one owner: media/77/ is another.
    await store().removePrefix('media/7/');
    expect(await all(store(), 'media/7/')).toEqual([]);
    expect((await all(store(), 'media/77/')).map((o) => o.key)).toEqual(['media/77/dd/large.webp']);
    await store().removePrefix('media/nobody/');
  });

  it('answers its readiness check, leaving nothing behind', async () => {
    await store().check();
    expect(await all(store(), 'media/')).not.toContainEqual(expect.objectContaining({ key: expect.stringContaining('ready') }));
  });

  it('refuses a key or prefix that is not one of ours (no way out of the folder or bucket prefix)', async () => {
    for (const key of ['../etc/passwd', '/etc/passwd', 'media//x', 'media/../x', '', 'media/.hidden', 'Media/X']) {
      await expect(store().get(key)).rejects.toThrow('invalid media key');
      await expect(store().put(key, Buffer.from('x'))).rejects.toThrow('invalid media key');
    }
    await expect(store().removePrefix('media')).rejects.toThrow('invalid media prefix');
    await expect(store().removePrefix('')).rejects.toThrow('invalid media prefix');
    await expect(store().removePrefix('../')).rejects.toThrow('invalid media prefix');
  });
});

describe('choosing the store', () => {
  it('is the folder DATA_DIR by default and the bucket with S3_BUCKET, one store per configuration', async () => {
    const local = { dataDir: folder, media: { kind: 'local' as const } };
    expect(mediaStoreOf(local)).toBe(mediaStoreOf(local));
    expect(mediaStoreOf(local).description).toBe(`the folder ${folder}`);
    const bucket = { dataDir: folder, media: await s3.bucket('chosen') };
    expect(mediaStoreOf(bucket).description).toBe(`the bucket chosen at ${s3.endpoint}`);
  });

  it('fails its readiness check on a bucket that is not there, or a folder that cannot be written', async () => {
    const missing = s3MediaStore({ ...(await s3.bucket()), bucket: 'not-there' });
    await expect(missing.check()).rejects.toThrow();
    const file = join(folder, 'a-file');
    writeFileSync(file, 'x');
    await expect(localMediaStore(file).check()).rejects.toThrow();
  });

  it('refuses keys the bucket does not know', async () => {
    const wrong = s3MediaStore({ ...(await s3.bucket()), credentials: { accessKeyId: 'NOBODY', secretAccessKey: 'wrong' } });
    await expect(wrong.put('media/1/aa/large.webp', Buffer.from('x'))).rejects.toThrow();
  });
});

import { execFile } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startS3Server, type TestS3Server } from '../test/s3-server';
import { copyMediaFolder } from './media-copy';
import { type MediaStore, s3MediaStore } from './media-storage';

const ROOT = fileURLToPath(new URL('../../../../', import.meta.url));
const folder = mkdtempSync(join(tmpdir(), 'amora-media-copy-'));
let s3: TestS3Server;
beforeAll(async () => {
  s3 = await startS3Server();
});
afterAll(async () => {
  await s3?.close();
  rmSync(folder, { recursive: true, force: true });
});

/** A DATA_DIR as a server leaves it: photos, a chat photo, a lander size, an export; and what is not media. */
function dataDir(name: string): string {
  const dir = join(folder, name);
  const files: Record<string, string> = {
    'media/12/0123456789abcdef0123456789abcdef/large.webp': 'large-12',
    'media/12/0123456789abcdef0123456789abcdef/thumb.webp': 'thumb-12',
    'media/p7/fedcba9876543210fedcba9876543210/large.webp': 'large-p7',
    'media/p7/fedcba9876543210fedcba9876543210/lander-480.webp': 'lander-p7',
    'exports/00112233445566778899aabbccddeeff.zip': 'zip'.repeat(1000),
    // Not media: a write in progress, the readiness probe, the database, temporary files.
    'media/12/0123456789abcdef0123456789abcdef/blur.webp.a1b2c3.tmp': 'half',
    'media/.ready-123': 'ok',
    'db/PG_VERSION': '17',
    'tmp/export-x.zip': 'temp',
  };
  for (const [key, content] of Object.entries(files)) {
    mkdirSync(dirname(join(dir, key)), { recursive: true });
    writeFileSync(join(dir, key), content);
  }
  return dir;
}

const MEDIA_KEYS = [
  'media/12/0123456789abcdef0123456789abcdef/large.webp',
  'media/12/0123456789abcdef0123456789abcdef/thumb.webp',
  'media/p7/fedcba9876543210fedcba9876543210/lander-480.webp',
  'media/p7/fedcba9876543210fedcba9876543210/large.webp',
  'exports/00112233445566778899aabbccddeeff.zip',
];

async function keysIn(store: MediaStore): Promise<string[]> {
  const keys = [];
  for (const prefix of ['media/', 'exports/', 'db/', 'tmp/']) for await (const object of store.list(prefix)) keys.push(object.key);
  return keys.sort();
}

/** The command as npm runs it (never spawnSync: the S3 server answering it runs in this process). */
function command(env: NodeJS.ProcessEnv): Promise<{ status: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    execFile(process.execPath, ['--import', 'tsx', 'apps/server/src/media-to-bucket.ts'], { cwd: ROOT, env }, (error, stdout, stderr) => {
      resolve({ status: error ? ((error as { code?: number }).code ?? 1) : 0, stdout, stderr });
    });
  });
}

describe('copying a media folder to a bucket', () => {
  it('copies every photo and export under the same key, nothing else, and a second run copies nothing', async () => {
    const dir = dataDir('whole');
    const bucket = s3MediaStore(await s3.bucket());
    const first = await copyMediaFolder(dir, bucket);
    expect(first).toEqual({ copied: 5, copiedBytes: 3033, skipped: 0, failed: [] });
    expect(await keysIn(bucket)).toEqual([...MEDIA_KEYS].sort());
    expect((await bucket.get('media/p7/fedcba9876543210fedcba9876543210/large.webp'))?.toString()).toBe('large-p7');
    expect((await bucket.get('exports/00112233445566778899aabbccddeeff.zip'))?.length).toBe(3000);

    expect(await copyMediaFolder(dir, bucket)).toEqual({ copied: 0, copiedBytes: 0, skipped: 5, failed: [] });
  });

  it('finishes a copy that stopped half-way: what is missing or cut short is copied again, the rest left alone', async () => {
    const dir = dataDir('resumed');
    const bucket = s3MediaStore(await s3.bucket());
    await bucket.put('media/12/0123456789abcdef0123456789abcdef/large.webp', Buffer.from('large-12'));
    await bucket.put('media/12/0123456789abcdef0123456789abcdef/thumb.webp', Buffer.from('thu'));
    const copied: string[] = [];
    const report = await copyMediaFolder(dir, bucket, (event) => event.copied && copied.push(event.key));
    expect(report).toMatchObject({ copied: 4, skipped: 1, failed: [] });
    expect(copied).not.toContain('media/12/0123456789abcdef0123456789abcdef/large.webp');
    expect((await bucket.get('media/12/0123456789abcdef0123456789abcdef/thumb.webp'))?.toString()).toBe('thumb-12');
  });

  it('stops before copying anything when the bucket cannot be listed; the next run copies it all', async () => {
    const dir = dataDir('failing');
    const config = await s3.bucket();
    const wrong = s3MediaStore({ ...config, bucket: 'no-such-bucket' });
    const failed = await copyMediaFolder(dir, wrong).catch((error: Error) => error);
    // Listing a bucket that is not there fails the run before anything is copied.
    expect(failed).toBeInstanceOf(Error);
    expect((await copyMediaFolder(dir, s3MediaStore(config))).copied).toBe(5);
  });

  it('is `npm run media:to-bucket`: it copies DATA_DIR to the S3_ bucket and says what it copied', async () => {
    const dir = dataDir('command');
    const config = await s3.bucket();
    const env = {
      ...process.env,
      DATA_DIR: dir,
      S3_BUCKET: config.bucket,
      S3_ENDPOINT: s3.endpoint,
      S3_ACCESS_KEY_ID: 'S3RVER',
      S3_SECRET_ACCESS_KEY: 'S3RVER',
    };
    const first = await command(env);
    expect(first.status, first.stderr).toBe(0);
    expect(first.stdout).toContain(`Copying the media of ${dir} to the bucket ${config.bucket} at ${s3.endpoint}`);
    expect(first.stdout).toContain('Copied 5 files (0.0 MB): 4 photo files, 1 data exports; 0 were in the bucket already; 0 failed.');
    expect(await keysIn(s3MediaStore(config))).toEqual([...MEDIA_KEYS].sort());
    const again = await command(env);
    expect(again.stdout).toContain('Copied 0 files (0.0 MB): 0 photo files, 0 data exports; 5 were in the bucket already; 0 failed.');

    const without = await command({ ...process.env, DATA_DIR: dir });
    expect(without.status).toBe(2);
    expect(without.stderr).toContain('Set S3_BUCKET');
  });
});

import { randomBytes } from 'node:crypto';
import { createReadStream } from 'node:fs';
import { copyFile, mkdir, readdir, readFile, rename, rm, stat, writeFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import type { Readable } from 'node:stream';
import type { S3Client } from '@aws-sdk/client-s3';

/**
 * Where the media live: members' photos and chat photos (`media/<owner>/<storageKey>/<variant>.webp`, with the
 * landers' sizes beside them) and the data-export ZIPs (`exports/<fileKey>.zip`). One store per process, chosen by
 * the configuration (MediaStorageConfig): a folder (DATA_DIR, the default) or an S3-compatible bucket (AWS S3,
 * Cloudflare R2, MinIO), under the same keys, so a folder copied to a bucket (`npm run media:to-bucket`) is found
 * there as it was. Nothing is public: every object is read here, behind the routes' access checks, and streamed
 * to the member (docs/decisions.md, "Media in a bucket").
 */

export type MediaStorageConfig =
  | { kind: 'local' }
  | {
      kind: 's3';
      bucket: string;
      region: string;
      /** S3_ENDPOINT (R2, MinIO, …): path-style addressing; null: AWS S3 of the region, virtual-hosted style. */
      endpoint: string | null;
      /** Null: the SDK's own chain (environment, instance role). */
      credentials: { accessKeyId: string; secretAccessKey: string } | null;
    };

interface MediaObject {
  stream: Readable;
  size: number;
}

export interface MediaStore {
  /** Where the media are, for people: `the folder …` or `the bucket …`. */
  readonly description: string;
  put(key: string, bytes: Buffer): Promise<void>;
  /** Stores a local file's content under `key` (the file stays where it is); its size. */
  putFile(key: string, path: string): Promise<number>;
  /** The object's bytes, or null when there is none under `key`. */
  get(key: string): Promise<Buffer | null>;
  /** The object as a stream with its size, or null when there is none. */
  open(key: string): Promise<MediaObject | null>;
  /** Removes these objects (none there is no error). */
  remove(keys: string[]): Promise<void>;
  /** Removes every object whose key starts with `prefix` (which ends with `/`). */
  removePrefix(prefix: string): Promise<void>;
  /** Every object under `prefix` with its size (the migration command, the tests). */
  list(prefix: string): AsyncIterable<{ key: string; size: number }>;
  /** Throws unless the store answers (the readiness check, /health/ready). */
  check(): Promise<void>;
}

/** Every key is made by our code; a key is still checked before it becomes a path or an object name. */
const KEY = /^(?:[a-z0-9][a-z0-9_.-]*\/)*[a-z0-9][a-z0-9_.-]*$/;
const PREFIX = /^(?:[a-z0-9][a-z0-9_.-]*\/)+$/;

function checkKey(key: string): string {
  if (!KEY.test(key)) throw new Error(`invalid media key "${key}"`);
  return key;
}

function checkPrefix(prefix: string): string {
  if (!PREFIX.test(prefix)) throw new Error(`invalid media prefix "${prefix}"`);
  return prefix;
}

const isMissing = (error: unknown) => (error as NodeJS.ErrnoException).code === 'ENOENT';

/** A folder: each key a file under `root` (files 0600, folders 0700), written through a temp file and a rename. */
export function localMediaStore(root: string): MediaStore {
  const pathOf = (key: string) => join(root, checkKey(key));
  const temp = (file: string) => `${file}.${randomBytes(6).toString('hex')}.tmp`;

  async function* walk(dir: string, prefix: string): AsyncGenerator<{ key: string; size: number }> {
    let entries: import('node:fs').Dirent[];
    try {
      entries = await readdir(dir, { withFileTypes: true });
    } catch (error) {
      if (isMissing(error)) return;
      throw error;
    }
    for (const entry of entries.sort((a, b) => a.name.localeCompare(b.name))) {
      const key = `${prefix}${entry.name}`;
      if (entry.isDirectory()) yield* walk(join(dir, entry.name), `${key}/`);
      // Temp files of a write in progress and the readiness probe are not objects.
      else if (entry.isFile() && KEY.test(key) && !key.endsWith('.tmp')) yield { key, size: (await stat(join(dir, entry.name))).size };
    }
  }

  return {
    description: `the folder ${root}`,
    async put(key, bytes) {
      const file = pathOf(key);
      await mkdir(dirname(file), { recursive: true, mode: 0o700 });
      const part = temp(file);
      try {
        await writeFile(part, bytes, { mode: 0o600, flag: 'wx' });
        await rename(part, file);
      } catch (error) {
        await rm(part, { force: true });
        throw error;
      }
    },
    async putFile(key, path) {
      const file = pathOf(key);
      await mkdir(dirname(file), { recursive: true, mode: 0o700 });
      const part = temp(file);
      try {
        await copyFile(path, part);
        await rename(part, file);
      } catch (error) {
        await rm(part, { force: true });
        throw error;
      }
      return (await stat(file)).size;
    },
    async get(key) {
      try {
        return await readFile(pathOf(key));
      } catch (error) {
        if (isMissing(error)) return null;
        throw error;
      }
    },
    async open(key) {
      const file = pathOf(key);
      try {
        const { size } = await stat(file);
        return { stream: createReadStream(file), size };
      } catch (error) {
        if (isMissing(error)) return null;
        throw error;
      }
    },
    async remove(keys) {
      await Promise.all(keys.map((key) => rm(pathOf(key), { force: true })));
    },
    async removePrefix(prefix) {
      await rm(join(root, checkPrefix(prefix)), { recursive: true, force: true });
    },
    list(prefix) {
      return walk(join(root, checkPrefix(prefix)), prefix);
    },
    /** A small file of this process written, read back and removed under media/: missing, read-only or full fails it. */
    async check() {
      const dir = join(root, 'media');
      await mkdir(dir, { recursive: true, mode: 0o700 });
      const probe = join(dir, `.ready-${process.pid}`);
      await writeFile(probe, 'ok', { mode: 0o600 });
      try {
        if ((await readFile(probe, 'utf8')) !== 'ok') throw new Error('the media folder gave back another content');
      } finally {
        await rm(probe, { force: true });
      }
    },
  };
}

/** Objects DeleteObjects takes at once. */
const DELETE_BATCH = 1000;

/**
 * An S3-compatible bucket. The SDK is loaded on first use (a server on a folder never holds it). Checksums only
 * where the API requires them: R2 and MinIO accept what AWS does, and a plain PUT of known length everywhere.
 */
export function s3MediaStore(config: Extract<MediaStorageConfig, { kind: 's3' }>): MediaStore {
  const Bucket = config.bucket;
  let loaded: Promise<{ client: S3Client; sdk: typeof import('@aws-sdk/client-s3') }> | null = null;
  const s3 = () => {
    loaded ??= import('@aws-sdk/client-s3').then((sdk) => ({
      sdk,
      client: new sdk.S3Client({
        region: config.region,
        endpoint: config.endpoint ?? undefined,
        forcePathStyle: config.endpoint !== null,
        credentials: config.credentials ?? undefined,
        requestChecksumCalculation: 'WHEN_REQUIRED',
        responseChecksumValidation: 'WHEN_REQUIRED',
        requestHandler: { connectionTimeout: 5_000, requestTimeout: 60_000 },
      }),
    }));
    return loaded;
  };
  const notFound = (error: unknown) => {
    const e = error as { name?: string; $metadata?: { httpStatusCode?: number } };
    return e.name === 'NoSuchKey' || e.name === 'NotFound' || e.$metadata?.httpStatusCode === 404;
  };

  async function* list(prefix: string): AsyncGenerator<{ key: string; size: number }> {
    const { client, sdk } = await s3();
    let ContinuationToken: string | undefined;
    do {
      const page = await client.send(new sdk.ListObjectsV2Command({ Bucket, Prefix: checkPrefix(prefix), ContinuationToken }));
      for (const object of page.Contents ?? []) if (object.Key) yield { key: object.Key, size: object.Size ?? 0 };
      ContinuationToken = page.IsTruncated ? page.NextContinuationToken : undefined;
    } while (ContinuationToken);
  }

  async function remove(keys: string[]): Promise<void> {
    if (keys.length === 0) return;
    const { client, sdk } = await s3();
    for (let i = 0; i < keys.length; i += DELETE_BATCH) {
      const Objects = keys.slice(i, i + DELETE_BATCH).map((key) => ({ Key: checkKey(key) }));
      const answer = await client.send(new sdk.DeleteObjectsCommand({ Bucket, Delete: { Objects, Quiet: true } }));
      const failed = answer.Errors ?? [];
      if (failed.length) throw new Error(`the bucket kept ${failed.length} objects: ${failed[0]?.Code} ${failed[0]?.Message}`);
    }
  }

  return {
    description: `the bucket ${Bucket}${config.endpoint ? ` at ${config.endpoint}` : ` (AWS S3, ${config.region})`}`,
    async put(key, bytes) {
      const { client, sdk } = await s3();
      await client.send(new sdk.PutObjectCommand({ Bucket, Key: checkKey(key), Body: bytes, ContentLength: bytes.length }));
    },
    async putFile(key, path) {
      const { client, sdk } = await s3();
      const { size } = await stat(path);
      await client.send(new sdk.PutObjectCommand({ Bucket, Key: checkKey(key), Body: createReadStream(path), ContentLength: size }));
      return size;
    },
    async get(key) {
      const { client, sdk } = await s3();
      try {
        const answer = await client.send(new sdk.GetObjectCommand({ Bucket, Key: checkKey(key) }));
        return answer.Body ? Buffer.from(await answer.Body.transformToByteArray()) : Buffer.alloc(0);
      } catch (error) {
        if (notFound(error)) return null;
        throw error;
      }
    },
    async open(key) {
      const { client, sdk } = await s3();
      try {
        const answer = await client.send(new sdk.GetObjectCommand({ Bucket, Key: checkKey(key) }));
        return { stream: answer.Body as Readable, size: answer.ContentLength ?? 0 };
      } catch (error) {
        if (notFound(error)) return null;
        throw error;
      }
    },
    remove,
    async removePrefix(prefix) {
      const keys: string[] = [];
      for await (const object of list(prefix)) keys.push(object.key);
      await remove(keys);
    },
    list,
    /** The bucket is there and these credentials may list it (nothing written: with versioning a probe would pile up). */
    async check() {
      const { client, sdk } = await s3();
      await client.send(new sdk.HeadBucketCommand({ Bucket }));
    },
  };
}

const stores = new WeakMap<object, MediaStore>();

/**
 * The media store of a configuration, made once per configuration object: every user of media files (photos, chat
 * photos, data exports, the demo portraits, the readiness check) reaches it through here.
 */
export function mediaStoreOf(config: { dataDir: string; media: MediaStorageConfig }): MediaStore {
  let store = stores.get(config);
  if (!store) {
    store = config.media.kind === 's3' ? s3MediaStore(config.media) : localMediaStore(config.dataDir);
    stores.set(config, store);
  }
  return store;
}

import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import S3rver from 's3rver';
import type { MediaStorageConfig } from '../lib/media-storage';

export interface TestS3Server {
  endpoint: string;
  /** A media configuration of one of its buckets (each call of `bucket` makes a new, empty one). */
  bucket(name?: string): Promise<Extract<MediaStorageConfig, { kind: 's3' }>>;
  close(): Promise<void>;
}

let buckets = 0;

/**
 * An S3-speaking server on a free port of 127.0.0.1 over a temporary folder (s3rver, from npm: it checks the
 * requests' signatures as S3 does, with its fixed keys S3RVER/S3RVER). Closing it removes the folder.
 */
export async function startS3Server(): Promise<TestS3Server> {
  const directory = mkdtempSync(join(tmpdir(), 'amora-s3-'));
  const server = new S3rver({ address: '127.0.0.1', port: 0, silent: true, directory });
  const { port } = await server.run();
  const endpoint = `http://127.0.0.1:${port}`;
  const credentials = { accessKeyId: 'S3RVER', secretAccessKey: 'S3RVER' };
  return {
    endpoint,
    async bucket(name = `media-${process.pid}-${++buckets}`) {
      const media = { kind: 's3' as const, bucket: name, region: 'auto', endpoint, credentials };
      const { S3Client, CreateBucketCommand } = await import('@aws-sdk/client-s3');
      const client = new S3Client({ region: 'auto', endpoint, forcePathStyle: true, credentials });
      await client.send(new CreateBucketCommand({ Bucket: name }));
      client.destroy();
      return media;
    },
    async close() {
      await server.close();
      rmSync(directory, { recursive: true, force: true });
    },
  };
}

// Photo serve latency, the DATA_DIR folder against an S3-compatible bucket: the real media stores
// (apps/server/src/lib/media-storage.ts) read the bytes a photo route sends, for 60 photos' `large` (about 1280 px
// WebP) and `thumb` variants. The bucket is s3rver (from npm, the tests' S3 server) in a process of its own on
// 127.0.0.1: it measures what the store and the SDK add (signing, HTTP, parsing), not a real provider's network
// (AWS S3, R2 from the same region add their own ~10-30 ms first byte). One at a time (latency) and 8 at a time
// (throughput). Run: npm run bench -- media   (writes bench/results/media-serve.json). About half a minute.
import { spawn } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { localMediaStore, s3MediaStore } from '../apps/server/src/lib/media-storage';

// sharp and s3rver as the server resolves them (they are the server's packages, not the bench's).
const serverRequire = createRequire(new URL('../apps/server/package.json', import.meta.url));
const sharp = serverRequire('sharp');
const PHOTOS = 60;
const READS = Number(process.env.BENCH_MEDIA_READS ?? 600);
const PARALLEL = 8;

const percentile = (sorted, p) => sorted[Math.min(sorted.length - 1, Math.floor(p * sorted.length))];
const round = (ms) => Math.round(ms * 100) / 100;

/** s3rver in its own process (never the one measuring); its port. */
async function startS3rver(directory) {
  const script = `const S3rver = require(${JSON.stringify(serverRequire.resolve('s3rver'))});
    new S3rver({ address: '127.0.0.1', port: 0, silent: true, directory: ${JSON.stringify(directory)},
      configureBuckets: [{ name: 'bench', configs: [] }] }).run().then((a) => console.log(JSON.stringify(a)));`;
  const child = spawn(process.execPath, ['-e', script], { stdio: ['ignore', 'pipe', 'inherit'] });
  const port = await new Promise((resolve, reject) => {
    child.stdout.once('data', (data) => resolve(JSON.parse(String(data)).port));
    child.once('exit', (code) => reject(new Error(`s3rver exited with ${code}`)));
  });
  return { child, port };
}

async function photoBytes(seed, width, height) {
  const noise = await sharp({
    create: { width, height, channels: 3, background: { r: 40 + seed, g: 90, b: 140 }, noise: { type: 'gaussian', mean: 0, sigma: 18 } },
  })
    .png()
    .toBuffer();
  return sharp(noise).blur(0.7).webp({ quality: 80 }).toBuffer();
}

async function measure(store, keys) {
  for (const key of keys.slice(0, 20)) await store.get(key); // warm: connections, the SDK loaded
  const times = [];
  for (let i = 0; i < READS; i++) {
    const started = performance.now();
    const bytes = await store.get(keys[i % keys.length]);
    times.push(performance.now() - started);
    if (!bytes) throw new Error(`missing ${keys[i % keys.length]}`);
  }
  times.sort((a, b) => a - b);
  const started = performance.now();
  let next = 0;
  await Promise.all(
    Array.from({ length: PARALLEL }, async () => {
      while (next < READS) await store.get(keys[next++ % keys.length]);
    }),
  );
  const seconds = (performance.now() - started) / 1000;
  return {
    p50: round(percentile(times, 0.5)),
    p95: round(percentile(times, 0.95)),
    p99: round(percentile(times, 0.99)),
    max: round(times.at(-1)),
    readsPerSecond: Math.round(READS / seconds),
  };
}

const dir = mkdtempSync(join(tmpdir(), 'amora-bench-media-'));
const { child, port } = await startS3rver(join(dir, 's3'));
try {
  const stores = {
    folder: localMediaStore(join(dir, 'data')),
    bucket: s3MediaStore({
      kind: 's3',
      bucket: 'bench',
      region: 'auto',
      endpoint: `http://127.0.0.1:${port}`,
      credentials: { accessKeyId: 'S3RVER', secretAccessKey: 'S3RVER' },
    }),
  };
  const variants = { large: [1280, 960], thumb: [320, 320] };
  const keys = { large: [], thumb: [] };
  const sizes = { large: 0, thumb: 0 };
  for (let i = 0; i < PHOTOS; i++) {
    const storageKey = (i + 1).toString(16).padStart(32, '0');
    for (const [variant, [width, height]] of Object.entries(variants)) {
      const bytes = await photoBytes(i % 8, width, height);
      const key = `media/${100 + i}/${storageKey}/${variant}.webp`;
      await Promise.all([stores.folder.put(key, bytes), stores.bucket.put(key, bytes)]);
      keys[variant].push(key);
      sizes[variant] += bytes.length;
    }
  }
  const results = {};
  for (const variant of Object.keys(variants)) {
    results[variant] = { averageKb: Math.round(sizes[variant] / PHOTOS / 1024) };
    for (const [name, store] of Object.entries(stores)) results[variant][name] = await measure(store, keys[variant]);
  }
  mkdirSync('bench/results', { recursive: true });
  const report = { at: new Date().toISOString(), reads: READS, parallel: PARALLEL, server: 's3rver 3.7.1 on 127.0.0.1', results };
  writeFileSync('bench/results/media-serve.json', `${JSON.stringify(report, null, 2)}\n`);
  console.log(`\nPhoto reads from the media store, ${READS} one at a time (latency) and ${READS} ${PARALLEL} at a time (throughput):`);
  for (const [variant, r] of Object.entries(results)) {
    for (const name of Object.keys(stores)) {
      const m = r[name];
      console.log(
        `  ${variant.padEnd(5)} (${String(r.averageKb).padStart(3)} KB) ${name.padEnd(6)}  p50 ${m.p50} ms  p95 ${m.p95} ms  p99 ${m.p99} ms  max ${m.max} ms  ${m.readsPerSecond} reads/s`,
      );
    }
  }
  console.log('  (the bucket is s3rver on this machine: a real provider adds its network round trip to the bucket figures)');
} finally {
  child.kill();
  rmSync(dir, { recursive: true, force: true });
}

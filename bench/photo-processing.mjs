// Photo processing: variants per second for a 12-megapixel JPEG (the four WebP variants of one upload), against a
// baseline measured in the same run (one plain sharp resize of the same file to a 1280 px WebP), and the time from
// upload to all variants ready through the real HTTP route (POST /api/photos.php on a started server), median of 5.
import { mkdtempSync, rmSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { tsImport } from 'tsx/esm/api';
import { startAmora } from './servers.mjs';

// sharp as the server resolves it (it is a dependency of @amora/server, not of the bench).
const sharp = createRequire(new URL('../apps/server/package.json', import.meta.url))('sharp');

const WIDTH = 4000;
const HEIGHT = 3000;
const PHOTOS = Number(process.env.BENCH_PHOTOS ?? 8);
const HTTP_RUNS = 5;
const PORT = 3903;
const HOST = 'amora.localhost';

const median = (values) => {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? sorted[mid] : (sorted[mid - 1] + sorted[mid]) / 2;
};
const round = (n, digits = 1) => Math.round(n * 10 ** digits) / 10 ** digits;

/** A photo-like 12 MP JPEG: soft gradients and shapes (a sky, a face, a body) with sensor-like grain. */
export async function makeTestPhoto(seed = 0) {
  const svg = `<svg xmlns="http://www.w3.org/2000/svg" width="${WIDTH}" height="${HEIGHT}">
    <defs>
      <linearGradient id="sky" x1="0" y1="0" x2="0" y2="1">
        <stop offset="0" stop-color="hsl(${200 + seed * 7},60%,70%)"/><stop offset="1" stop-color="hsl(${30 + seed * 5},50%,45%)"/>
      </linearGradient>
      <radialGradient id="skin" cx="0.45" cy="0.4" r="0.6">
        <stop offset="0" stop-color="#f6d7bd"/><stop offset="1" stop-color="#b97e5d"/>
      </radialGradient>
    </defs>
    <rect width="100%" height="100%" fill="url(#sky)"/>
    <ellipse cx="${WIDTH * 0.5}" cy="${HEIGHT * 1.05}" rx="${WIDTH * 0.28}" ry="${HEIGHT * 0.45}" fill="hsl(${seed * 40},55%,35%)"/>
    <ellipse cx="${WIDTH * 0.5}" cy="${HEIGHT * 0.42}" rx="${WIDTH * 0.11}" ry="${HEIGHT * 0.2}" fill="url(#skin)"/>
    <ellipse cx="${WIDTH * 0.5}" cy="${HEIGHT * 0.25}" rx="${WIDTH * 0.13}" ry="${HEIGHT * 0.1}" fill="#3b2a1e"/>
    <circle cx="${WIDTH * 0.46}" cy="${HEIGHT * 0.4}" r="28" fill="#2b4a6b"/><circle cx="${WIDTH * 0.54}" cy="${HEIGHT * 0.4}" r="28" fill="#2b4a6b"/>
    <path d="M ${WIDTH * 0.46} ${HEIGHT * 0.5} q ${WIDTH * 0.04} 60 ${WIDTH * 0.08} 0" stroke="#8a3b3b" stroke-width="18" fill="none"/>
  </svg>`;
  const grain = await sharp({
    create: { width: WIDTH, height: HEIGHT, channels: 3, background: '#000', noise: { type: 'gaussian', mean: 0, sigma: 14 } },
  })
    .png({ compressionLevel: 0 })
    .toBuffer();
  return sharp(Buffer.from(svg))
    .composite([{ input: grain, blend: 'add' }])
    .jpeg({ quality: 90, mozjpeg: false })
    .toBuffer();
}

async function timeEach(count, work) {
  const times = [];
  const started = performance.now();
  for (let i = 0; i < count; i++) {
    const t = performance.now();
    await work(i);
    times.push(performance.now() - t);
  }
  return { totalMs: performance.now() - started, times };
}

async function api(method, path, { cookie, json, body, headers = {} } = {}) {
  const res = await fetch(`http://127.0.0.1:${PORT}${path}`, {
    method,
    headers: {
      host: HOST,
      'x-request-type': 'client',
      ...(cookie ? { cookie } : {}),
      ...(json ? { 'content-type': 'application/json' } : {}),
      ...headers,
    },
    body: json ? JSON.stringify(json) : body,
  });
  return res;
}

/** Upload to all variants ready, through the real route: sign up a member, POST the photo, delete it again. */
async function measureHttp(photo) {
  const dataDir = mkdtempSync(join(tmpdir(), 'amora-bench-photos-'));
  const server = await startAmora(PORT, dataDir);
  try {
    const signup = await api('POST', '/api/signup.php', {
      json: {
        email: `bench-${Date.now()}@example.com`,
        name: 'Bench',
        password: 'correct-horse-battery',
        date_of_birth: '1990-01-01',
        terms: true,
      },
    });
    if (!signup.ok) throw new Error(`signup failed: ${signup.status} ${await signup.text()}`);
    const token = signup.headers.getSetCookie().find((c) => c.startsWith('auth.session='));
    const cookie = token.split(';')[0];
    const runs = [];
    for (let i = 0; i <= HTTP_RUNS; i++) {
      const form = new FormData();
      form.append('photo', new Blob([photo], { type: 'image/jpeg' }), 'bench.jpg');
      const started = performance.now();
      const res = await api('POST', '/api/photos.php', { cookie, body: form });
      const body = await res.json();
      const ms = performance.now() - started;
      if (!res.ok) throw new Error(`upload failed: ${res.status} ${JSON.stringify(body)}`);
      if (i > 0) runs.push(round(ms)); // the first one warms the server up
      // Free members keep at most 3 photos: remove it again (not timed).
      const del = await api('DELETE', '/api/photos.php', { cookie, json: { id: body.photo.id } });
      if (!del.ok) throw new Error(`delete failed: ${del.status}`);
    }
    return { runs, medianMs: round(median(runs)) };
  } finally {
    server.kill('SIGTERM');
    await new Promise((r) => setTimeout(r, 500));
    rmSync(dataDir, { recursive: true, force: true });
  }
}

export async function runPhotoBenchmark() {
  const { processImage } = await tsImport('../apps/server/src/modules/photos/photo-processing.ts', import.meta.url);
  const photos = await Promise.all([0, 1, 2, 3].map((seed) => makeTestPhoto(seed)));
  const photo = photos[0];

  // Warm-up: libvips loads its operations and the thread pool starts.
  await processImage(photo);
  await sharp(photo).resize(1280, 1280, { fit: 'inside' }).webp().toBuffer();

  // Baseline: the least any pipeline must do with the same file (decode once, one 1280 px WebP).
  const baseline = await timeEach(PHOTOS, (i) =>
    sharp(photos[i % photos.length])
      .resize(1280, 1280, { fit: 'inside' })
      .webp()
      .toBuffer(),
  );
  // Ours: several photos in a row, one after another, four variants each.
  const ours = await timeEach(PHOTOS, (i) => processImage(photos[i % photos.length]));
  // And two at a time (one per core on this machine), as concurrent uploads would run.
  const parallelStarted = performance.now();
  for (let i = 0; i < PHOTOS; i += 2) {
    await Promise.all([processImage(photos[i % photos.length]), processImage(photos[(i + 1) % photos.length])]);
  }
  const parallelMs = performance.now() - parallelStarted;

  const msPerPhoto = median(ours.times);
  const baselineMs = median(baseline.times);
  const http = await measureHttp(photo);
  return {
    image: { width: WIDTH, height: HEIGHT, megapixels: (WIDTH * HEIGHT) / 1e6, bytes: photo.length },
    processing: {
      photos: PHOTOS,
      variantsPerPhoto: 4,
      variantsPerSecond: round((PHOTOS * 4) / (ours.totalMs / 1000)),
      photosPerSecond: round(PHOTOS / (ours.totalMs / 1000), 2),
      msPerPhoto: { median: round(msPerPhoto), min: round(Math.min(...ours.times)), max: round(Math.max(...ours.times)) },
      twoAtATime: { variantsPerSecond: round((PHOTOS * 4) / (parallelMs / 1000)), photosPerSecond: round(PHOTOS / (parallelMs / 1000), 2) },
    },
    baseline: { what: 'sharp resize to one 1280 px WebP', msPerPhoto: round(baselineMs) },
    ratio: round(msPerPhoto / baselineMs, 2),
    http: { what: 'POST /api/photos.php until the response (all variants stored)', ...http },
  };
}

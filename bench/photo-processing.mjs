// Photo processing: variants per second for a 12-megapixel JPEG (the four WebP variants of one upload), against a
// baseline measured in the same run (one plain sharp resize of the same file to a 1280 px WebP), and the time from
// upload to all variants ready through the real HTTP route (POST /api/photos.php on a started server), median of 5.
// Then the bounds: 40 MP uploads against the processing budget (a photo-like JPEG and the slowest file the limits
// accept), the 7999×1 PNG that used to cost 20 s, and one member's upload time while three others upload hostile
// files (the thin PNG, then the slowest accepted file) over and over.
import { mkdirSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
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
const PORT = Number(process.env.BENCH_PHOTO_PORT ?? 3903);
const HOST = 'amora.localhost';
/**
 * The budget for processing one 40 MP upload: 2 s. A member waits for it after the upload itself (a 40 MP file is
 * several MB, seconds on a phone), and 2 s more is still an answer to a click; it is also well under the server's
 * hard limit per photo (PROCESSING_TIME_LIMIT_SECONDS, 5 s), so a busy machine does not push an honest photo over
 * it. Checked on CPU time (decoding is mostly one thread, so alone on the machine wall time is about the same): on
 * a shared machine wall time says more about the other processes than about this code. Both are reported.
 */
const BUDGET_MS = 2_000;
const BIG_RUNS = Number(process.env.BENCH_BIG_RUNS ?? 3);

const median = (values) => {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? sorted[mid] : (sorted[mid - 1] + sorted[mid]) / 2;
};
const round = (n, digits = 1) => Math.round(n * 10 ** digits) / 10 ** digits;

/** A photo-like JPEG (12 MP unless told): soft gradients and shapes (a sky, a face, a body) with sensor-like grain. */
export async function makeTestPhoto(seed = 0, width = WIDTH, height = HEIGHT) {
  const svg = `<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}">
    <defs>
      <linearGradient id="sky" x1="0" y1="0" x2="0" y2="1">
        <stop offset="0" stop-color="hsl(${200 + seed * 7},60%,70%)"/><stop offset="1" stop-color="hsl(${30 + seed * 5},50%,45%)"/>
      </linearGradient>
      <radialGradient id="skin" cx="0.45" cy="0.4" r="0.6">
        <stop offset="0" stop-color="#f6d7bd"/><stop offset="1" stop-color="#b97e5d"/>
      </radialGradient>
    </defs>
    <rect width="100%" height="100%" fill="url(#sky)"/>
    <ellipse cx="${width * 0.5}" cy="${height * 1.05}" rx="${width * 0.28}" ry="${height * 0.45}" fill="hsl(${seed * 40},55%,35%)"/>
    <ellipse cx="${width * 0.5}" cy="${height * 0.42}" rx="${width * 0.11}" ry="${height * 0.2}" fill="url(#skin)"/>
    <ellipse cx="${width * 0.5}" cy="${height * 0.25}" rx="${width * 0.13}" ry="${height * 0.1}" fill="#3b2a1e"/>
    <circle cx="${width * 0.46}" cy="${height * 0.4}" r="28" fill="#2b4a6b"/><circle cx="${width * 0.54}" cy="${height * 0.4}" r="28" fill="#2b4a6b"/>
    <path d="M ${width * 0.46} ${height * 0.5} q ${width * 0.04} 60 ${width * 0.08} 0" stroke="#8a3b3b" stroke-width="18" fill="none"/>
  </svg>`;
  const grain = await sharp({
    create: { width, height, channels: 3, background: '#000', noise: { type: 'gaussian', mean: 0, sigma: 14 } },
  })
    .raw()
    .toBuffer();
  return sharp(Buffer.from(svg))
    .composite([{ input: grain, raw: { width, height, channels: 3 }, blend: 'add' }])
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

/** The slowest file the limits accept: 40 MP of 8-bit RGBA as an interlaced PNG (decoded whole, ~1 MB on disk). */
async function makeSlowestAccepted() {
  const svg = `<svg xmlns="http://www.w3.org/2000/svg" width="8000" height="5000">
    <defs><linearGradient id="g" x1="0" y1="0" x2="1" y2="1"><stop offset="0" stop-color="#48c"/><stop offset="1" stop-color="#c84"/></linearGradient></defs>
    <rect width="100%" height="100%" fill="url(#g)"/><circle cx="4000" cy="1700" r="1000" fill="#f3d2b5"/>
  </svg>`;
  return sharp(Buffer.from(svg)).ensureAlpha(0.5).png({ compressionLevel: 9, progressive: true }).toBuffer();
}

/** The file: a one-colour PNG of 7999×1 pixels (a couple of hundred bytes). */
const makeThinPng = () =>
  sharp({ create: { width: 7999, height: 1, channels: 3, background: '#c33' } })
    .png({ compressionLevel: 9 })
    .toBuffer();

/** Wall and CPU time (the whole process: libvips' threads included) of each run, and how it ended. */
async function timeRuns(runs, work) {
  const wall = [];
  const cpu = [];
  let outcome = null;
  for (let i = 0; i < runs; i++) {
    const before = process.cpuUsage();
    const started = performance.now();
    outcome = await work().then(
      (r) => `accepted (${r.width}x${r.height})`,
      (e) => `refused: ${e.code ?? e.message}`,
    );
    wall.push(performance.now() - started);
    const used = process.cpuUsage(before);
    cpu.push((used.user + used.system) / 1000);
  }
  return { outcome, wallMs: round(median(wall)), maxWallMs: round(Math.max(...wall)), cpuMs: round(median(cpu)) };
}

let signups = 0;
/** A new member's session cookie. */
async function signUp() {
  const signup = await api('POST', '/api/signup.php', {
    json: {
      email: `bench-${Date.now()}-${signups++}@example.com`,
      name: 'Bench',
      password: 'correct-horse-battery',
      date_of_birth: '1990-01-01',
      terms: true,
    },
  });
  if (!signup.ok) throw new Error(`signup failed: ${signup.status} ${await signup.text()}`);
  return signup.headers
    .getSetCookie()
    .find((c) => c.startsWith('auth.session='))
    .split(';')[0];
}

/** One upload: its status, error code and time to the answer; a stored photo is deleted again (free members keep 3). */
async function uploadOnce(cookie, bytes, type) {
  const form = new FormData();
  form.append('photo', new Blob([bytes], { type }), type === 'image/png' ? 'bench.png' : 'bench.jpg');
  const started = performance.now();
  const res = await api('POST', '/api/photos.php', { cookie, body: form });
  const body = await res.json();
  const ms = performance.now() - started;
  if (res.ok) {
    const del = await api('DELETE', '/api/photos.php', { cookie, json: { id: body.photo.id } });
    if (!del.ok) throw new Error(`delete failed: ${del.status}`);
  }
  return { status: res.status, code: body.error ?? 'ok', ms };
}

/** A member uploading the 12 MP photo `runs` times, one after another: the times of those that were stored. */
async function honestUploads(cookie, photo, runs) {
  const times = [];
  const refused = [];
  for (let i = 0; i < runs; i++) {
    const r = await uploadOnce(cookie, photo, 'image/jpeg');
    if (r.status === 200) times.push(round(r.ms));
    else refused.push(`${r.status} ${r.code}`);
  }
  return {
    runs: times,
    medianMs: times.length ? round(median(times)) : null,
    maxMs: times.length ? round(Math.max(...times)) : null,
    refused,
  };
}

/** Three members upload `bytes` over and over until `stop` is set; what they got back, by status and code. */
function hostileLoops(cookies, bytes, type, stop) {
  const outcomes = {};
  const loops = cookies.map(async (cookie) => {
    while (!stop.done) {
      const r = await uploadOnce(cookie, bytes, type);
      const key = `${r.status} ${r.code}`;
      outcomes[key] ??= { count: 0, maxMs: 0 };
      outcomes[key].count++;
      outcomes[key].maxMs = Math.max(outcomes[key].maxMs, round(r.ms));
      // Rate-limited: an attacker would come back; a short pause keeps this loop from measuring only itself.
      if (r.status === 429) await new Promise((resolve) => setTimeout(resolve, 200));
    }
  });
  return { outcomes, done: Promise.all(loops) };
}

/** The server's peak resident memory so far (Linux), in MB. */
function peakRssMb(pid) {
  try {
    const line = readFileSync(`/proc/${pid}/status`, 'utf8')
      .split('\n')
      .find((l) => l.startsWith('VmHWM:'));
    return Math.round(Number(line.split(/\s+/)[1]) / 1024);
  } catch {
    return null;
  }
}

/** Through the real route on a started server: honest uploads alone, a 40 MP upload, then under hostile uploads. */
async function measureHttp(photo, big, thin, slowest) {
  // BENCH_DATA_DIR keeps a seeded directory between runs (its first run seeds the demo members).
  const keep = process.env.BENCH_DATA_DIR;
  if (keep) mkdirSync(keep, { recursive: true });
  const dataDir = keep ?? mkdtempSync(join(tmpdir(), 'amora-bench-photos-'));
  // Every scenario has members of its own (each member's upload rate is limited), all from this one address.
  process.env.SIGNUP_RATE_LIMIT ??= '1000';
  const server = await startAmora(PORT, dataDir);
  try {
    const honest = await signUp();
    const attackers = await Promise.all([signUp(), signUp(), signUp()]);
    await uploadOnce(honest, photo, 'image/jpeg'); // warms the server up
    const alone = await honestUploads(honest, photo, HTTP_RUNS);

    const fortyMp = [];
    for (let i = 0; i < BIG_RUNS; i++) fortyMp.push(await uploadOnce(await signUp(), big, 'image/jpeg'));

    // Three hostile members at once, each with the thin PNG: how fast they are answered, and with what.
    const thinAnswers = await Promise.all(attackers.map((cookie) => uploadOnce(cookie, thin, 'image/png')));

    const underAttack = async (bytes, type) => {
      const stop = { done: false };
      const cookies = await Promise.all([signUp(), signUp(), signUp()]);
      const hostile = hostileLoops(cookies, bytes, type, stop);
      await new Promise((resolve) => setTimeout(resolve, 300)); // the hostile uploads are under way
      const measured = await honestUploads(await signUp(), photo, HTTP_RUNS);
      stop.done = true;
      await hostile.done;
      return { honest: measured, hostile: hostile.outcomes };
    };
    const withThin = await underAttack(thin, 'image/png');
    const withSlowest = await underAttack(slowest, 'image/png');
    return {
      runs: alone.runs,
      medianMs: alone.medianMs,
      fortyMp: {
        runs: fortyMp.map((r) => round(r.ms)),
        medianMs: round(median(fortyMp.map((r) => r.ms))),
        statuses: fortyMp.map((r) => r.status),
      },
      thin: { answers: thinAnswers.map((r) => `${r.status} ${r.code}`), maxMs: round(Math.max(...thinAnswers.map((r) => r.ms))) },
      underAttack: { thin: withThin, slowestAccepted: withSlowest },
      serverPeakRssMb: peakRssMb(server.pid),
    };
  } finally {
    server.kill('SIGTERM');
    await new Promise((r) => setTimeout(r, 500));
    if (!keep) rmSync(dataDir, { recursive: true, force: true });
  }
}

export async function runPhotoBenchmark() {
  const { processImage, renderVariants, PROCESSING_TIME_LIMIT_SECONDS } = await tsImport(
    '../apps/server/src/modules/photos/photo-processing.ts',
    import.meta.url,
  );
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

  // 40 MP: a photo-like JPEG, and the slowest file the limits accept, each processed alone.
  const [big, slowest, thin] = await Promise.all([makeTestPhoto(0, 8000, 5000), makeSlowestAccepted(), makeThinPng()]);
  const bigJpeg = await timeRuns(BIG_RUNS, () => processImage(big));
  const bigSlowest = await timeRuns(BIG_RUNS, () => processImage(slowest));
  // The thin PNG: refused by its header; and what the pipeline itself now does with it, past that check.
  const thinProcess = await timeRuns(5, () => processImage(thin));
  const thinPipeline = await timeRuns(3, async () => renderVariants(thin, await sharp(thin).metadata()));
  const fortyMp = {
    budgetMs: BUDGET_MS,
    timeLimitSeconds: PROCESSING_TIME_LIMIT_SECONDS,
    jpeg: { bytes: big.length, ...bigJpeg },
    slowestAccepted: { what: '8000x5000 RGBA interlaced PNG', bytes: slowest.length, ...bigSlowest },
    libvipsMemoryHighWaterMb: sharp.cache().memory.high,
  };
  fortyMp.pass = fortyMp.jpeg.cpuMs <= BUDGET_MS && fortyMp.slowestAccepted.cpuMs <= BUDGET_MS;

  const http = await measureHttp(photo, big, thin, slowest);
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
    fortyMp,
    thin: { bytes: thin.length, processImage: thinProcess, pipelineWithoutShapeCheck: thinPipeline },
  };
}

// Size of the JavaScript the index route loads: the entry script and every chunk it preloads, as the server
// sends it. The build writes a gzip and a Brotli copy of each file (apps/web/vite-plugins/precompress.ts);
// the target is on gzip, which every browser accepts. Target (issue: platform foundation): <= 150 KB gzipped.
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';

const sizeOf = (path) => (existsSync(path) ? readFileSync(path).length : null);

export function runBundleBenchmark(dist = 'apps/web/dist') {
  const html = readFileSync(join(dist, 'index.html'), 'utf8');
  const files = new Set();
  for (const m of html.matchAll(/<script[^>]+src="([^"]+\.js)"/g)) files.add(m[1]);
  for (const m of html.matchAll(/<link[^>]+rel="modulepreload"[^>]+href="([^"]+\.js)"/g)) files.add(m[1]);
  // The app behind the small entry (apps/web/src/app/start.tsx) and what it imports: the server preloads them
  // with every page (apps/server/src/plugins/web.ts), so they count as the index route's too.
  const manifest = JSON.parse(readFileSync(join(dist, '.vite', 'manifest.json'), 'utf8'));
  const walk = (key) => {
    const chunk = manifest[key];
    if (!chunk || files.has(`/${chunk.file}`)) return;
    files.add(`/${chunk.file}`);
    for (const imported of chunk.imports ?? []) walk(imported);
  };
  walk('src/app/start.tsx');
  const sizes = [...files].map((file) => {
    const path = join(dist, file);
    const bytes = readFileSync(path);
    const gzip = sizeOf(`${path}.gz`) ?? gzipSync(bytes, { level: 9 }).length;
    return { file, raw: bytes.length, gzip, brotli: sizeOf(`${path}.br`) ?? gzip };
  });
  const kb = (key) => Math.round((sizes.reduce((sum, s) => sum + s[key], 0) / 1024) * 10) / 10;
  const gzipKb = kb('gzip');
  return { files: sizes, rawKb: kb('raw'), gzipKb, brotliKb: kb('brotli'), targetKb: 150, pass: gzipKb <= 150 };
}

// Gzipped size of the JavaScript the index route loads: the entry script and every chunk it preloads.
// Target (issue: platform foundation): <= 150 KB.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';

export function runBundleBenchmark(dist = 'apps/web/dist') {
  const html = readFileSync(join(dist, 'index.html'), 'utf8');
  const files = new Set();
  for (const m of html.matchAll(/<script[^>]+src="([^"]+\.js)"/g)) files.add(m[1]);
  for (const m of html.matchAll(/<link[^>]+rel="modulepreload"[^>]+href="([^"]+\.js)"/g)) files.add(m[1]);
  const sizes = [...files].map((file) => {
    const bytes = readFileSync(join(dist, file));
    return { file, raw: bytes.length, gzip: gzipSync(bytes, { level: 9 }).length };
  });
  const gzipKb = sizes.reduce((sum, s) => sum + s.gzip, 0) / 1024;
  return { files: sizes, gzipKb: Math.round(gzipKb * 10) / 10, targetKb: 150, pass: gzipKb <= 150 };
}

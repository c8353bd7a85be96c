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

/** The landers (contracts LANDER_NAMES), each with its design (apps/web/src/features/landers/designs/<name>.tsx). */
const LANDERS = [
  'tinderswipe',
  'alonetonight',
  'collagelanding',
  'gallery',
  'iconslanding',
  'maplanding',
  'socialnetwork',
  'transitionsvideolanding',
  'video',
];

/** A profile's landings (apps/web/src/features/landers/members/<layout>.tsx), named as the server names them. */
const MEMBER_LANDINGS = ['landing', 'landing2', 'landing3'];

/**
 * The JavaScript each lander's page loads (the landers' own page, apps/web/lander.html: its entry, the page's code
 * it starts once the first screen is in, and the lander's design chunk, with what they import); the signup modal,
 * loaded only at a click on desktop, is reported apart. Target (issue 29): <= 100 KB gzipped per lander. The
 * member landings (`member-landing`, `member-landing2`, `member-landing3`) likewise, with their own start.
 */
export function runLanderBundleBenchmark(dist = 'apps/web/dist') {
  const manifest = JSON.parse(readFileSync(join(dist, '.vite', 'manifest.json'), 'utf8'));
  const gzipOf = (file) => {
    const path = join(dist, file);
    return sizeOf(`${path}.gz`) ?? gzipSync(readFileSync(path), { level: 9 }).length;
  };
  const walk = (key, into) => {
    const chunk = manifest[key];
    if (!chunk || into.has(chunk.file)) return into;
    into.add(chunk.file);
    for (const imported of chunk.imports ?? []) walk(imported, into);
    return into;
  };
  const kb = (files) => Math.round(([...files].reduce((sum, file) => sum + gzipOf(file), 0) / 1024) * 10) / 10;
  // The page's entry and what it starts once the first screen is in (apps/web/src/lander-main.tsx).
  const entry = walk('lander.html', new Set());
  const start = Object.keys(manifest).find((key) => manifest[key].src === 'src/app/lander/lander-start.tsx');
  if (start) walk(start, entry);
  // React DOM, which the start imports apart (app/lander/take-over.ts): a chunk of its own, loaded by every page.
  const reactDom = Object.keys(manifest).find((key) => /^_react-dom-[\w-]+\.js$/.test(key));
  if (reactDom) walk(reactDom, entry);
  const signupKey = Object.keys(manifest).find((key) => manifest[key].src === 'src/app/lander/lander-signup.tsx');
  const measure = (name, design, base) => {
    const files = walk(design, new Set(base));
    const gzipKb = kb(files);
    const signup = signupKey ? kb([...walk(signupKey, new Set())].filter((file) => !files.has(file))) : null;
    return { name, design: design.split('/').slice(-2).join('/'), gzipKb, signupModalKb: signup, pass: gzipKb <= 100 };
  };
  const landers = LANDERS.map((name) => measure(name, `src/features/landers/designs/${name}.tsx`, entry));
  // A profile's landing (/members/{id}/landing, landing2, landing3) is the same page: its start and its layout.
  const memberStart = Object.keys(manifest).find((key) => manifest[key].src === 'src/app/lander/member-landing-start.tsx');
  const memberEntry = memberStart ? walk(memberStart, new Set(entry)) : entry;
  for (const layout of MEMBER_LANDINGS) {
    landers.push(measure(`member-${layout}`, `src/features/landers/members/${layout}.tsx`, memberEntry));
  }
  return { entryKb: kb(entry), landers, targetKb: 100, pass: landers.every((l) => l.pass) };
}

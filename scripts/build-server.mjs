#!/usr/bin/env node
// Compiles the server and the workspace packages it uses into apps/server/dist/main.mjs, so production runs
// plain JavaScript (no TypeScript loader at run time). npm packages stay imports resolved from node_modules.
import { spawnSync } from 'node:child_process';
import { dirname, resolve } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { build } from 'esbuild';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '..');

/**
 * npm packages (and node: built-ins) are left to Node; our own code, the workspace packages and the packages in
 * `bundled` go into the bundle.
 *
 * drizzle-orm is bundled: it is a few hundred small ES modules under one 179 KB package.json (its exports map),
 * and Node 26 reads that package.json afresh for each module it resolves in the package. Importing
 * drizzle-orm/pg-core and a driver that way made ~110 MB of garbage and grew the heap for good (resident
 * memory +118 MB, against +10 MB for the same code bundled; docs/decisions.md, "Memory").
 */
const bundled = /^drizzle-orm(\/|$)/;
const externalPackages = {
  name: 'external-packages',
  setup(b) {
    b.onResolve({ filter: /^[^./]/ }, (args) =>
      args.path.startsWith('@amora/') || bundled.test(args.path) ? undefined : { path: args.path, external: true },
    );
  },
};

/**
 * Our files find their neighbours (migrations, locales, seed texts, payment logos, the web build) through
 * import.meta.url. Each file keeps its own source address, so those paths do not move with the bundle.
 */
const ownImportMetaUrl = {
  name: 'own-import-meta-url',
  setup(b) {
    b.onLoad({ filter: /\.ts$/ }, async (args) => {
      if (args.path.includes('/node_modules/')) return undefined;
      const { readFile } = await import('node:fs/promises');
      const source = await readFile(args.path, 'utf8');
      return { contents: source.replaceAll('import.meta.url', JSON.stringify(pathToFileURL(args.path).href)), loader: 'ts' };
    });
  },
};

const dist = resolve(root, 'apps/server/dist');
await build({
  entryPoints: {
    main: resolve(root, 'apps/server/src/main.ts'),
    'make-pglite-template': resolve(root, 'packages/db/src/make-pglite-template.ts'),
  },
  outdir: dist,
  outExtension: { '.js': '.mjs' },
  bundle: true,
  platform: 'node',
  format: 'esm',
  // What a module imports with import() goes into a chunk of its own (dist/chunks/), loaded when first asked for:
  // the demo data's modules, PGlite, and the npm packages they import, stay out of a server that never uses them.
  splitting: true,
  chunkNames: 'chunks/[name]-[hash]',
  target: 'node26',
  sourcemap: true,
  sourcesContent: false,
  logLevel: 'warning',
  plugins: [externalPackages, ownImportMetaUrl],
});

// A first start on an empty DATA_DIR copies this template (a new, empty PGlite data directory) instead of running
// initdb inside the server, which would hold about 520 MB more at once (packages/db/src/client.ts,
// makePgliteTemplate). Made once per PGlite version, in a process of its own.
const template = spawnSync(process.execPath, [resolve(dist, 'make-pglite-template.mjs'), dist], { stdio: ['ignore', 'ignore', 'inherit'] });
if (template.status !== 0) process.exit(template.status ?? 1);
if (!process.argv.includes('--quiet')) console.log('Server built: apps/server/dist/main.mjs');

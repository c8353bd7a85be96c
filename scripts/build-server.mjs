#!/usr/bin/env node
// Compiles the server and the workspace packages it uses into apps/server/dist/main.mjs, so production runs
// plain JavaScript (no TypeScript loader at run time). npm packages stay imports resolved from node_modules.
import { dirname, resolve } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { build } from 'esbuild';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '..');

/** npm packages (and node: built-ins) are left to Node; only our own code and workspace packages are bundled. */
const externalPackages = {
  name: 'external-packages',
  setup(b) {
    b.onResolve({ filter: /^[^./]/ }, (args) => (args.path.startsWith('@amora/') ? undefined : { path: args.path, external: true }));
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

await build({
  entryPoints: [resolve(root, 'apps/server/src/main.ts')],
  outfile: resolve(root, 'apps/server/dist/main.mjs'),
  bundle: true,
  platform: 'node',
  format: 'esm',
  target: 'node26',
  sourcemap: true,
  logLevel: 'warning',
  plugins: [externalPackages, ownImportMetaUrl],
});
console.log('Server built: apps/server/dist/main.mjs');

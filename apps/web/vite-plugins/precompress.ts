import { readdir, readFile, writeFile } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import { promisify } from 'node:util';
import { brotliCompress, constants, gzip } from 'node:zlib';
import type { Plugin } from 'vite';

const brotli = promisify(brotliCompress);
const gz = promisify(gzip);

/** Text the browser downloads: scripts, styles, catalogues, icons, the page. Images and fonts are compressed already. */
const COMPRESSIBLE = /\.(?:js|mjs|css|json|svg|html|txt|xml|webmanifest)$/;
/** Below this a compressed copy saves less than its headers cost. */
const MIN_BYTES = 1024;

async function filesUnder(dir: string): Promise<string[]> {
  const entries = await readdir(dir, { withFileTypes: true, recursive: true });
  return entries.filter((e) => e.isFile()).map((e) => join(e.parentPath, e.name));
}

/**
 * Writes a Brotli (`.br`, best quality) and a gzip (`.gz`) copy beside every compressible file of the build,
 * once, so the server sends each browser the smallest copy it accepts without compressing anything per request
 * (`@fastify/static` with `preCompressed`). A copy that would not be smaller is not written.
 */
export function precompress(): Plugin {
  let outDir = 'dist';
  return {
    name: 'amora:precompress',
    apply: 'build',
    configResolved(config) {
      outDir = resolve(config.root, config.build.outDir);
    },
    async closeBundle() {
      const files = (await filesUnder(outDir)).filter((file) => COMPRESSIBLE.test(file));
      await Promise.all(
        files.map(async (file) => {
          const source = await readFile(file);
          if (source.length < MIN_BYTES) return;
          const [br, gzipped] = await Promise.all([
            brotli(source, {
              params: {
                [constants.BROTLI_PARAM_QUALITY]: constants.BROTLI_MAX_QUALITY,
                [constants.BROTLI_PARAM_SIZE_HINT]: source.length,
              },
            }),
            gz(source, { level: 9 }),
          ]);
          if (br.length < source.length) await writeFile(`${file}.br`, br);
          if (gzipped.length < source.length) await writeFile(`${file}.gz`, gzipped);
        }),
      );
    },
  };
}

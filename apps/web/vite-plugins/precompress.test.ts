import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { brotliDecompressSync, gunzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { precompress } from './precompress';

const SCRIPT = `export const greeting = "hello";\n${'console.log(greeting);\n'.repeat(300)}`;
let root: string;

beforeAll(async () => {
  root = mkdtempSync(join(tmpdir(), 'amora-precompress-'));
  mkdirSync(join(root, 'dist', 'assets'), { recursive: true });
  writeFileSync(join(root, 'dist', 'assets', 'index-abc.js'), SCRIPT);
  writeFileSync(join(root, 'dist', 'assets', 'common-abc.json'), JSON.stringify({ key: 'value '.repeat(400) }));
  writeFileSync(join(root, 'dist', 'assets', 'tiny-abc.js'), 'export {};\n');
  writeFileSync(join(root, 'dist', 'photo.png'), Buffer.alloc(4096, 7));
  const plugin = precompress() as unknown as {
    configResolved(config: unknown): void;
    closeBundle(): Promise<void>;
  };
  plugin.configResolved({ root, build: { outDir: 'dist' } });
  await plugin.closeBundle();
});
afterAll(() => rmSync(root, { recursive: true, force: true }));

describe('precompress (web build)', () => {
  it('writes a Brotli and a gzip copy beside each text file, each decoding to the file', () => {
    const file = join(root, 'dist', 'assets', 'index-abc.js');
    expect(brotliDecompressSync(readFileSync(`${file}.br`)).toString()).toBe(SCRIPT);
    expect(gunzipSync(readFileSync(`${file}.gz`)).toString()).toBe(SCRIPT);
    expect(readFileSync(`${file}.br`).length).toBeLessThan(SCRIPT.length / 10);
    expect(existsSync(join(root, 'dist', 'assets', 'common-abc.json.br'))).toBe(true);
  });

  it('leaves files under a kilobyte and binary files alone', () => {
    expect(existsSync(join(root, 'dist', 'assets', 'tiny-abc.js.br'))).toBe(false);
    expect(existsSync(join(root, 'dist', 'photo.png.br'))).toBe(false);
    expect(existsSync(join(root, 'dist', 'photo.png.gz'))).toBe(false);
  });
});

import sharp from 'sharp';
import { describe, expect, it } from 'vitest';
import { plainPng } from '../../test/images';
import { renderVariants } from './photo-processing';

/**
 * How much work the pipeline does, by libvips' own count: the high-water mark of the memory it allocated for
 * pixels. That mark is per process and only rises, and vitest runs each test file in a process of its own; this
 * file measures nothing else first.
 */
const highWaterMb = () => sharp.cache().memory.high;

describe('photo pipeline work', () => {
  it('renders a 7999×1 line (past the shape check) with a few MB of pixels, not a 512000×400 intermediate', async () => {
    const before = highWaterMb();
    for (const [width, height] of [
      [7999, 1],
      [1, 7999],
    ]) {
      const thin = await plainPng(width, height);
      const result = await renderVariants(thin, await sharp(thin).metadata());
      const sizes = await Promise.all(Object.values(result.variants).map((v) => sharp(v).metadata()));
      expect(sizes.map((m) => `${m.width}x${m.height}`)).toEqual([
        `${Math.min(width, 1280)}x${Math.min(height, 1280)}`,
        '320x400',
        '400x400',
        '320x400',
      ]);
    }
    // Cover-cropping the 1280×1 `large` to a square used to scale it to 512000×400 first: 175 MB here, 20 s of CPU.
    expect(highWaterMb()).toBeLessThanOrEqual(Math.max(before, 8));
  });
});

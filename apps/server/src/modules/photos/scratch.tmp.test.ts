import sharp from 'sharp';
import { it } from 'vitest';
import { processImage } from './photo-processing';

it('scratch', async () => {
  const cases: Record<string, Buffer> = {
    orient6: await sharp({ create: { width: 600, height: 400, channels: 3, background: '#f80' } }).jpeg().withMetadata({ orientation: 6 }).toBuffer(),
    cmyk: await sharp({ create: { width: 600, height: 400, channels: 3, background: '#08f' } }).toColourspace('cmyk').jpeg().toBuffer(),
    png16a: await sharp({ create: { width: 500, height: 700, channels: 4, background: { r: 10, g: 200, b: 30, alpha: 0.5 } } }).toColourspace('rgb16').png().toBuffer(),
    grey: await sharp({ create: { width: 500, height: 700, channels: 3, background: '#888' } }).greyscale().jpeg().toBuffer(),
    webp: await sharp({ create: { width: 2000, height: 1500, channels: 3, background: '#123456' } }).webp().toBuffer(),
    pano: await sharp({ create: { width: 8000, height: 1000, channels: 3, background: '#654321' } }).jpeg().toBuffer(),
    tiny: await sharp({ create: { width: 10, height: 10, channels: 3, background: '#654321' } }).png().toBuffer(),
  };
  for (const [name, buf] of Object.entries(cases)) {
    const m0 = await sharp(buf).metadata();
    const t = performance.now();
    const r = await processImage(buf);
    const dims = await Promise.all(Object.entries(r.variants).map(async ([v, b]) => { const m = await sharp(b).metadata(); return `${v}:${m.width}x${m.height}/${m.channels}/${b.length}B`; }));
    console.log(name, m0.space, m0.channels, m0.orientation, r.width, r.height, dims.join(' '), Math.round(performance.now() - t), 'ms');
  }
  const noise = await sharp({ create: { width: 4000, height: 3000, channels: 3, background: '#808080', noise: { type: 'gaussian', mean: 128, sigma: 40 } } }).jpeg({ quality: 88 }).toBuffer();
  console.log('noise bytes', noise.length);
  for (let i = 0; i < 3; i++) { const t = performance.now(); await processImage(noise); console.log('12MP', Math.round(performance.now() - t), 'ms'); }
}, 120000);

import { crc32, deflateSync } from 'node:zlib';
import sharp from 'sharp';

/** Images for the photo tests, made on the fly (nothing binary is checked in). */

/** A photo-like JPEG: a colour gradient with grain, so variants have real detail to lose. */
export async function photoJpeg(width = 900, height = 1200, options: { seed?: number } = {}): Promise<Buffer> {
  const hue = (options.seed ?? 0) * 47;
  const svg = `<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}">
    <defs><linearGradient id="g" x1="0" y1="0" x2="1" y2="1">
      <stop offset="0" stop-color="hsl(${hue % 360},70%,55%)"/><stop offset="1" stop-color="hsl(${(hue + 160) % 360},60%,35%)"/>
    </linearGradient></defs>
    <rect width="100%" height="100%" fill="url(#g)"/>
    <circle cx="${width / 2}" cy="${height / 3}" r="${Math.min(width, height) / 5}" fill="#f3d2b5"/>
    <text x="20" y="${height - 40}" font-size="48" fill="#fff">Amora test ${options.seed ?? 0}</text>
  </svg>`;
  const noise = await sharp({
    create: { width, height, channels: 3, background: '#000', noise: { type: 'gaussian', mean: 0, sigma: 18 } },
  })
    .png()
    .toBuffer();
  return sharp(Buffer.from(svg))
    .composite([{ input: noise, blend: 'add' }])
    .jpeg({ quality: 88 })
    .toBuffer();
}

function pngChunk(type: string, data: Buffer): Buffer {
  const length = Buffer.alloc(4);
  length.writeUInt32BE(data.length);
  const body = Buffer.concat([Buffer.from(type, 'latin1'), data]);
  const crc = Buffer.alloc(4);
  crc.writeUInt32BE(crc32(body) >>> 0);
  return Buffer.concat([length, body, crc]);
}

/**
 * A decompression bomb: a valid PNG header claiming `width`×`height` RGB pixels (8-bit, or 16-bit RGBA with
 * `deep`) with a tiny IDAT. Decoding it would need width×height×3 (or ×8) bytes; the header alone must be enough
 * to refuse it. One that passes the header checks is refused as unreadable, when its missing pixels are decoded.
 */
export function pngHeaderOnly(width: number, height: number, options: { deep?: boolean } = {}): Buffer {
  const ihdr = Buffer.alloc(13);
  ihdr.writeUInt32BE(width, 0);
  ihdr.writeUInt32BE(height, 4);
  ihdr[8] = options.deep ? 16 : 8; // bit depth
  ihdr[9] = options.deep ? 6 : 2; // colour type: RGBA or RGB
  return Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    pngChunk('IHDR', ihdr),
    pngChunk('IDAT', deflateSync(Buffer.alloc(1024))),
    pngChunk('IEND', Buffer.alloc(0)),
  ]);
}

/** A JPEG carrying EXIF with a copyright, a camera, GPS coordinates and an orientation (rotate 90° clockwise). */
export async function jpegWithExif(width = 600, height = 400): Promise<Buffer> {
  return sharp(await photoJpeg(width, height, { seed: 3 }))
    .withExif({
      IFD0: { Copyright: 'secret-copyright', Make: 'SecretCam', Model: 'Leaky 1' },
      IFD3: { GPSLatitudeRef: 'N', GPSLatitude: '52/1 22/1 1234/100', GPSLongitudeRef: 'E', GPSLongitude: '4/1 53/1 4321/100' },
    })
    .withMetadata({ orientation: 6 })
    .jpeg()
    .toBuffer();
}

/** A real one-colour PNG of `width`×`height` (7999×1 is a couple of hundred bytes). */
export function plainPng(width: number, height: number): Promise<Buffer> {
  return sharp({ create: { width, height, channels: 3, background: '#c33' } })
    .png({ compressionLevel: 9 })
    .toBuffer();
}

import sharp from 'sharp';
import { describe, expect, it } from 'vitest';
import { detectImageType, MAX_PHOTO_BYTES, PHOTO_VARIANTS, PhotoError, processImage } from './photo-processing';
import { jpegWithExif, photoJpeg, pngHeaderOnly } from './test-images';

const convert = async (input: Buffer | Promise<Buffer>, format: 'png' | 'webp' | 'gif' | 'tiff') =>
  sharp(await input)
    .toFormat(format)
    .toBuffer();

async function refusal(input: Buffer): Promise<PhotoError> {
  const error = await processImage(input).then(
    () => null,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(PhotoError);
  return error as PhotoError;
}

describe('detectImageType', () => {
  it('knows JPEG, PNG and WebP by their first bytes only', async () => {
    expect(detectImageType(await photoJpeg(40, 40))).toBe('jpeg');
    expect(detectImageType(await convert(photoJpeg(40, 40), 'png'))).toBe('png');
    expect(detectImageType(await convert(photoJpeg(40, 40), 'webp'))).toBe('webp');
    expect(detectImageType(await convert(photoJpeg(40, 40), 'gif'))).toBeNull();
    expect(detectImageType(await convert(photoJpeg(40, 40), 'tiff'))).toBeNull();
    expect(detectImageType(Buffer.from('<svg xmlns="http://www.w3.org/2000/svg"/>'))).toBeNull();
    expect(detectImageType(Buffer.from('RIFF\0\0\0\0WAVEfmt '))).toBeNull();
    expect(detectImageType(Buffer.from([0xff, 0xd8]))).toBeNull();
    expect(detectImageType(Buffer.alloc(0))).toBeNull();
  });
});

describe('processImage', () => {
  it('makes the four WebP variants at their sizes', async () => {
    const result = await processImage(await photoJpeg(2000, 1500));
    expect(Object.keys(result.variants).sort()).toEqual([...PHOTO_VARIANTS].sort());
    expect({ width: result.width, height: result.height }).toEqual({ width: 1280, height: 960 });
    const sizes = Object.fromEntries(
      await Promise.all(
        PHOTO_VARIANTS.map(async (v) => {
          const meta = await sharp(result.variants[v]).metadata();
          return [v, `${meta.format} ${meta.width}x${meta.height}`] as const;
        }),
      ),
    );
    expect(sizes).toEqual({ large: 'webp 1280x960', thumb: 'webp 320x400', match: 'webp 400x400', blur: 'webp 320x400' });
  });

  it('keeps a small photo at its size for `large` and fills the cards', async () => {
    const result = await processImage(await convert(photoJpeg(300, 200), 'png'));
    expect({ width: result.width, height: result.height }).toEqual({ width: 300, height: 200 });
    expect((await sharp(result.variants.thumb).metadata()).width).toBe(320);
  });

  it('rotates by the EXIF orientation, then drops EXIF (GPS included), XMP and ICC from every variant', async () => {
    const input = await jpegWithExif(600, 400);
    const inputMeta = await sharp(input).metadata();
    expect(inputMeta.orientation).toBe(6);
    expect(inputMeta.exif?.includes('secret-copyright')).toBe(true);

    const result = await processImage(input);
    expect({ width: result.width, height: result.height }).toEqual({ width: 400, height: 600 });
    for (const variant of PHOTO_VARIANTS) {
      const bytes = result.variants[variant];
      const meta = await sharp(bytes).metadata();
      expect(meta.exif, variant).toBeUndefined();
      expect(meta.xmp, variant).toBeUndefined();
      expect(meta.icc, variant).toBeUndefined();
      expect(meta.orientation, variant).toBeUndefined();
      expect(bytes.includes('secret-copyright'), variant).toBe(false);
      expect(bytes.includes('SecretCam'), variant).toBe(false);
    }
  });

  it('makes a blur with no detail left, small in bytes', async () => {
    const { variants } = await processImage(await photoJpeg(1200, 1500, { seed: 7 }));
    const [blur, thumb] = await Promise.all([sharp(variants.blur).stats(), sharp(variants.thumb).stats()]);
    // The same card size as `thumb`, with a small fraction of its edges (what is left is WebP block noise).
    expect(blur.sharpness).toBeLessThan(thumb.sharpness / 5);
    expect(variants.blur.length).toBeLessThan(8_000);
    expect(variants.blur.equals(variants.thumb)).toBe(false);
  });

  it('accepts PNG (also 16-bit with alpha) and WebP', async () => {
    const png16 = await sharp({ create: { width: 500, height: 700, channels: 4, background: { r: 10, g: 200, b: 30, alpha: 0.5 } } })
      .toColourspace('rgb16')
      .png()
      .toBuffer();
    expect((await processImage(png16)).width).toBe(500);
    expect((await processImage(await convert(photoJpeg(800, 600), 'webp'))).width).toBe(800);
  });

  it('crops the cards of a panorama from the original, not from the low `large`', async () => {
    const result = await processImage(await photoJpeg(5000, 700));
    expect({ width: result.width, height: result.height }).toEqual({ width: 1280, height: 179 });
    const [thumb, match] = await Promise.all([sharp(result.variants.thumb).stats(), sharp(result.variants.match).stats()]);
    expect(thumb.sharpness).toBeGreaterThan(0);
    expect(match.sharpness).toBeGreaterThan(0);
  });

  it('refuses anything that is not JPEG, PNG or WebP by its bytes, whatever it claims', async () => {
    expect((await refusal(Buffer.from('hello, I am a text file'))).code).toBe('photo_type');
    expect((await refusal(await convert(photoJpeg(40, 40), 'gif'))).code).toBe('photo_type');
    expect((await refusal(Buffer.from('<svg xmlns="http://www.w3.org/2000/svg" width="10" height="10"/>'))).code).toBe('photo_type');
    const error = await refusal(Buffer.from('plain text'));
    expect(error.message).toBe('Only JPEG, PNG and WebP photos are accepted');
  });

  it('refuses a file over 15 MB before looking at it', async () => {
    const big = Buffer.alloc(MAX_PHOTO_BYTES + 1);
    big.set([0xff, 0xd8, 0xff]);
    const error = await refusal(big);
    expect(error.code).toBe('photo_too_large');
    expect(error.message).toBe('This photo is too large (maximum 15 MB)');
  });

  it('refuses a decompression bomb by its header, before decoding', async () => {
    const bomb = pngHeaderOnly(30_000, 30_000);
    expect(bomb.length).toBeLessThan(200);
    const started = performance.now();
    const error = await refusal(bomb);
    expect(error.code).toBe('photo_dimensions');
    expect(error.message).toBe('This photo has too many pixels (maximum 8000 px on a side)');
    // 2.7 GB of pixels would take seconds and gigabytes to decode; the header check takes milliseconds.
    expect(performance.now() - started).toBeLessThan(2_000);
  });

  it('refuses more than 8000 px on a side, and more than 40 megapixels in all', async () => {
    expect(
      (
        await refusal(
          await sharp({ create: { width: 9000, height: 100, channels: 3, background: '#fff' } })
            .png()
            .toBuffer(),
        )
      ).code,
    ).toBe('photo_dimensions');
    expect((await refusal(pngHeaderOnly(100, 8001))).code).toBe('photo_dimensions');
    expect((await refusal(pngHeaderOnly(7000, 7000))).code).toBe('photo_dimensions');
  });

  it('refuses a file with the right magic bytes but broken content', async () => {
    const jpeg = await photoJpeg(400, 400);
    expect((await refusal(Buffer.concat([Buffer.from([0xff, 0xd8, 0xff]), Buffer.from('not really a jpeg')]))).code).toBe(
      'photo_unreadable',
    );
    // Truncated halfway: the header is fine, the pixels are missing.
    expect((await refusal(jpeg.subarray(0, Math.floor(jpeg.length / 2)))).code).toBe('photo_unreadable');
    // A PNG signature in front of a JPEG.
    const mixed = Buffer.concat([Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]), jpeg]);
    expect((await refusal(mixed)).code).toBe('photo_unreadable');
    // A PNG whose header is fine but whose pixel data is not there (6000×6000 is allowed, its IDAT is empty).
    expect((await refusal(pngHeaderOnly(6000, 6000))).code).toBe('photo_unreadable');
  });
});

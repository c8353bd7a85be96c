import sharp from 'sharp';
import { describe, expect, it } from 'vitest';
import { jpegWithExif, photoJpeg, plainPng, pngHeaderOnly } from '../../test/images';
import {
  coverCut,
  detectImageType,
  MAX_ASPECT_RATIO,
  MAX_DECODED_BYTES,
  MAX_PHOTO_BYTES,
  PHOTO_VARIANTS,
  PhotoError,
  processImage,
} from './photo-processing';

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
    const error = await refusal(bomb);
    // The file has no pixel data: had it been decoded, it would be refused as unreadable.
    expect(error.code).toBe('photo_dimensions');
    expect(error.message).toBe('This photo has too many pixels (maximum 8000 px on a side)');
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

  it('refuses the 7999×1 PNG (and 1×7999) by its header with photo_aspect_ratio, before any decode', async () => {
    for (const [width, height] of [
      [7999, 1],
      [1, 7999],
    ]) {
      const thin = await plainPng(width, height);
      expect(thin.length).toBeLessThan(300);
      const error = await refusal(thin);
      expect(error.code).toBe('photo_aspect_ratio');
      expect(error.message).toBe('This photo is too long and narrow (one side may be at most 10 times the other)');
      // The same header with no pixels behind it: refused for its shape, so its pixels were never decoded.
      expect((await refusal(pngHeaderOnly(width, height))).code).toBe('photo_aspect_ratio');
    }
    expect((await refusal(pngHeaderOnly(4000, 399))).code).toBe('photo_aspect_ratio');
  });

  it(`accepts a photo at the limit of ${MAX_ASPECT_RATIO}:1, large or tiny, with every card at its size`, async () => {
    for (const [width, height] of [
      [2000, 200],
      [100, 10],
      [20, 200],
    ]) {
      const result = await processImage(await convert(photoJpeg(width, height), 'png'));
      const sizes = await Promise.all(
        PHOTO_VARIANTS.map(async (v) => {
          const meta = await sharp(result.variants[v]).metadata();
          return `${meta.width}x${meta.height}`;
        }),
      );
      const large = width > 1280 ? `1280x${Math.round((height * 1280) / width)}` : `${width}x${height}`;
      expect(sizes, `${width}x${height}`).toEqual([large, '320x400', '400x400', '320x400']);
    }
  });

  it(`refuses by the header an image whose decoded pixels would take more than ${MAX_DECODED_BYTES / 1e6} MB (16-bit RGBA over 20 MP)`, async () => {
    // 16-bit RGBA is 8 bytes a pixel: 5000×4001 needs 160 MB, 4000×4000 128 MB.
    expect((await refusal(pngHeaderOnly(5000, 4001, { deep: true }))).code).toBe('photo_dimensions');
    // Under the cap the header passes, and its missing pixels make it unreadable.
    expect((await refusal(pngHeaderOnly(4000, 4000, { deep: true }))).code).toBe('photo_unreadable');
  });
});

describe('processing time limit', () => {
  it('refuses a photo whose decoding runs past the time limit with photo_too_slow, not as unreadable', async () => {
    const photo = await photoJpeg(400, 500);
    // A limit already used up: the first decode of the original is not even started.
    const error = await processImage(photo, { timeLimitSeconds: 0 }).then(
      () => null,
      (e: unknown) => e as PhotoError,
    );
    expect(error).toBeInstanceOf(PhotoError);
    expect(error?.code).toBe('photo_too_slow');
    expect(error?.message).toBe('This photo took too long to process; please try a smaller one or try again later');
    expect((await processImage(photo)).width).toBe(400);
  });
});

describe('coverCut', () => {
  const targets = [
    { width: 320, height: 400 },
    { width: 400, height: 400 },
    { width: 48, height: 60 },
  ];
  const lengths = [1, 2, 7, 10, 40, 99, 320, 399, 400, 401, 1280, 7999, 8000];

  it('never has a cover crop enlarge the source before cutting it: the work stays within source + target pixels', () => {
    for (const target of targets) {
      for (const width of lengths) {
        for (const height of lengths) {
          const source = { width, height };
          const cut = coverCut(source, target);
          const scale = Math.max(target.width / width, target.height / height);
          if (!cut) {
            // Scaled down (or not at all) and cropped in one pass: the scaled image is no larger than the source.
            expect(scale, `${width}x${height}`).toBeLessThanOrEqual(1);
            continue;
          }
          // The cut lies within the source (cutting it needs no enlargement) and has the target's shape.
          expect(cut.width, `${width}x${height}`).toBeLessThanOrEqual(width);
          expect(cut.height, `${width}x${height}`).toBeLessThanOrEqual(height);
          expect(Math.max(cut.width / width, cut.height / height)).toBe(1);
          expect(Math.abs(cut.width - (cut.height * target.width) / target.height)).toBeLessThanOrEqual(1);
        }
      }
    }
    // The thin line of the 210-byte PNG: a 1×1 cut, enlarged to the card (before: 512000×400 pixels).
    expect(coverCut({ width: 1280, height: 1 }, { width: 400, height: 400 })).toEqual({ width: 1, height: 1 });
    expect(coverCut({ width: 1280, height: 960 }, { width: 400, height: 400 })).toBeNull();
  });
});

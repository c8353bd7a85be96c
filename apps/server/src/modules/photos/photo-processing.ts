import type { PhotoVariant } from '@amora/contracts';
import type { Metadata, Sharp, SharpOptions } from 'sharp';

/**
 * sharp (libvips) is loaded with the first photo: a process that handles none (most of the time, a PostgreSQL
 * node) does not hold its ~8 MB. Every entry point below awaits `loadSharp()` before using `sharp`.
 */
let sharp: typeof import('sharp').default;
let loading: Promise<void> | undefined;
async function loadSharp(): Promise<void> {
  loading ??= import('sharp').then((module) => {
    sharp = module.default;
  });
  await loading;
}

/**
 * Turns an uploaded file into the four WebP variants we serve. Pure: no database, no files.
 *
 * The order of the checks matters: size, then the magic bytes, then the header's dimensions (read by sharp's
 * metadata, which does not decode pixels), and only then a decode, itself capped by `limitInputPixels`. A
 * decompression bomb (a tiny file whose header claims a huge image) is refused before any pixel is decoded.
 * Metadata (EXIF with GPS, XMP, IPTC, ICC) is never copied to the output: sharp drops it unless asked to keep it,
 * and we never call withMetadata/keepExif. Pixels are rotated by the EXIF orientation first.
 */

export const MAX_PHOTO_BYTES = 15 * 1024 * 1024;
const MAX_PHOTO_SIDE = 8000;
const MAX_PHOTO_PIXELS = 40_000_000;
/**
 * What the decoded pixels may take in memory: 40 MP of 8-bit RGBA. Interlaced PNG and WebP are decoded whole, so
 * this is what one upload can hold; 16-bit images reach it at 20 MP (a real 16-bit photo that size is far over
 * 15 MB; one under it is synthetic).
 */
export const MAX_DECODED_BYTES = MAX_PHOTO_PIXELS * 4;
/**
 * The long side may be at most this many times the short side. A photo's cards are 4:5 and square: of a 10:1
 * panorama they still show a tenth; a thinner image is a strip or a line, not a photo of someone.
 */
export const MAX_ASPECT_RATIO = 10;

export const PHOTO_VARIANTS = ['large', 'thumb', 'match', 'blur'] as const satisfies readonly PhotoVariant[];

export type PhotoErrorCode =
  | 'photo_type'
  | 'photo_too_large'
  | 'photo_dimensions'
  | 'photo_aspect_ratio'
  | 'photo_unreadable'
  | 'photo_too_slow';

export class PhotoError extends Error {
  constructor(
    public readonly code: PhotoErrorCode,
    message: string,
  ) {
    super(message);
    this.name = 'PhotoError';
  }
}

export const PHOTO_ERROR_MESSAGES: Record<PhotoErrorCode, string> = {
  photo_type: 'Only JPEG, PNG and WebP photos are accepted',
  photo_too_large: 'This photo is too large (maximum 15 MB)',
  photo_dimensions: 'This photo has too many pixels (maximum 8000 px on a side)',
  photo_aspect_ratio: 'This photo is too long and narrow (one side may be at most 10 times the other)',
  photo_unreadable: 'This photo could not be read; please try another file',
  photo_too_slow: 'This photo took too long to process; please try a smaller one or try again later',
};

const fail = (code: PhotoErrorCode) => new PhotoError(code, PHOTO_ERROR_MESSAGES[code]);

export interface ProcessedImage {
  /** Of the `large` variant (the biggest we keep; the original is not stored). */
  width: number;
  height: number;
  variants: Record<PhotoVariant, Buffer>;
}

export type ImageType = 'jpeg' | 'png' | 'webp';

const PNG_SIGNATURE = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);

/** The type by the file's first bytes; the name and the declared content type are never looked at. */
export function detectImageType(buffer: Buffer): ImageType | null {
  if (buffer.length >= 3 && buffer[0] === 0xff && buffer[1] === 0xd8 && buffer[2] === 0xff) return 'jpeg';
  if (buffer.length >= 8 && buffer.subarray(0, 8).equals(PNG_SIGNATURE)) return 'png';
  if (buffer.length >= 12 && buffer.toString('latin1', 0, 4) === 'RIFF' && buffer.toString('latin1', 8, 12) === 'WEBP') return 'webp';
  return null;
}

const LARGE = 1280;
const THUMB = { width: 320, height: 400 };
const MATCH = 400;
const BLUR_SMALL = { width: 48, height: 60 };
/**
 * The time the decoding of one photo may take (one deadline for every decode of its original); past it libvips
 * stops and the upload is refused as photo_too_slow: a crafted file must not hold a core. The slowest file the
 * limits above accept, a 40 MP interlaced RGBA PNG, takes about 1.5 s of CPU (bench/photo-processing.mjs).
 */
const PROCESSING_TIME_LIMIT_SECONDS = 5;

/** Every decode of untrusted input goes through these: pixel cap, strict enough on broken data, EXIF rotation. */
const INPUT: SharpOptions = { limitInputPixels: MAX_PHOTO_PIXELS, failOn: 'error', autoOrient: true };

const isPixelLimit = (error: unknown) => error instanceof Error && /pixel limit/i.test(error.message);
const isTimeout = (error: unknown) => error instanceof Error && /^timeout:/.test(error.message);

const BYTES_PER_SAMPLE: Partial<Record<NonNullable<Metadata['depth']>, number>> = { uchar: 1, char: 1, ushort: 2, short: 2 };

/** The decoded image's size in memory by its header (channels × bytes per sample × pixels). */
function decodedBytes(meta: Metadata): number {
  const perSample = (meta.depth && BYTES_PER_SAMPLE[meta.depth]) ?? 4;
  return (meta.width ?? 0) * (meta.height ?? 0) * (meta.channels ?? 4) * perSample;
}

export async function processImage(buffer: Buffer, options: { timeLimitSeconds?: number } = {}): Promise<ProcessedImage> {
  if (buffer.length > MAX_PHOTO_BYTES) throw fail('photo_too_large');
  const type = detectImageType(buffer);
  if (!type) throw fail('photo_type');

  // Header only: no pixel is decoded here.
  await loadSharp();
  let meta: Metadata;
  try {
    meta = await sharp(buffer, { limitInputPixels: MAX_PHOTO_PIXELS }).metadata();
  } catch (error) {
    throw fail(isPixelLimit(error) ? 'photo_dimensions' : 'photo_unreadable');
  }
  // The magic bytes and libvips' own sniffing must agree (a PNG signature in front of something else is refused).
  if (meta.format !== type || !meta.width || !meta.height) throw fail('photo_unreadable');
  if (meta.width > MAX_PHOTO_SIDE || meta.height > MAX_PHOTO_SIDE || meta.width * meta.height > MAX_PHOTO_PIXELS) {
    throw fail('photo_dimensions');
  }
  if (decodedBytes(meta) > MAX_DECODED_BYTES) throw fail('photo_dimensions');
  if (Math.max(meta.width, meta.height) > MAX_ASPECT_RATIO * Math.min(meta.width, meta.height)) throw fail('photo_aspect_ratio');

  try {
    return await renderVariants(buffer, meta, options.timeLimitSeconds);
  } catch (error) {
    if (error instanceof PhotoError) throw error;
    if (isTimeout(error)) throw fail('photo_too_slow');
    throw fail(isPixelLimit(error) ? 'photo_dimensions' : 'photo_unreadable');
  }
}

interface RawImage {
  data: Buffer;
  width: number;
  height: number;
  channels: 1 | 2 | 3 | 4;
}

const fromRaw = (raw: RawImage): Sharp => sharp(raw.data, { raw: { width: raw.width, height: raw.height, channels: raw.channels } });

async function toRaw(pipeline: Sharp): Promise<RawImage> {
  const { data, info } = await pipeline.raw().toBuffer({ resolveWithObject: true });
  return { data, width: info.width, height: info.height, channels: info.channels };
}

export interface Size {
  width: number;
  height: number;
}

/**
 * The cut, in the source's own pixels, that a cover crop to `target` needs when the target is larger than the
 * source in the direction that decides (null when it is not: resizing down and cropping in one pass never makes
 * an image larger than the source). sharp's `fit: 'cover'` scales first and crops after, so without this cut a
 * thin source is enlarged along its long side too: 1280×1 to a 400×400 card is 512000×400 before the crop, and
 * the attention strategy reads every pixel of it (20 s and 800 MB for a 210-byte PNG).
 */
export function coverCut(source: Size, target: Size): Size | null {
  const scale = Math.max(target.width / source.width, target.height / source.height);
  if (scale <= 1) return null;
  const fit = (length: number, limit: number) => Math.min(limit, Math.max(1, Math.round(length / scale)));
  return { width: fit(target.width, source.width), height: fit(target.height, source.height) };
}

type Position = 'attention' | 'centre';

/** A cover crop to `target` in which no step makes an image larger than the source or the target. */
async function cover(source: () => Sharp, size: Size, target: Size, position: Position): Promise<Sharp> {
  const cut = coverCut(size, target);
  if (!cut) return source().resize(target.width, target.height, { fit: 'cover', position });
  // The target's shape cut at the source's scale (no enlargement there), then only that cut is enlarged.
  const small = await toRaw(source().resize(cut.width, cut.height, { fit: 'cover', position }));
  return fromRaw(small).resize(target.width, target.height, { fit: 'fill' });
}

/**
 * processImage's work after its checks: every decode of the original shares one deadline (sharp's timeout, in
 * whole seconds, is per pipeline); the steps on decoded pixels work on at most 1280 px and need none.
 */
export async function renderVariants(
  buffer: Buffer,
  meta: Metadata,
  timeLimitSeconds = PROCESSING_TIME_LIMIT_SECONDS,
): Promise<ProcessedImage> {
  await loadSharp();
  const deadline = performance.now() + timeLimitSeconds * 1000;
  const decode = () => {
    const seconds = Math.ceil((deadline - performance.now()) / 1000);
    if (seconds <= 0) throw new Error('timeout: processing time limit reached');
    return sharp(buffer, INPUT).timeout({ seconds });
  };
  // The one full decode (JPEG and WebP shrink while decoding), rotated, in sRGB, at most 1280 on a side.
  const large = await toRaw(decode().resize(LARGE, LARGE, { fit: 'inside', withoutEnlargement: true }).toColourspace('srgb'));
  const largeSize = { width: large.width, height: large.height };
  // A panorama's `large` can be lower than a card; crop the cards from the original then.
  const oriented = { width: meta.autoOrient?.width ?? meta.width ?? 0, height: meta.autoOrient?.height ?? meta.height ?? 0 };
  const fromOriginal =
    Math.min(large.width, large.height) < MATCH && Math.min(oriented.width, oriented.height) > Math.min(large.width, large.height);
  const card = (target: Size) =>
    fromOriginal
      ? cover(() => decode().toColourspace('srgb'), oriented, target, 'attention')
      : cover(() => fromRaw(large), largeSize, target, 'attention');

  const [largeWebp, thumb, match, blurSmall] = await Promise.all([
    fromRaw(large).webp({ quality: 82, effort: 3 }).toBuffer(),
    card(THUMB).then((p) => p.webp({ quality: 80, effort: 3 }).toBuffer()),
    card({ width: MATCH, height: MATCH }).then((p) => p.webp({ quality: 80, effort: 3 }).toBuffer()),
    // Down to 48 px wide and blurred there: whatever detail was left is gone before it is scaled back up.
    cover(() => fromRaw(large), largeSize, BLUR_SMALL, 'centre').then((p) => toRaw(p.blur(2.5))),
  ]);
  const blur = await fromRaw(blurSmall)
    .resize(THUMB.width, THUMB.height, { fit: 'fill', kernel: 'cubic' })
    .blur(6)
    .webp({ quality: 45, effort: 3 })
    .toBuffer();

  return { width: large.width, height: large.height, variants: { large: largeWebp, thumb, match, blur } };
}

/**
 * A lander's card photo (modules/landers): the 4:5 portrait crop of `large`, `width` wide, where the face is
 * (sharp's attention strategy), as WebP. Never the original: `large` is what every visitor may already see.
 */
export async function renderLanderPhoto(large: Buffer, width: number): Promise<Buffer> {
  await loadSharp();
  const meta = await sharp(large).metadata();
  const size = { width: meta.width ?? width, height: meta.height ?? width };
  const target = { width, height: Math.round((width * 5) / 4) };
  return (await cover(() => sharp(large), size, target, 'attention')).webp({ quality: 76, effort: 4 }).toBuffer();
}

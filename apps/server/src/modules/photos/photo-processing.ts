import type { PhotoVariant } from '@amora/contracts';
import sharp, { type Metadata, type Sharp, type SharpOptions } from 'sharp';

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
export const MAX_PHOTO_SIDE = 8000;
export const MAX_PHOTO_PIXELS = 40_000_000;

export const PHOTO_VARIANTS = ['large', 'thumb', 'match', 'blur'] as const satisfies readonly PhotoVariant[];

export type PhotoErrorCode = 'photo_type' | 'photo_too_large' | 'photo_dimensions' | 'photo_unreadable';

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
  photo_unreadable: 'This photo could not be read; please try another file',
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
/** A decode that takes longer than this is abandoned (a crafted file must not hold a worker thread). */
const TIMEOUT_SECONDS = 30;

/** Every decode of untrusted input goes through these: pixel cap, strict enough on broken data, EXIF rotation. */
const INPUT: SharpOptions = { limitInputPixels: MAX_PHOTO_PIXELS, failOn: 'error', autoOrient: true };

const isPixelLimit = (error: unknown) => error instanceof Error && /pixel limit/i.test(error.message);

export async function processImage(buffer: Buffer): Promise<ProcessedImage> {
  if (buffer.length > MAX_PHOTO_BYTES) throw fail('photo_too_large');
  const type = detectImageType(buffer);
  if (!type) throw fail('photo_type');

  // Header only: no pixel is decoded here.
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

  try {
    return await renderVariants(buffer, meta);
  } catch (error) {
    if (error instanceof PhotoError) throw error;
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

async function renderVariants(buffer: Buffer, meta: Metadata): Promise<ProcessedImage> {
  const decode = () => sharp(buffer, INPUT).timeout({ seconds: TIMEOUT_SECONDS });
  // The one full decode (JPEG and WebP shrink while decoding), rotated, in sRGB, at most 1280 on a side.
  const large = await toRaw(decode().resize(LARGE, LARGE, { fit: 'inside', withoutEnlargement: true }).toColourspace('srgb'));
  // A panorama's `large` can be lower than a card; crop the cards from the original then.
  const orientedShort = Math.min(meta.autoOrient?.width ?? meta.width ?? 0, meta.autoOrient?.height ?? meta.height ?? 0);
  const cardSource = (): Sharp =>
    Math.min(large.width, large.height) < MATCH && orientedShort > Math.min(large.width, large.height)
      ? decode().toColourspace('srgb')
      : fromRaw(large);

  const cover = { fit: 'cover', position: 'attention' } as const;
  const [largeWebp, thumb, match, blurSmall] = await Promise.all([
    fromRaw(large).webp({ quality: 82, effort: 3 }).toBuffer(),
    cardSource().resize(THUMB.width, THUMB.height, cover).webp({ quality: 80, effort: 3 }).toBuffer(),
    cardSource().resize(MATCH, MATCH, cover).webp({ quality: 80, effort: 3 }).toBuffer(),
    // Down to 48 px wide and blurred there: whatever detail was left is gone before it is scaled back up.
    toRaw(fromRaw(large).resize(BLUR_SMALL.width, BLUR_SMALL.height, { fit: 'cover', position: 'centre' }).blur(2.5)),
  ]);
  const blur = await fromRaw(blurSmall)
    .resize(THUMB.width, THUMB.height, { fit: 'fill', kernel: 'cubic' })
    .blur(6)
    .webp({ quality: 45, effort: 3 })
    .toBuffer();

  return { width: large.width, height: large.height, variants: { large: largeWebp, thumb, match, blur } };
}

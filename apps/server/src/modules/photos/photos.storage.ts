import { randomBytes } from 'node:crypto';
import type { PhotoVariant } from '@amora/contracts';
import type { MediaStore } from '../../lib/media-storage';
import { PHOTO_VARIANTS } from './photo-processing';

/**
 * Photo files in the media store (lib/media-storage.ts: DATA_DIR or a bucket, never public; the photo routes read
 * them after their access check): `media/<ownerKey>/<storageKey>/<variant>.webp`. Every name is made here: the
 * owner key from ids, the storage key from 16 random bytes; nothing the uploader sent ends up in a key.
 */

const OWNER_KEY = /^p?[1-9][0-9]*$/;
const STORAGE_KEY = /^[0-9a-f]{32}$/;

/** The user's id, or `p<profileId>` for a profile without an account (fictional profiles). */
export function ownerKeyOf(owner: { userId: number | null; profileId: number }): string {
  return owner.userId === null ? `p${owner.profileId}` : String(owner.userId);
}

export function newStorageKey(): string {
  return randomBytes(16).toString('hex');
}

function photoPrefix(ownerKey: string, storageKey: string): string {
  // The keys are ours, but a key is built from them: refuse anything that is not exactly what we generate.
  if (!OWNER_KEY.test(ownerKey) || !STORAGE_KEY.test(storageKey)) throw new Error('invalid photo storage key');
  return `media/${ownerKey}/${storageKey}/`;
}

/** Writes every variant; on failure nothing of this photo remains. */
export async function writePhotoFiles(
  store: MediaStore,
  ownerKey: string,
  storageKey: string,
  variants: Record<PhotoVariant, Buffer>,
): Promise<void> {
  const prefix = photoPrefix(ownerKey, storageKey);
  try {
    await Promise.all(PHOTO_VARIANTS.map((variant) => store.put(`${prefix}${variant}.webp`, variants[variant])));
  } catch (error) {
    await store.removePrefix(prefix).catch(() => {});
    throw error;
  }
}

/** The variant's bytes, or null when it is not there. */
export async function readPhotoFile(
  store: MediaStore,
  ownerKey: string,
  storageKey: string,
  variant: PhotoVariant,
): Promise<Buffer | null> {
  return store.get(`${photoPrefix(ownerKey, storageKey)}${variant}.webp`);
}

/** A lander's size of a photo (`lander-<width>.webp`, beside the variants; removed with them), or null when not made yet. */
export async function readLanderPhotoFile(store: MediaStore, ownerKey: string, storageKey: string, width: number): Promise<Buffer | null> {
  return store.get(`${photoPrefix(ownerKey, storageKey)}lander-${Math.trunc(width)}.webp`);
}

/** Keeps a lander's size of a photo (a reader never sees half of it). */
export async function writeLanderPhotoFile(
  store: MediaStore,
  ownerKey: string,
  storageKey: string,
  width: number,
  bytes: Buffer,
): Promise<void> {
  return store.put(`${photoPrefix(ownerKey, storageKey)}lander-${Math.trunc(width)}.webp`, bytes);
}

export async function removePhotoFiles(store: MediaStore, ownerKey: string, storageKey: string): Promise<void> {
  return store.removePrefix(photoPrefix(ownerKey, storageKey));
}

/** Every photo file of one owner (the account purge after the reactivation window removes the media with the rows). */
export async function removeOwnerMedia(store: MediaStore, ownerKey: string): Promise<void> {
  if (!OWNER_KEY.test(ownerKey)) throw new Error('invalid photo owner key');
  return store.removePrefix(`media/${ownerKey}/`);
}

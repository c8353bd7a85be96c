import { randomBytes } from 'node:crypto';
import { mkdir, readFile, rename, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { PhotoVariant } from '@amora/contracts';
import { PHOTO_VARIANTS } from './photo-processing';

/**
 * Photo files on local disk: `<dataDir>/media/<ownerKey>/<storageKey>/<variant>.webp`, outside anything served
 * statically (the photo route reads them after its access check). Every name is made here: the owner key from
 * ids, the storage key from 16 random bytes; nothing the uploader sent ends up in a path.
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

function photoDir(dataDir: string, ownerKey: string, storageKey: string): string {
  // The keys are ours, but a path is built from them: refuse anything that is not exactly what we generate.
  if (!OWNER_KEY.test(ownerKey) || !STORAGE_KEY.test(storageKey)) throw new Error('invalid photo storage key');
  return join(dataDir, 'media', ownerKey, storageKey);
}

/**
 * Whether the media folder answers (the readiness check, modules/health): a small file of this process written,
 * read back and removed there, so a folder missing, read-only or full fails it.
 */
export async function checkMediaFolder(dataDir: string): Promise<void> {
  const dir = join(dataDir, 'media');
  await mkdir(dir, { recursive: true, mode: 0o700 });
  const probe = join(dir, `.ready-${process.pid}`);
  await writeFile(probe, 'ok', { mode: 0o600 });
  try {
    if ((await readFile(probe, 'utf8')) !== 'ok') throw new Error('the media folder gave back another content');
  } finally {
    await rm(probe, { force: true });
  }
}

/** Writes every variant (each through a temp file and a rename); on failure nothing of this photo remains. */
export async function writePhotoFiles(
  dataDir: string,
  ownerKey: string,
  storageKey: string,
  variants: Record<PhotoVariant, Buffer>,
): Promise<void> {
  const dir = photoDir(dataDir, ownerKey, storageKey);
  try {
    await mkdir(dir, { recursive: true, mode: 0o700 });
    for (const variant of PHOTO_VARIANTS) {
      const file = join(dir, `${variant}.webp`);
      const temp = `${file}.${randomBytes(6).toString('hex')}.tmp`;
      await writeFile(temp, variants[variant], { mode: 0o600, flag: 'wx' });
      await rename(temp, file);
    }
  } catch (error) {
    await rm(dir, { recursive: true, force: true }).catch(() => {});
    throw error;
  }
}

/** The variant's bytes, or null when the file is not there. */
export async function readPhotoFile(dataDir: string, ownerKey: string, storageKey: string, variant: PhotoVariant): Promise<Buffer | null> {
  try {
    return await readFile(join(photoDir(dataDir, ownerKey, storageKey), `${variant}.webp`));
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return null;
    throw error;
  }
}

/** A lander's size of a photo (`lander-<width>.webp`, beside the variants; removed with them), or null when not made yet. */
export async function readLanderPhotoFile(dataDir: string, ownerKey: string, storageKey: string, width: number): Promise<Buffer | null> {
  try {
    return await readFile(join(photoDir(dataDir, ownerKey, storageKey), `lander-${Math.trunc(width)}.webp`));
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return null;
    throw error;
  }
}

/** Keeps a lander's size of a photo (through a temp file and a rename, so a reader never sees half of it). */
export async function writeLanderPhotoFile(
  dataDir: string,
  ownerKey: string,
  storageKey: string,
  width: number,
  bytes: Buffer,
): Promise<void> {
  const file = join(photoDir(dataDir, ownerKey, storageKey), `lander-${Math.trunc(width)}.webp`);
  const temp = `${file}.${randomBytes(6).toString('hex')}.tmp`;
  await writeFile(temp, bytes, { mode: 0o600, flag: 'wx' });
  await rename(temp, file);
}

export async function removePhotoFiles(dataDir: string, ownerKey: string, storageKey: string): Promise<void> {
  await rm(photoDir(dataDir, ownerKey, storageKey), { recursive: true, force: true });
}

/** Every photo file of one owner (the account purge after the reactivation window removes the media with the rows). */
export async function removeOwnerMedia(dataDir: string, ownerKey: string): Promise<void> {
  if (!OWNER_KEY.test(ownerKey)) throw new Error('invalid photo owner key');
  await rm(join(dataDir, 'media', ownerKey), { recursive: true, force: true });
}

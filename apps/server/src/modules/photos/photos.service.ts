import { availableParallelism } from 'node:os';
import { FREE_PHOTO_LIMIT, type PhotoVariant, PREMIUM_PHOTO_LIMIT } from '@amora/contracts';
import type { FastifyRequest } from 'fastify';
import type { Config } from '../../config';
import type { AppContext } from '../../context';
import { badRequest, HttpError, notFound, tooManyRequests } from '../../lib/errors';
import { mediaStoreOf } from '../../lib/media-storage';
import { afterCommit, type DbContext, dbOf, withTransaction } from '../../lib/transaction';
import { setPaidUser } from '../accounts/accounts.service';
import { setProfileMainPhoto } from '../profiles/profiles.service';
import { PHOTO_ERROR_MESSAGES, PHOTO_VARIANTS, PhotoError, processImage, renderLanderPhoto } from './photo-processing';

export { MAX_PHOTO_BYTES } from './photo-processing';

import { QueueRefusedError, WorkQueue } from './photo-queue';
import { canSeeVariant, type PhotoViewer } from './photos.policy';
import {
  countPendingPhotos,
  countPhotos,
  deletePhotoRow,
  deletePhotosOf,
  findMainPhotoId,
  findOwnPhoto,
  findPhotoForViewing,
  findPhotoWithProfile,
  findProfileForUpload,
  hasBlocked,
  insertPhoto,
  listPendingPhotos,
  listPhotosOf,
  lockProfile,
  newestActivePhoto,
  type PendingPhotoFilter,
  type PhotoRow,
  setPhotoStatus,
} from './photos.repository';
import {
  newStorageKey,
  ownerKeyOf,
  readLanderPhotoFile,
  readPhotoFile,
  removeOwnerMedia,
  removePhotoFiles,
  writeLanderPhotoFile,
  writePhotoFiles,
} from './photos.storage';

/** What the photo service needs of the app context (the demo seed runs it before the app exists). */
export type PhotoContext = Pick<AppContext, 'db' | 'now'> & { config: Pick<Config, 'dataDir' | 'media'> };

/** Uploads one member may make per minute and per hour, whatever happens to them (processing a photo costs a core). */
const UPLOADS_PER_MINUTE = 10;
const UPLOADS_PER_HOUR = 60;

export function photoLimitFor(isPremium: boolean): number {
  return isPremium ? PREMIUM_PHOTO_LIMIT : FREE_PHOTO_LIMIT;
}

const photoLimitReached = (limit: number) =>
  new HttpError(409, 'photo_limit', `You have reached the maximum of ${limit} photos`, { limit });

function toHttpError(error: PhotoError): HttpError {
  return new HttpError(error.code === 'photo_too_large' ? 413 : 400, error.code, error.message, { field: 'photo' });
}

/**
 * Photo processing: as many jobs at a time as there are cores but one (a 40-megapixel photo takes a core for up
 * to a second or two; the core left keeps answering everyone else), at most four waiting per running job, and a
 * member has one photo in processing and at most two more waiting. Past that an upload is answered at once:
 * 503 photo_busy when the queue is full, 429 when the member already has three in it.
 */
const MAX_PARALLEL = Math.max(1, availableParallelism() - 1);
export const photoQueue = new WorkQueue({ concurrency: MAX_PARALLEL, maxWaiting: 4 * MAX_PARALLEL, perOwner: 3 });
const RETRY_AFTER_SECONDS = 5;

function queueRefusal(error: QueueRefusedError): HttpError {
  if (error.reason === 'owner') {
    return tooManyRequests('You are already uploading photos, please wait until they are done', RETRY_AFTER_SECONDS);
  }
  return new HttpError(503, 'photo_busy', 'Many photos are being processed right now, please try again in a moment', {
    retry_after_seconds: RETRY_AFTER_SECONDS,
  });
}

/** Before the body is read: a full queue answers at once, not after a 15 MB upload. */
export function checkProcessingRoom(): void {
  if (photoQueue.isFull) throw queueRefusal(new QueueRefusedError('full'));
}

export async function checkUploadRate(ctx: AppContext, userId: number): Promise<void> {
  // Atomic counters: of any number of parallel uploads exactly the allowed number pass.
  const minute = await ctx.limiter.hit(`photo-upload-minute:${userId}`, 60_000, UPLOADS_PER_MINUTE);
  if (!minute.allowed) throw tooManyRequests('Too many photo uploads, please try again later', minute.retryAfterSeconds);
  const hour = await ctx.limiter.hit(`photo-upload:${userId}`, 3_600_000, UPLOADS_PER_HOUR);
  if (!hour.allowed) throw tooManyRequests('Too many photo uploads, please try again later', hour.retryAfterSeconds);
}

export interface AddedPhoto {
  photo: PhotoRow;
  isMain: boolean;
}

/**
 * Adds a photo to the member's own profile: the limit (free 3, premium 25) is checked before any processing
 * and again, under a lock of the profile, when the row is written. On any failure nothing is stored.
 */
export async function addPhoto(
  ctx: PhotoContext,
  input: { profileId: number; userId: number; isPremium: boolean; buffer: Buffer; isModerated?: boolean },
): Promise<AddedPhoto> {
  return storePhoto(
    ctx,
    input.profileId,
    input.userId,
    input.buffer,
    photoLimitFor(input.isPremium),
    input.isModerated ? 'pending' : 'active',
  );
}

/** For the demo seed: no limit, and the profile may have no account (a fictional profile, `userId` null). */
export async function addPhotoForSeed(
  ctx: PhotoContext,
  input: { profileId: number; userId: number | null; buffer: Buffer },
): Promise<AddedPhoto> {
  return storePhoto(ctx, input.profileId, input.userId, input.buffer, null);
}

/**
 * The console adds a photo to a fictional profile (no account): staff put it there, so it is active at once, and
 * the first one becomes the main photo. The same pipeline as a member's upload (checks, sharp, metadata dropped).
 */
export function addFictionalPhoto(ctx: PhotoContext, input: { profileId: number; buffer: Buffer }): Promise<AddedPhoto> {
  return storePhoto(ctx, input.profileId, null, input.buffer, null);
}

async function storePhoto(
  ctx: PhotoContext,
  profileId: number,
  userId: number | null,
  buffer: Buffer,
  limit: number | null,
  status: 'active' | 'pending' = 'active',
) {
  // In a caller's unit of work (which the row is written in) the checks read through its transaction.
  const db = dbOf(ctx);
  const profile = await findProfileForUpload(db, profileId);
  if (!profile) throw notFound('Profile not found');
  if (profile.userId !== userId) throw new Error(`profile ${profileId} does not belong to user ${userId}`);
  if (limit !== null && profile.photoCount >= limit) throw photoLimitReached(limit);

  const ownerKey = ownerKeyOf({ userId: profile.userId, profileId });
  let processed: Awaited<ReturnType<typeof processImage>>;
  try {
    processed = await photoQueue.run(ownerKey, async () => {
      // It may have waited behind the member's other uploads: no work for a photo that cannot be kept.
      if (limit !== null && (await countPhotos(db, profileId)) >= limit) throw photoLimitReached(limit);
      return processImage(buffer);
    });
  } catch (error) {
    if (error instanceof PhotoError) throw toHttpError(error);
    if (error instanceof QueueRefusedError) throw queueRefusal(error);
    throw error;
  }

  const storageKey = newStorageKey();
  // Files first, then the row: a row never points at missing files; a failed insert removes the files.
  await writePhotoFiles(mediaStoreOf(ctx.config), ownerKey, storageKey, processed.variants);
  try {
    return await withTransaction(ctx, async (tx) => {
      const locked = await lockProfile(tx, profileId);
      if (!locked) throw notFound('Profile not found');
      if (limit !== null && (await countPhotos(tx, profileId)) >= limit) throw photoLimitReached(limit);
      const now = ctx.now();
      const photo = await insertPhoto(tx, {
        profileId,
        storageKey,
        status,
        width: processed.width,
        height: processed.height,
        createdAt: now,
      });
      const hasMain = locked.mainPhotoId !== null && Boolean(await findOwnPhoto(tx, profileId, locked.mainPhotoId));
      // A photo waiting for moderation cannot be the main photo yet.
      const becomesMain = !hasMain && status === 'active';
      if (becomesMain) await setProfileMainPhoto(ctx, profileId, photo.id, now);
      return { photo, isMain: becomesMain };
    });
  } catch (error) {
    await removePhotoFiles(mediaStoreOf(ctx.config), ownerKey, storageKey).catch(() => {});
    throw error;
  }
}

/**
 * Deletes one of the profile's own photos; when it was the main photo, the newest remaining one becomes main.
 * Whether the main photo changed.
 */
export async function deletePhoto(ctx: PhotoContext, input: { profileId: number; photoId: number }): Promise<boolean> {
  const { profileId, photoId } = input;
  const removed = await withTransaction(ctx, async (tx) => {
    const locked = await lockProfile(tx, profileId);
    const photo = locked && (await findOwnPhoto(tx, profileId, photoId));
    if (!locked || !photo) throw notFound('Photo not found');
    await deletePhotoRow(tx, photoId);
    if (locked.mainPhotoId === photoId) {
      const next = await newestActivePhoto(tx, profileId, photoId);
      await setProfileMainPhoto(ctx, profileId, next?.id ?? null, ctx.now());
    }
    return { storageKey: photo.storageKey, userId: locked.userId, wasMain: locked.mainPhotoId === photoId };
  });
  // After the commit: the row is gone, so nobody can be served these files any more. A failure to remove them
  // leaves unreachable files behind, which is better than failing a deletion that did happen. In a caller's unit
  // of work the files go once it commits (and stay when it rolls back); otherwise the answer waits for them.
  const ownerKey = ownerKeyOf({ userId: removed.userId, profileId });
  let removal = Promise.resolve();
  afterCommit(() => {
    removal = removePhotoFiles(mediaStoreOf(ctx.config), ownerKey, removed.storageKey).catch(() => {});
  });
  await removal;
  return removed.wasMain;
}

export async function setMainPhoto(ctx: PhotoContext, input: { profileId: number; photoId: number }): Promise<void> {
  const photo = await findOwnPhoto(dbOf(ctx), input.profileId, input.photoId);
  if (!photo) throw notFound('Photo not found');
  if (photo.status !== 'active') throw new HttpError(409, 'photo_not_active', 'This photo cannot be the main photo yet');
  await setProfileMainPhoto(ctx, input.profileId, photo.id, ctx.now());
}

/** The profile's photos, newest first, and which one is the main photo. */
export async function listOwnPhotos(ctx: PhotoContext, profileId: number): Promise<{ photos: PhotoRow[]; mainPhotoId: number | null }> {
  const [photos, mainPhotoId] = await Promise.all([listPhotosOf(dbOf(ctx), profileId), findMainPhotoId(dbOf(ctx), profileId)]);
  return { photos, mainPhotoId };
}

/** The variant's bytes when the viewer may see it; null otherwise, exactly as when the photo does not exist. */
export async function readVisiblePhoto(
  ctx: PhotoContext,
  viewer: PhotoViewer,
  photoId: number,
  variant: PhotoVariant,
): Promise<Buffer | null> {
  const member = viewer.member;
  const photo = await findPhotoForViewing(dbOf(ctx), photoId, member?.profileId ?? null);
  if (!photo || photo.siteId !== viewer.siteId) return null;
  const viewerBlocked =
    member !== null && member.profileId !== photo.profileId && (await hasBlocked(dbOf(ctx), photo.profileId, member.profileId));
  const allowed = canSeeVariant(
    viewer,
    {
      siteId: photo.siteId,
      profileId: photo.profileId,
      status: photo.status,
      isMain: photo.mainPhotoId === photo.id,
      ownerDeleted: photo.userStatus === 'deleted',
      viewerBlocked,
      profileHidden: photo.profileStatus !== 'active' || photo.isHidden,
    },
    variant,
  );
  if (!allowed) return null;
  return readPhotoFile(
    mediaStoreOf(ctx.config),
    ownerKeyOf({ userId: photo.userId, profileId: photo.profileId }),
    photo.storageKey,
    variant,
  );
}

/**
 * A fictional profile's main photo for a lander (GET /api/lander-photo.php), `width` wide: only the active main
 * photo of an active, visible fictional profile of the site, which any visitor may see, so the answer may be kept
 * by any cache. A real member's photo is never served this way (landers advertise; members' faces are not put
 * into advertising). Made from `large` the first time it is asked for and kept beside the other variants.
 */
export async function readLanderPhoto(ctx: PhotoContext, siteId: number, photoId: number, width: number): Promise<Buffer | null> {
  const photo = await findPhotoForViewing(dbOf(ctx), photoId, null);
  if (!photo || photo.siteId !== siteId || !photo.isFictional || photo.mainPhotoId !== photo.id) return null;
  if (photo.status !== 'active' || photo.profileStatus !== 'active' || photo.isHidden) return null;
  const owner = ownerKeyOf({ userId: photo.userId, profileId: photo.profileId });
  const kept = await readLanderPhotoFile(mediaStoreOf(ctx.config), owner, photo.storageKey, width);
  if (kept) return kept;
  const large = await readPhotoFile(mediaStoreOf(ctx.config), owner, photo.storageKey, 'large');
  if (!large) return null;
  const bytes = await renderLanderPhoto(large, width);
  // Two first requests at once both make it; the second write wins with the same bytes.
  await writeLanderPhotoFile(mediaStoreOf(ctx.config), owner, photo.storageKey, width, bytes).catch(() => {});
  return bytes;
}

/**
 * Every stored variant of one of the member's own photos (the data export: what they stored, as it is stored);
 * a variant whose file is missing is left out.
 */
export async function readOwnPhotoFiles(
  ctx: PhotoContext,
  owner: { userId: number; profileId: number },
  storageKey: string,
): Promise<{ variant: PhotoVariant; bytes: Buffer }[]> {
  const files = await Promise.all(
    PHOTO_VARIANTS.map(async (variant) => ({
      variant,
      bytes: await readPhotoFile(mediaStoreOf(ctx.config), ownerKeyOf(owner), storageKey, variant),
    })),
  );
  return files.flatMap((file) => (file.bytes ? [{ variant: file.variant, bytes: file.bytes }] : []));
}

/**
 * A member's photo for the console (member support and moderation): any status, any site, as long as it is the
 * account's; null otherwise. Staff only: the console's routes check the role.
 */
export async function readPhotoForStaff(ctx: PhotoContext, userId: number, photoId: number, variant: PhotoVariant): Promise<Buffer | null> {
  const photo = await findPhotoForViewing(dbOf(ctx), photoId, null);
  if (!photo || photo.userId !== userId) return null;
  return readPhotoFile(mediaStoreOf(ctx.config), ownerKeyOf({ userId, profileId: photo.profileId }), photo.storageKey, variant);
}

/** Development and tests only (the route is not registered in production): payments will set paid_user. */
export async function setPremiumForDev(ctx: PhotoContext, userId: number, paid: boolean): Promise<void> {
  await setPaidUser(ctx, userId, paid);
}

/** The account purge: the member's photo rows. Their files go after the commit (removeMemberMedia). */
export async function purgeMember(ctx: DbContext, member: { profileId: number | null }): Promise<void> {
  const { profileId } = member;
  if (profileId !== null) await withTransaction(ctx, (tx) => deletePhotosOf(tx, profileId));
}

/** The account purge, after its commit: every photo file of the member. */
export async function removeMemberMedia(ctx: Pick<AppContext, 'config'>, member: { userId: number }): Promise<void> {
  // A member's files are under their account's id (fictional profiles, without an account, are never purged).
  await removeOwnerMedia(mediaStoreOf(ctx.config), ownerKeyOf({ userId: member.userId, profileId: 0 }));
}

/**
 * Throws unless the configured media store answers (the readiness check, modules/health): the folder written, read
 * back and cleared; the bucket there and open to these credentials.
 */
export function checkMediaStorage(ctx: Pick<AppContext, 'config'>): Promise<void> {
  return mediaStoreOf(ctx.config).check();
}

/**
 * A photo message's picture (chat): checked and processed as a profile photo (header checks, sharp, metadata
 * dropped, the same bounded queue and the member's place in it), written under the sender's media, and not a
 * profile photo: no row of photos, no limit. Its storage key and size; the chat stores the key on the message.
 */
export async function processChatPhoto(
  ctx: PhotoContext,
  owner: { userId: number; profileId: number },
  buffer: Buffer,
): Promise<{ storageKey: string; width: number; height: number }> {
  const ownerKey = ownerKeyOf(owner);
  let processed: Awaited<ReturnType<typeof processImage>>;
  try {
    processed = await photoQueue.run(ownerKey, () => processImage(buffer));
  } catch (error) {
    if (error instanceof PhotoError) throw toHttpError(error);
    if (error instanceof QueueRefusedError) throw queueRefusal(error);
    throw error;
  }
  const storageKey = newStorageKey();
  await writePhotoFiles(mediaStoreOf(ctx.config), ownerKey, storageKey, processed.variants);
  return { storageKey, width: processed.width, height: processed.height };
}

/** A chat photo's variant (the chat has checked who may see it), or null when its file is gone. */
export function readChatPhoto(
  ctx: PhotoContext,
  owner: { userId: number | null; profileId: number },
  storageKey: string,
  variant: 'large' | 'blur',
): Promise<Buffer | null> {
  return readPhotoFile(mediaStoreOf(ctx.config), ownerKeyOf(owner), storageKey, variant);
}

/** Removes a chat photo's files (a send that stored nothing). */
export async function removeChatPhoto(ctx: PhotoContext, owner: { userId: number; profileId: number }, storageKey: string): Promise<void> {
  await removePhotoFiles(mediaStoreOf(ctx.config), ownerKeyOf(owner), storageKey).catch(() => {});
}

const UPLOAD_FIELD = 'photo';

/** The one file of the multipart field `photo` of a request (the route registers @fastify/multipart), read into memory (at most 15 MB, enforced while streaming). */
export async function readPhotoUpload(request: FastifyRequest): Promise<Buffer> {
  const missing = () => badRequest(UPLOAD_FIELD, 'Send the photo as multipart/form-data in the field "photo"');
  if (!request.isMultipart()) throw missing();
  try {
    const part = await request.file();
    if (!part) throw missing();
    if (part.fieldname !== UPLOAD_FIELD) {
      part.file.resume();
      throw missing();
    }
    return await part.toBuffer();
  } catch (error) {
    if (error instanceof HttpError) throw error;
    const { code, statusCode } = error as { code?: string; statusCode?: number };
    if (code === 'FST_REQ_FILE_TOO_LARGE')
      throw new HttpError(413, 'photo_too_large', PHOTO_ERROR_MESSAGES.photo_too_large, { field: UPLOAD_FIELD });
    // The multipart plugin's own limits (parts, files, fields) keep their 4xx status.
    if (statusCode && statusCode >= 400 && statusCode < 500) throw error;
    // Anything else here is a body that is not valid multipart (no boundary, cut short): the client's fault.
    throw badRequest(UPLOAD_FIELD, 'The upload could not be read; send the photo as multipart/form-data');
  }
}

/** Photos waiting for moderation on the sites that moderate photos (the console's queue), oldest first, and how many. */
export async function pendingPhotos(ctx: DbContext, filter: PendingPhotoFilter, limit: number) {
  const [rows, total] = await Promise.all([listPendingPhotos(dbOf(ctx), filter, limit), countPendingPhotos(dbOf(ctx), filter)]);
  return { rows, total };
}

/** One photo for moderation, whatever its status, with its profile's site and account. */
export function photoForModeration(ctx: DbContext, photoId: number) {
  return findPhotoWithProfile(dbOf(ctx), photoId);
}

/**
 * Moderation decides on a photo: approved (active; the main photo when the profile has none) or rejected (kept,
 * never shown to anyone but the console; the next active photo becomes main when it was the main photo). A
 * rejected photo approved again is restored. Answers the status before, or null when there is no such photo;
 * whether the main photo changed is published as profile.changed once committed.
 */
export async function decidePhoto(
  ctx: PhotoContext & Pick<AppContext, 'events'>,
  photoId: number,
  decision: 'active' | 'rejected',
): Promise<{ before: string; profileId: number } | null> {
  return withTransaction(ctx, async (tx) => {
    const found = await findPhotoWithProfile(tx, photoId);
    if (!found) return null;
    const { photo, siteId } = found;
    const locked = await lockProfile(tx, photo.profileId);
    if (!locked) return null;
    await setPhotoStatus(tx, photoId, decision);
    let mainChanged = false;
    if (decision === 'active' && locked.mainPhotoId === null) {
      await setProfileMainPhoto(ctx, photo.profileId, photoId, ctx.now());
      mainChanged = true;
    } else if (decision === 'rejected' && locked.mainPhotoId === photoId) {
      const next = await newestActivePhoto(tx, photo.profileId, photoId);
      await setProfileMainPhoto(ctx, photo.profileId, next?.id ?? null, ctx.now());
      mainChanged = true;
    }
    if (mainChanged) ctx.events.publish({ type: 'profile.changed', siteId, profileId: photo.profileId, fields: ['main_photo'] });
    return { before: photo.status, profileId: photo.profileId };
  });
}

/** The large variant of any photo, for the console (its route is for staff only). */
export async function readPhotoForModeration(
  ctx: PhotoContext,
  photoId: number,
  variant: 'large' | 'thumb' = 'large',
): Promise<Buffer | null> {
  const found = await findPhotoWithProfile(dbOf(ctx), photoId);
  if (!found) return null;
  const owner = { userId: found.userId, profileId: found.photo.profileId };
  return readPhotoFile(mediaStoreOf(ctx.config), ownerKeyOf(owner), found.photo.storageKey, variant);
}

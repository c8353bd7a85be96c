import { blocks, type Executor, notHiddenFrom, photos, profiles, sites, users } from '@amora/db';
import { and, asc, count, desc, eq, lt, ne, sql } from 'drizzle-orm';

export type PhotoRow = typeof photos.$inferSelect;

/** The profile's account (null for a profile without one) and how many photos it has, or undefined. */
export async function findProfileForUpload(
  db: Executor,
  profileId: number,
): Promise<{ userId: number | null; photoCount: number } | undefined> {
  const [profile] = await db.select({ userId: profiles.userId }).from(profiles).where(eq(profiles.id, profileId));
  if (!profile) return undefined;
  return { userId: profile.userId, photoCount: await countPhotos(db, profileId) };
}

export async function countPhotos(db: Executor, profileId: number): Promise<number> {
  const [row] = await db.select({ value: count() }).from(photos).where(eq(photos.profileId, profileId));
  return Number(row?.value ?? 0);
}

/**
 * Locks the profile row for the rest of the transaction, so uploads and deletions of one profile run one after
 * another on every server process (the photo count and the main photo stay consistent).
 */
export async function lockProfile(
  tx: Executor,
  profileId: number,
): Promise<{ userId: number | null; mainPhotoId: number | null } | undefined> {
  const [row] = await tx
    .select({ userId: profiles.userId, mainPhotoId: profiles.mainPhotoId })
    .from(profiles)
    .where(eq(profiles.id, profileId))
    .for('update');
  return row;
}

export async function insertPhoto(tx: Executor, photo: typeof photos.$inferInsert): Promise<PhotoRow> {
  const [row] = await tx.insert(photos).values(photo).returning();
  return row;
}

export async function findMainPhotoId(db: Executor, profileId: number): Promise<number | null> {
  const [row] = await db.select({ mainPhotoId: profiles.mainPhotoId }).from(profiles).where(eq(profiles.id, profileId));
  return row?.mainPhotoId ?? null;
}

/** The photo when it belongs to that profile. */
export async function findOwnPhoto(db: Executor, profileId: number, photoId: number): Promise<PhotoRow | undefined> {
  const [row] = await db
    .select()
    .from(photos)
    .where(and(eq(photos.id, photoId), eq(photos.profileId, profileId)));
  return row;
}

export async function deletePhotoRow(tx: Executor, photoId: number): Promise<void> {
  await tx.delete(photos).where(eq(photos.id, photoId));
}

/** Newest first. */
export async function listPhotosOf(db: Executor, profileId: number): Promise<PhotoRow[]> {
  return db.select().from(photos).where(eq(photos.profileId, profileId)).orderBy(desc(photos.createdAt), desc(photos.id));
}

/** The newest active photo of the profile other than `exceptId`: the next main photo after a deletion. */
export async function newestActivePhoto(db: Executor, profileId: number, exceptId: number): Promise<PhotoRow | undefined> {
  const [row] = await db
    .select()
    .from(photos)
    .where(and(eq(photos.profileId, profileId), eq(photos.status, 'active'), ne(photos.id, exceptId)))
    .orderBy(desc(photos.createdAt), desc(photos.id))
    .limit(1);
  return row;
}

/** A photo with what the access rule needs to know about its profile and account, for `viewerProfileId` (null: a visitor). */
export async function findPhotoForViewing(db: Executor, photoId: number, viewerProfileId: number | null) {
  const [row] = await db
    .select({
      id: photos.id,
      profileId: photos.profileId,
      storageKey: photos.storageKey,
      status: photos.status,
      siteId: profiles.siteId,
      userId: profiles.userId,
      mainPhotoId: profiles.mainPhotoId,
      isFictional: profiles.isFictional,
      userStatus: users.status,
      profileStatus: profiles.status,
      isHidden: sql<boolean>`not ${notHiddenFrom(viewerProfileId)}`,
    })
    .from(photos)
    .innerJoin(profiles, eq(profiles.id, photos.profileId))
    .leftJoin(users, eq(users.id, profiles.userId))
    .where(eq(photos.id, photoId));
  return row;
}

/** Whether `blockerProfileId` has blocked `blockedProfileId`. */
export async function hasBlocked(db: Executor, blockerProfileId: number, blockedProfileId: number): Promise<boolean> {
  const [row] = await db
    .select({ at: blocks.createdAt })
    .from(blocks)
    .where(and(eq(blocks.blockerProfileId, blockerProfileId), eq(blocks.blockedProfileId, blockedProfileId)));
  return Boolean(row);
}

/** The account purge: the profile's photo rows (the files go after the commit, photos.service's removeMemberMedia). */
export async function deletePhotosOf(db: Executor, profileId: number): Promise<void> {
  await db.delete(photos).where(eq(photos.profileId, profileId));
}

/** Which photos waiting for moderation are listed: on sites that moderate photos, of one site, older than a moment. */
export interface PendingPhotoFilter {
  siteId?: number;
  createdBefore?: Date;
}

function pendingWhere(filter: PendingPhotoFilter) {
  return and(
    eq(photos.status, 'pending'),
    eq(sites.moderatePhotos, true),
    filter.siteId === undefined ? undefined : eq(profiles.siteId, filter.siteId),
    filter.createdBefore === undefined ? undefined : lt(photos.createdAt, filter.createdBefore),
  );
}

/** Photos waiting for moderation, oldest first, with their profile. */
export async function listPendingPhotos(db: Executor, filter: PendingPhotoFilter, limit: number) {
  return db
    .select({
      id: photos.id,
      createdAt: photos.createdAt,
      profileId: profiles.id,
      siteId: profiles.siteId,
      userId: profiles.userId,
      name: profiles.name,
      isFictional: profiles.isFictional,
    })
    .from(photos)
    .innerJoin(profiles, eq(profiles.id, photos.profileId))
    .innerJoin(sites, eq(sites.id, profiles.siteId))
    .where(pendingWhere(filter))
    .orderBy(asc(photos.createdAt), asc(photos.id))
    .limit(limit);
}

export async function countPendingPhotos(db: Executor, filter: PendingPhotoFilter): Promise<number> {
  const [row] = await db
    .select({ value: count() })
    .from(photos)
    .innerJoin(profiles, eq(profiles.id, photos.profileId))
    .innerJoin(sites, eq(sites.id, profiles.siteId))
    .where(pendingWhere(filter));
  return Number(row?.value ?? 0);
}

/** A photo with its profile's site and account, whatever its status. */
export async function findPhotoWithProfile(db: Executor, photoId: number) {
  const [row] = await db
    .select({ photo: photos, siteId: profiles.siteId, userId: profiles.userId })
    .from(photos)
    .innerJoin(profiles, eq(profiles.id, photos.profileId))
    .where(eq(photos.id, photoId));
  return row;
}

export async function setPhotoStatus(tx: Executor, photoId: number, status: 'active' | 'pending' | 'rejected'): Promise<void> {
  await tx.update(photos).set({ status }).where(eq(photos.id, photoId));
}

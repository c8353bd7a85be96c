import {
  blocks,
  type Executor,
  notBlockedEitherWay,
  notHiddenFrom,
  ownerNotDeleted,
  photos,
  profileCardColumns,
  profiles,
  users,
} from '@amora/db';
import { and, desc, eq, ne, or, sql } from 'drizzle-orm';

export type ProfileRow = typeof profiles.$inferSelect;
export type PhotoRow = typeof photos.$inferSelect;

export async function findProfileWithOwner(db: Executor, profileId: number) {
  const [row] = await db.select().from(profiles).leftJoin(users, eq(users.id, profiles.userId)).where(eq(profiles.id, profileId));
  return row ? { profile: row.profiles, user: row.users } : undefined;
}

/**
 * A profile and its account, and whether invisible mode hides it from `viewerProfileId` (null: a visitor); see
 * notHiddenFrom in packages/db.
 */
export async function findProfileForViewer(db: Executor, profileId: number, viewerProfileId: number | null) {
  const [row] = await db
    .select({ profile: profiles, user: users, isHidden: sql<boolean>`not ${notHiddenFrom(viewerProfileId)}` })
    .from(profiles)
    .leftJoin(users, eq(users.id, profiles.userId))
    .where(eq(profiles.id, profileId));
  return row;
}

export async function photosOf(db: Executor, profileId: number): Promise<PhotoRow[]> {
  return db.select().from(photos).where(eq(photos.profileId, profileId)).orderBy(desc(photos.createdAt), desc(photos.id));
}

export async function updateProfileRow(db: Executor, profileId: number, values: Partial<typeof profiles.$inferInsert>): Promise<void> {
  await db.update(profiles).set(values).where(eq(profiles.id, profileId));
}

/** A fictional profile's fields changed (never a member's: the flag is the condition). False when there is none. */
export async function updateFictionalRow(
  db: Executor,
  profileId: number,
  values: Partial<Omit<typeof profiles.$inferInsert, 'isFictional' | 'userId' | 'siteId' | 'id'>>,
): Promise<boolean> {
  const rows = await db
    .update(profiles)
    .set(values)
    .where(and(eq(profiles.id, profileId), eq(profiles.isFictional, true)))
    .returning({ id: profiles.id });
  return rows.length > 0;
}

/** Whether `blocker` blocked `blocked`. */
export async function hasBlocked(db: Executor, blocker: number, blocked: number): Promise<boolean> {
  const [row] = await db
    .select({ one: sql<number>`1` })
    .from(blocks)
    .where(and(eq(blocks.blockerProfileId, blocker), eq(blocks.blockedProfileId, blocked)));
  return Boolean(row);
}

export async function insertBlock(db: Executor, blocker: number, blocked: number): Promise<void> {
  await db.insert(blocks).values({ blockerProfileId: blocker, blockedProfileId: blocked }).onConflictDoNothing();
}

/** The most blocks a member's list shows. */
const BLOCK_LIST_MAX = 500;

/**
 * The profiles `blocker` blocked, the latest block first, as cards (with whether their owner is premium), each with
 * whether the blocker may still see it as search and profile pages decide (active, its account not deleted, not
 * hidden from the blocker by invisible mode), the block itself aside.
 */
export async function listBlockedBy(db: Executor, blocker: number) {
  return db
    .select({
      ...profileCardColumns,
      paidUser: users.paidUser,
      visible: sql<boolean>`(${and(eq(profiles.status, 'active'), ownerNotDeleted(), notHiddenFrom(blocker))})`.mapWith(Boolean),
    })
    .from(blocks)
    .innerJoin(profiles, eq(profiles.id, blocks.blockedProfileId))
    .leftJoin(users, eq(users.id, profiles.userId))
    .where(eq(blocks.blockerProfileId, blocker))
    .orderBy(desc(blocks.createdAt), desc(blocks.blockedProfileId))
    .limit(BLOCK_LIST_MAX);
}

/** Removes `blocker`'s block of `blocked`; whether there was one. */
export async function deleteBlock(db: Executor, blocker: number, blocked: number): Promise<boolean> {
  const removed = await db
    .delete(blocks)
    .where(and(eq(blocks.blockerProfileId, blocker), eq(blocks.blockedProfileId, blocked)))
    .returning({ blocked: blocks.blockedProfileId });
  return removed.length > 0;
}

/** Profiles shown beside a profile: same site, active, visible, not the viewer, no block either way. */
export async function relatedProfiles(
  db: Executor,
  options: { siteId: number; profileId: number; viewerProfileId: number | null; country: string; limit: number },
) {
  const viewer = options.viewerProfileId ?? 0;
  return db
    .select({ ...profileCardColumns, paidUser: users.paidUser })
    .from(profiles)
    .leftJoin(users, eq(users.id, profiles.userId))
    .where(
      and(
        eq(profiles.siteId, options.siteId),
        eq(profiles.status, 'active'),
        eq(profiles.isInvisible, false),
        ne(profiles.id, options.profileId),
        ne(profiles.id, viewer),
        ownerNotDeleted(),
        notBlockedEitherWay(viewer),
      ),
    )
    .orderBy(sql`(${profiles.country} = ${options.country}) desc`, desc(profiles.id))
    .limit(options.limit);
}

export async function setMainPhotoId(db: Executor, profileId: number, photoId: number | null, now: Date): Promise<void> {
  await db.update(profiles).set({ mainPhotoId: photoId, updatedAt: now }).where(eq(profiles.id, profileId));
}

/** A new account's profile. */
export async function insertProfile(tx: Executor, profile: typeof profiles.$inferInsert): Promise<ProfileRow> {
  const [created] = await tx.insert(profiles).values(profile).returning();
  return created;
}

/**
 * The status of the account's profile: active once the address is confirmed, deleted with the account; with
 * `from`, only a profile in that status changes (a confirmed new address activates a profile not yet active).
 */
export async function setProfileStatusOf(
  tx: Executor,
  userId: number,
  status: ProfileRow['status'],
  from?: ProfileRow['status'],
): Promise<void> {
  await tx
    .update(profiles)
    .set({ status })
    .where(from ? and(eq(profiles.userId, userId), eq(profiles.status, from)) : eq(profiles.userId, userId));
}

/** The account purge: the profile's blocks, given and received, then the profile row. */
export async function deleteProfileRows(db: Executor, profileId: number): Promise<void> {
  await db.delete(blocks).where(or(eq(blocks.blockerProfileId, profileId), eq(blocks.blockedProfileId, profileId)));
  await db.delete(profiles).where(eq(profiles.id, profileId));
}

/** Changes the account's profile from one status to another; answers the profile changed, if any. */
export async function switchProfileStatus(
  tx: Executor,
  userId: number,
  from: string,
  to: string,
): Promise<{ id: number; siteId: number } | undefined> {
  const [row] = await tx
    .update(profiles)
    .set({ status: to })
    .where(and(eq(profiles.userId, userId), eq(profiles.status, from)))
    .returning({ id: profiles.id, siteId: profiles.siteId });
  return row;
}

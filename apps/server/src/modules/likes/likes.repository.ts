import { LIKES_LIST_LIMIT, type LikeSource } from '@amora/contracts';
import {
  blocks,
  type Executor,
  likes,
  mutualInterest,
  notBlockedEitherWay,
  notHiddenFrom,
  ownerNotDeleted,
  profileCardColumns,
  profiles,
  users,
} from '@amora/db';
import { and, desc, eq, ne, or, type SQL, sql } from 'drizzle-orm';

/** The profile `actorProfileId` acts on (like, skip), with what the rules need to know about it. */
export async function findTarget(db: Executor, profileId: number, actorProfileId: number) {
  const [row] = await db
    .select({
      id: profiles.id,
      siteId: profiles.siteId,
      status: profiles.status,
      userStatus: users.status,
      isHidden: sql<boolean>`not ${notHiddenFrom(actorProfileId)}`,
    })
    .from(profiles)
    .leftJoin(users, eq(users.id, profiles.userId))
    .where(eq(profiles.id, profileId));
  return row;
}

/** Whether either profile blocked the other. */
export async function isBlockedEitherWay(db: Executor, a: number, b: number): Promise<boolean> {
  const [row] = await db
    .select({ one: sql<number>`1` })
    .from(blocks)
    .where(
      or(
        and(eq(blocks.blockerProfileId, a), eq(blocks.blockedProfileId, b)),
        and(eq(blocks.blockerProfileId, b), eq(blocks.blockedProfileId, a)),
      ),
    )
    .limit(1);
  return Boolean(row);
}

/**
 * Until the transaction ends, takes the lock of the likes between two profiles, whichever way they go: of two
 * mutual likes made at the same moment, the second sees the first (a match) instead of both seeing nothing.
 */
export async function lockLikePair(tx: Executor, a: number, b: number): Promise<void> {
  const [low, high] = a < b ? [a, b] : [b, a];
  await tx.execute(sql`select pg_advisory_xact_lock(hashtextextended(${`likes:${low}:${high}`}, 0))`);
}

/** Inserts the like unless it exists; true when a row was written. */
export async function insertLike(db: Executor, likerProfileId: number, likedProfileId: number, source: LikeSource): Promise<boolean> {
  const rows = await db
    .insert(likes)
    .values({ likerProfileId, likedProfileId, source })
    .onConflictDoNothing()
    .returning({ liker: likes.likerProfileId });
  return rows.length > 0;
}

export async function hasLike(db: Executor, likerProfileId: number, likedProfileId: number): Promise<boolean> {
  const [row] = await db
    .select({ one: sql<number>`1` })
    .from(likes)
    .where(and(eq(likes.likerProfileId, likerProfileId), eq(likes.likedProfileId, likedProfileId)));
  return Boolean(row);
}

export async function deleteLike(db: Executor, likerProfileId: number, likedProfileId: number): Promise<void> {
  await db.delete(likes).where(and(eq(likes.likerProfileId, likerProfileId), eq(likes.likedProfileId, likedProfileId)));
}

/** Clears the receiver's new-like flag on one like (liker → liked); nothing else. */
export async function clearNewFlag(db: Executor, likerProfileId: number, likedProfileId: number): Promise<void> {
  await db
    .update(likes)
    .set({ isNew: false })
    .where(and(eq(likes.likerProfileId, likerProfileId), eq(likes.likedProfileId, likedProfileId), eq(likes.isNew, true)));
}

/**
 * Profiles another member may see in a list of `viewer`: same site, active, account not deleted, no block either
 * way, not hidden from the viewer by invisible mode.
 */
function visibleTo(viewer: number, siteId: number): SQL {
  return and(
    eq(profiles.siteId, siteId),
    eq(profiles.status, 'active'),
    ownerNotDeleted(),
    notBlockedEitherWay(viewer),
    notHiddenFrom(viewer),
  ) as SQL;
}

const cardColumns = {
  ...profileCardColumns,
  paidUser: users.paidUser,
  isNew: likes.isNew,
};

/** The profiles `me` liked, newest like first; is_match when they liked me too. */
export async function listGiven(db: Executor, me: number, siteId: number) {
  return db
    .select({
      ...cardColumns,
      isMatch: sql<boolean>`exists (select 1 from ${likes} r where r.liker_profile_id = ${profiles.id} and r.liked_profile_id = ${me})`,
    })
    .from(likes)
    .innerJoin(profiles, eq(profiles.id, likes.likedProfileId))
    .leftJoin(users, eq(users.id, profiles.userId))
    .where(and(eq(likes.likerProfileId, me), visibleTo(me, siteId)))
    .orderBy(desc(likes.createdAt), desc(profiles.id))
    .limit(LIKES_LIST_LIMIT);
}

/** The profiles that liked `me`, newest like first, with the new-like flag. */
export async function listReceived(db: Executor, me: number, siteId: number) {
  return db
    .select({
      ...cardColumns,
      isMatch: sql<boolean>`exists (select 1 from ${likes} r where r.liker_profile_id = ${me} and r.liked_profile_id = ${profiles.id})`,
    })
    .from(likes)
    .innerJoin(profiles, eq(profiles.id, likes.likerProfileId))
    .leftJoin(users, eq(users.id, profiles.userId))
    .where(and(eq(likes.likedProfileId, me), visibleTo(me, siteId)))
    .orderBy(desc(likes.createdAt), desc(profiles.id))
    .limit(LIKES_LIST_LIMIT);
}

export type LikeListRow = Awaited<ReturnType<typeof listGiven>>[number];

/**
 * A fictional profile to like `member` automatically: active, visible (an invisible profile cannot like others,
 * spec §4), same site, not yet liking the member, no block either way, of a gender the member is looking for and
 * looking for the member's gender (mutualInterest). Preferred, in this order: a main photo, the member's country;
 * then chance.
 */
export async function pickAutoLiker(
  db: Executor,
  member: { profileId: number; siteId: number; country: string; gender: string | null; preferredGenders: readonly string[] },
) {
  const [row] = await db
    .select({ id: profiles.id, name: profiles.name, mainPhotoId: profiles.mainPhotoId, isFictional: profiles.isFictional })
    .from(profiles)
    .where(
      and(
        eq(profiles.siteId, member.siteId),
        eq(profiles.isFictional, true),
        eq(profiles.status, 'active'),
        eq(profiles.isInvisible, false),
        ne(profiles.id, member.profileId),
        sql`not exists (select 1 from ${likes} l where l.liker_profile_id = ${profiles.id} and l.liked_profile_id = ${member.profileId})`,
        notBlockedEitherWay(member.profileId),
        mutualInterest({ gender: member.gender, seeks: member.preferredGenders }),
      ),
    )
    .orderBy(sql`(${profiles.mainPhotoId} is not null) desc`, sql`(${profiles.country} = ${member.country}) desc`, sql`random()`)
    .limit(1);
  return row;
}

/** How many likes the profile has not looked at yet (the user object's profile.like_new). */
export async function countNewLikes(db: Executor, profileId: number): Promise<number> {
  const [row] = await db
    .select({ n: sql<number>`count(*)` })
    .from(likes)
    .where(and(eq(likes.likedProfileId, profileId), eq(likes.isNew, true)));
  return Number(row?.n ?? 0);
}

/** The account purge: the likes the profile gave and those it received. */
export async function deleteLikesOf(db: Executor, profileId: number): Promise<void> {
  await db.delete(likes).where(or(eq(likes.likerProfileId, profileId), eq(likes.likedProfileId, profileId)));
}

import { type AutoLikeProfile, type LikeSource, type LikesResponse, preferredGenders } from '@amora/contracts';
import type { Executor } from '@amora/db';
import type { AppContext } from '../../context';
import { badRequest, HttpError, notFound } from '../../lib/errors';
import { type DbContext, dbOf, withTransaction } from '../../lib/transaction';
import { noticeLike } from '../notifications/notifications.service';
import type { Auth } from '../sessions/sessions.service';
import { presentAutoLike, presentLikeCard, presentLikedByCard } from './likes.presenter';
import {
  clearNewFlag,
  countNewLikes as countNewLikesOf,
  deleteLike,
  deleteLikesOf,
  findTarget,
  hasLike,
  insertLike,
  isBlockedEitherWay,
  listGiven,
  listReceived,
  lockLikePair,
  pickAutoLiker,
} from './likes.repository';

const DAY_MS = 86_400_000;
export const autoLikeLimitKey = (profileId: number) => `auto-like:${profileId}`;

export interface LikeProfileInput {
  liker: Auth;
  likedProfileId: number;
  /** 'auto' likes are written by the auto-like only. */
  source: Exclude<LikeSource, 'auto'>;
}

export interface LikeResult {
  /** The liked profile likes the liker too. */
  isMatch: boolean;
  /** A like row was written now (false when it already existed). */
  isNew: boolean;
}

const invisible = () => new HttpError(403, 'invisible', 'Invisible members cannot like others', { message_key: 'likes.errors.invisible' });

/**
 * The profile a member acts on (like, skip) must be one they could be shown: same site, active, not deleted,
 * not hidden from them by invisible mode (an invisible member is reachable only by those they contacted), no
 * block either way. Anything else is the same 404, so an action reveals nothing.
 */
export async function assertReachable(ctx: AppContext, actor: Auth, profileId: number): Promise<void> {
  await checkReachable(dbOf(ctx), actor, profileId);
}

async function checkReachable(db: Executor, actor: Auth, profileId: number): Promise<void> {
  const target = await findTarget(db, profileId, actor.profile.id);
  if (
    !target ||
    target.siteId !== actor.profile.siteId ||
    target.status !== 'active' ||
    target.userStatus === 'deleted' ||
    target.isHidden ||
    (await isBlockedEitherWay(db, actor.profile.id, profileId))
  ) {
    throw notFound('This profile could not be found');
  }
}

/**
 * A member likes a profile (spec §4, §6): not themselves (400); an invisible member cannot like (403 `invisible`);
 * the profile must be one they could be shown (`assertReachable`, else 404). Liking twice changes nothing. A
 * mutual like is a match; liking back someone who liked you also clears the new-like flag of their like (the
 * match shows it). The match-finder and the swipe game call this for their likes.
 */
export async function likeProfile(ctx: AppContext, { liker, likedProfileId, source }: LikeProfileInput): Promise<LikeResult> {
  const me = liker.profile.id;
  if (likedProfileId === me) throw badRequest('profile_id', 'You cannot like yourself');
  if (liker.profile.isInvisible) throw invisible();
  // One unit of work, joined by the swipe game's when it likes (its count of the day's likes goes with it).
  const result = await withTransaction(ctx, async (tx) => {
    await checkReachable(tx, liker, likedProfileId);
    await lockLikePair(tx, me, likedProfileId);
    const isNew = await insertLike(tx, me, likedProfileId, source);
    const isMatch = await hasLike(tx, likedProfileId, me);
    if (isMatch) await clearNewFlag(tx, likedProfileId, me);
    // The liked member's mail and push (a match for one who liked first), if they are away and want them.
    if (isNew) await noticeLike(ctx, { likerProfileId: me, likedProfileId, isMatch });
    return { isMatch, isNew };
  });
  if (result.isNew) {
    raiseLikeEvents(ctx, { siteId: liker.profile.siteId, likerProfileId: me, likedProfileId, source, isMatch: result.isMatch });
  }
  return result;
}

/** After a new like is stored: like.created, and match.created when the liked profile had liked the liker. */
function raiseLikeEvents(
  ctx: AppContext,
  like: { siteId: number; likerProfileId: number; likedProfileId: number; source: LikeSource; isMatch: boolean },
): void {
  const { siteId, likerProfileId, likedProfileId, source, isMatch } = like;
  ctx.events.publish({ type: 'like.created', siteId, likerProfileId, likedProfileId, source });
  if (isMatch) ctx.events.publish({ type: 'match.created', siteId, profileId: likerProfileId, matchedProfileId: likedProfileId });
}

/** Takes my like back (nothing happens when there is none). */
export async function unlikeProfile(ctx: AppContext, auth: Auth, profileId: number): Promise<void> {
  await deleteLike(dbOf(ctx), auth.profile.id, profileId);
}

/** I opened the profile of someone who liked me: their like to me is no longer new. Only likes to me change. */
export async function markLikeSeen(ctx: AppContext, auth: Auth, likerProfileId: number): Promise<void> {
  await clearNewFlag(dbOf(ctx), likerProfileId, auth.profile.id);
}

/** likes.php: whom I liked and who liked me, newest first, without blocked, deleted or inactive profiles. */
export async function listLikes(ctx: AppContext, auth: Auth): Promise<LikesResponse> {
  const me = auth.profile.id;
  const [given, received] = await Promise.all([
    listGiven(dbOf(ctx), me, auth.profile.siteId),
    listReceived(dbOf(ctx), me, auth.profile.siteId),
  ]);
  const now = ctx.now();
  const likedBy = received.map((row) => presentLikedByCard(row, now));
  return {
    profiles: given.map((row) => presentLikeCard(row, now)),
    liked_by: likedBy,
    new_likes: likedBy.filter((p) => p.like_new).length,
  };
}

/** The genders a member is looking for (contracts' rule; empty means everyone). */
export { preferredGenders };

/**
 * auto-like.php (spec §7): at most once a day per member, a fictional profile of the site likes the member and
 * is returned for the match modal. Only for active, visible members; only fictional profiles (marked as such
 * everywhere), never a real member's profile; only one of a gender the member is looking for that is looking for
 * the member's gender (mutual interest, as search and suggestions). The day is used up by the first call, whether or not a profile
 * was left to pick. Null when it does not fire.
 */
export async function autoLike(ctx: AppContext, auth: Auth): Promise<AutoLikeProfile | null> {
  const { profile } = auth;
  if (profile.isInvisible || profile.status !== 'active') return null;
  const limit = await ctx.limiter.hit(autoLikeLimitKey(profile.id), DAY_MS, 1);
  if (!limit.allowed) return null;
  const picked = await pickAutoLiker(dbOf(ctx), {
    profileId: profile.id,
    siteId: profile.siteId,
    country: profile.country,
    gender: profile.gender,
    preferredGenders: preferredGenders(profile.gender, profile.sexuality, profile.lookingFor),
  });
  if (!picked) return null;
  // Under the pair's lock, like likeProfile: a like back from the member at this moment still makes the match.
  const outcome = await withTransaction(ctx, async (tx) => {
    await lockLikePair(tx, picked.id, profile.id);
    if (!(await insertLike(tx, picked.id, profile.id, 'auto'))) return null;
    return { isMatch: await hasLike(tx, profile.id, picked.id) };
  });
  if (!outcome) return null;
  const { isMatch } = outcome;
  raiseLikeEvents(ctx, { siteId: profile.siteId, likerProfileId: picked.id, likedProfileId: profile.id, source: 'auto', isMatch });
  return presentAutoLike(picked);
}

/** How many likes the member's profile has not looked at yet: the user object's profile.like_new. */
export function countNewLikes(ctx: Pick<AppContext, 'db'>, profileId: number): Promise<number> {
  return countNewLikesOf(dbOf(ctx), profileId);
}

/** The account purge: the likes the member's profile gave and received. */
export async function purgeMember(ctx: DbContext, member: { profileId: number | null }): Promise<void> {
  const { profileId } = member;
  if (profileId !== null) await withTransaction(ctx, (tx) => deleteLikesOf(tx, profileId));
}

import {
  type DiscoveryActionInput,
  type DiscoveryCard,
  type MatchFinderActionResponse,
  SIGNUP_MATCHES_COUNT,
  SWIPE_LIKES_PER_DAY,
  SWIPE_STACK_SIZE,
  type SwipeActionResponse,
  type SwipeGameResponse,
} from '@amora/contracts';
import type { AppContext } from '../../context';
import { badRequest, HttpError } from '../../lib/errors';
import { type DbContext, dbOf, withTransaction } from '../../lib/transaction';
import { assertReachable, likeProfile, preferredGenders } from '../likes/likes.service';
import type { Auth } from '../sessions/sessions.service';
import type { Site } from '../sites/sites.service';
import { presentCard } from './discovery.presenter';
import {
  deleteDiscoveryOf,
  grantSwipeLike,
  insertSkip,
  type SuggestionRow,
  suggestionRows,
  swipeLikesGranted,
} from './discovery.repository';

const DAY_MS = 86_400_000;
/** Ages within this many years of the viewer's come first (spec: not shown; our choice). */
const AGE_WINDOW_YEARS = 15;
/** Profiles younger than this are newcomers and come before the others of an equal fit. */
const NEWCOMER_DAYS = 7;

/** The member suggestions are for: their own profile. */
export type SuggestionViewer = Pick<
  Auth['profile'],
  'id' | 'siteId' | 'country' | 'region' | 'birthDate' | 'gender' | 'sexuality' | 'lookingFor' | 'isInvisible'
>;

export interface SuggestOptions {
  limit: number;
  /** Leave out the profiles the viewer skipped (match-finder, swipe game). */
  excludeSeen: boolean;
}

/**
 * Profiles to suggest to `viewer`, best fits first (see suggestionRows for the order). Only mutual interest is
 * shown: genders the viewer is looking for (the genders they answered after signup, looking_for; without that
 * answer, a straight woman sees men, a straight man women, a gay man men, a lesbian (or gay) woman women;
 * bisexual, pansexual, asexual, other, non-binary or not saying: everyone), and of those only the ones looking for
 * the viewer's gender by the same rule. Invisible members see nobody (spec §4).
 */
export async function suggestProfiles(ctx: AppContext, viewer: SuggestionViewer, options: SuggestOptions): Promise<SuggestionRow[]> {
  if (viewer.isInvisible || options.limit <= 0) return [];
  const now = ctx.now();
  return suggestionRows(dbOf(ctx), {
    viewerId: viewer.id,
    siteId: viewer.siteId,
    country: viewer.country,
    region: viewer.region,
    birthDate: viewer.birthDate,
    viewerGender: viewer.gender,
    genders: preferredGenders(viewer.gender, viewer.sexuality, viewer.lookingFor),
    excludeSeen: options.excludeSeen,
    ageWindowYears: AGE_WINDOW_YEARS,
    newcomerSince: new Date(now.getTime() - NEWCOMER_DAYS * DAY_MS),
    shuffleSeed: `:${viewer.id}:${now.toISOString().slice(0, 10)}`,
    limit: options.limit,
  });
}

/** Suggestions right after signup and beside a profile: the same choice, skipped profiles included. */
export function suggestForSignup(ctx: AppContext, viewer: SuggestionViewer, limit: number): Promise<SuggestionRow[]> {
  return suggestProfiles(ctx, viewer, { limit, excludeSeen: false });
}

const invisible = () => new HttpError(403, 'invisible', 'Invisible members cannot use the match-finder or the swipe game');

function requireVisible(auth: Auth): void {
  if (auth.profile.isInvisible) throw invisible();
}

async function cards(ctx: AppContext, site: Site, auth: Auth, limit: number): Promise<DiscoveryCard[]> {
  const now = ctx.now();
  return (await suggestProfiles(ctx, auth.profile, { limit, excludeSeen: true })).map((row) => presentCard(row, site, now));
}

/** A skip: the profile must be one the member could be shown (same rules as a like), then it is not suggested again. */
async function skip(ctx: AppContext, auth: Auth, profileId: number): Promise<void> {
  const me = auth.profile.id;
  if (profileId === me) throw badRequest('profile_id', 'You cannot skip yourself');
  await assertReachable(ctx, auth, profileId);
  await insertSkip(dbOf(ctx), me, profileId, ctx.now());
}

/** GET match-finder.php: the one best suggestion. */
export async function nextMatch(ctx: AppContext, site: Site, auth: Auth): Promise<DiscoveryCard | null> {
  requireVisible(auth);
  return (await cards(ctx, site, auth, 1))[0] ?? null;
}

/** POST match-finder.php: like (source match_finder) or skip, then the next suggestion. */
export async function decideMatch(
  ctx: AppContext,
  site: Site,
  auth: Auth,
  input: DiscoveryActionInput,
): Promise<MatchFinderActionResponse> {
  requireVisible(auth);
  let isMatch = false;
  if (input.action === 'like') {
    isMatch = (await likeProfile(ctx, { liker: auth, likedProfileId: input.profile_id, source: 'match_finder' })).isMatch;
  } else {
    await skip(ctx, auth, input.profile_id);
  }
  return { ok: true, is_match: isMatch, next: await nextMatch(ctx, site, auth) };
}

/** The swipe-game day: midnight to midnight UTC, one boundary for every member of every site. */
export function swipeDay(now: Date): { key: string; end: Date } {
  const start = Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate());
  return { key: new Date(start).toISOString().slice(0, 10), end: new Date(start + DAY_MS) };
}

async function swipeLikesLeft(ctx: AppContext, auth: Auth): Promise<{ likes_left: number; likes_reset_at: string }> {
  const { end, key } = swipeDay(ctx.now());
  const granted = await swipeLikesGranted(dbOf(ctx), auth.profile.id, key);
  return { likes_left: Math.max(0, SWIPE_LIKES_PER_DAY - granted), likes_reset_at: end.toISOString() };
}

/** GET swipe-game.php: a stack of cards and the likes left today. */
export async function swipeStack(ctx: AppContext, site: Site, auth: Auth): Promise<SwipeGameResponse> {
  requireVisible(auth);
  const [stack, left] = await Promise.all([cards(ctx, site, auth, SWIPE_STACK_SIZE), swipeLikesLeft(ctx, auth)]);
  return { cards: stack, ...left };
}

/** The fifth like of a day: 429 with the end of the day, and the seconds until then for Retry-After. */
const swipeLimitReached = (resetAt: Date, now: Date) =>
  new HttpError(429, 'swipe_limit', `You have used your ${SWIPE_LIKES_PER_DAY} likes for today`, {
    likes_left: 0,
    likes_reset_at: resetAt.toISOString(),
    retry_after_seconds: Math.max(1, Math.ceil((resetAt.getTime() - now.getTime()) / 1000)),
  });

/**
 * POST swipe-game.php. A like counts against the day's 4 (spec §9). What counts is what the game granted that
 * day, not the likes still standing: a like taken back stays counted. The like and its grant are written in one
 * transaction, the grant by one conditional statement, so parallel requests cannot make a fifth; a fifth is a 429
 * and nothing is stored. Liking a profile already liked grants nothing and costs nothing. Skips are unlimited.
 */
export async function swipe(ctx: AppContext, auth: Auth, input: DiscoveryActionInput): Promise<SwipeActionResponse> {
  requireVisible(auth);
  const now = ctx.now();
  const { end, key } = swipeDay(now);
  if (input.action === 'skip') {
    await skip(ctx, auth, input.profile_id);
    return { ok: true, is_match: false, ...(await swipeLikesLeft(ctx, auth)) };
  }
  return withTransaction(ctx, async (tx) => {
    let granted = await swipeLikesGranted(tx, auth.profile.id, key);
    if (granted >= SWIPE_LIKES_PER_DAY) throw swipeLimitReached(end, now);
    // The likes module applies its rules (not yourself, same site, active, no block, invisible) in its own unit
    // of work, which joins this one: the like and the grant commit together or not at all.
    const result = await likeProfile(ctx, { liker: auth, likedProfileId: input.profile_id, source: 'swipe' });
    if (result.isNew) {
      // Another request may have taken the last like since the check above: then this one rolls back.
      const after = await grantSwipeLike(tx, auth.profile.id, key, SWIPE_LIKES_PER_DAY);
      if (after === null) throw swipeLimitReached(end, now);
      granted = after;
    }
    return {
      ok: true as const,
      is_match: result.isMatch,
      likes_left: Math.max(0, SWIPE_LIKES_PER_DAY - granted),
      likes_reset_at: end.toISOString(),
    };
  });
}

/** GET signup-matches.php: up to six suggestions right after signup. */
export async function signupMatches(ctx: AppContext, site: Site, auth: Auth): Promise<DiscoveryCard[]> {
  const now = ctx.now();
  return (await suggestForSignup(ctx, auth.profile, SIGNUP_MATCHES_COUNT)).map((row) => presentCard(row, site, now));
}

/** The account purge: the profiles the member skipped and was skipped by, and their swipe-game days. */
export async function purgeMember(ctx: DbContext, member: { profileId: number | null }): Promise<void> {
  const { profileId } = member;
  if (profileId !== null) await withTransaction(ctx, (tx) => deleteDiscoveryOf(tx, profileId));
}

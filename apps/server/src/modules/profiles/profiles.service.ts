import {
  ageOn,
  type BlockedProfilesResponse,
  type ChatReportReason,
  type CompleteSignupInput,
  FREE_PHOTO_LIMIT,
  GENDERS,
  type MemberResponse,
  type OwnProfile,
  PREMIUM_PHOTO_LIMIT,
  PROFILE_ATTRIBUTES,
  type ProfileUpdate,
  photoUrl,
} from '@amora/contracts';
import { translate } from '@amora/i18n';
import type { AppContext } from '../../context';
import { badRequest, HttpError, notFound } from '../../lib/errors';
import { type DbContext, dbOf, withTransaction } from '../../lib/transaction';
import { fileMemberReport } from '../complaints/complaints.service';
import { regionsOf } from '../content/content.service';
import { suggestForSignup } from '../discovery/discovery.service';
import { cityPlace } from '../geo/geo.service';
import { presentProfileCard } from '../profile-cards/profile-cards.presenter';
import type { Auth } from '../sessions/sessions.service';
import type { Site } from '../sites/sites.service';
import {
  deleteBlock,
  deleteProfileRows,
  findProfileForViewer,
  findProfileWithOwner,
  hasBlocked,
  insertBlock,
  insertProfile as insertProfileRow,
  listBlockedBy,
  type ProfileRow,
  photosOf,
  relatedProfiles,
  setMainPhotoId,
  setProfileStatusOf as setProfileStatus,
  switchProfileStatus,
  updateFictionalRow,
  updateProfileRow,
} from './profiles.repository';

/** The profile's main photo (the photos module decides which: the first active upload, the next after a deletion, the member's choice). */
export function setProfileMainPhoto(ctx: DbContext, profileId: number, photoId: number | null, now: Date): Promise<void> {
  return setMainPhotoId(dbOf(ctx), profileId, photoId, now);
}

/** A new account's profile (auth's signup; this module owns the table). */
export function insertProfile(ctx: DbContext, profile: Parameters<typeof insertProfileRow>[1]): Promise<ProfileRow> {
  return insertProfileRow(dbOf(ctx), profile);
}

/**
 * The console's fictional profiles (modules/inbox): a new one has no account and is always fictional; an edit
 * never touches the flag, the account or the site, and changes only a fictional profile (false otherwise).
 */
export function insertFictionalProfile(
  ctx: DbContext,
  profile: Omit<Parameters<typeof insertProfileRow>[1], 'isFictional' | 'userId'>,
): Promise<ProfileRow> {
  return insertProfileRow(dbOf(ctx), { ...profile, userId: null, isFictional: true });
}

export function updateFictionalProfile(
  ctx: DbContext,
  profileId: number,
  values: Parameters<typeof updateFictionalRow>[2],
): Promise<boolean> {
  return updateFictionalRow(dbOf(ctx), profileId, values);
}

/**
 * The status of the account's profile: active once the address is confirmed, deleted with the account (auth,
 * deletion); with `from`, only a profile in that status changes.
 */
export function setProfileStatusOf(
  ctx: DbContext,
  userId: number,
  status: ProfileRow['status'],
  from?: ProfileRow['status'],
): Promise<void> {
  return setProfileStatus(dbOf(ctx), userId, status, from);
}

const RELATED_COUNT = 6;

const urls = (id: number) => ({
  large: photoUrl(id, 'large'),
  thumb: photoUrl(id, 'thumb'),
  match: photoUrl(id, 'match'),
  blur: photoUrl(id, 'blur'),
});

export async function getOwnProfile(ctx: AppContext, auth: Auth): Promise<OwnProfile> {
  const found = await findProfileWithOwner(dbOf(ctx), auth.profile.id);
  if (!found) throw notFound();
  const { profile } = found;
  const list = await photosOf(dbOf(ctx), profile.id);
  return {
    id: profile.id,
    name: profile.name,
    age: ageOn(profile.birthDate, ctx.now()),
    country: profile.country,
    region: profile.region,
    city: profile.city,
    about: profile.about,
    gender: profile.gender,
    sexuality: profile.sexuality,
    hair_colour: profile.hairColour,
    eye_colour: profile.eyeColour,
    body_type: profile.bodyType,
    relationship_status: profile.relationshipStatus,
    looking_for: profile.lookingFor,
    interests: profile.interests,
    is_invisible: profile.isInvisible,
    main_photo_id: profile.mainPhotoId,
    photos: list.map((p) => ({
      id: p.id,
      status: p.status,
      is_main: p.id === profile.mainPhotoId,
      width: p.width,
      height: p.height,
      urls: urls(p.id),
    })),
    photo_limit: auth.user.paidUser ? PREMIUM_PHOTO_LIMIT : FREE_PHOTO_LIMIT,
  };
}

export async function updateOwnProfile(ctx: AppContext, auth: Auth, site: Site, input: ProfileUpdate): Promise<void> {
  const values: Record<string, unknown> = { updatedAt: ctx.now() };
  if (input.about !== undefined) values.about = input.about;
  if (input.gender !== undefined) values.gender = input.gender;
  if (input.sexuality !== undefined) values.sexuality = input.sexuality;
  if (input.hair_colour !== undefined) values.hairColour = input.hair_colour;
  if (input.eye_colour !== undefined) values.eyeColour = input.eye_colour;
  if (input.body_type !== undefined) values.bodyType = input.body_type;
  if (input.relationship_status !== undefined) values.relationshipStatus = input.relationship_status;
  if (input.looking_for !== undefined) values.lookingFor = input.looking_for === null ? null : inGenderOrder(input.looking_for);
  if (input.interests !== undefined) {
    const unknown = input.interests.find((i) => !site.interests.includes(i));
    if (unknown) throw badRequest('interests', `Unknown interest ${unknown}`);
    values.interests = [...new Set(input.interests)];
  }
  if (input.is_invisible !== undefined) values.isInvisible = input.is_invisible;
  if (input.country !== undefined) {
    if (!site.countries.includes(input.country)) throw badRequest('country', `Country ${input.country} is not served by this site`);
    values.country = input.country;
    if (input.country !== auth.profile.country) Object.assign(values, { region: null, city: null, lat: null, lon: null });
  }
  if (input.region !== undefined) {
    const country = (values.country as string | undefined) ?? auth.profile.country;
    if (input.region !== null && !input.region.startsWith(`${country}-`))
      throw badRequest('region', 'This region is not in the chosen country');
    values.region = input.region;
  }
  if (input.city !== undefined) Object.assign(values, { city: input.city || null, lat: null, lon: null });
  if (input.city_id) {
    const city = cityPlace(input.city_id);
    if (!city || !site.countries.includes(city.country)) throw badRequest('city_id', 'Unknown city');
    Object.assign(values, { city: city.name, country: city.country, lat: city.lat, lon: city.lon });
    if (city.region) values.region = city.region;
    else {
      // The city's region is not known: keep a region only if it is in the city's country.
      const region = values.region !== undefined ? values.region : auth.profile.region;
      if (typeof region === 'string' && !region.startsWith(`${city.country}-`)) values.region = null;
    }
  }
  await updateProfileRow(dbOf(ctx), auth.profile.id, values);
  const fields = Object.keys(input).filter((key) => input[key as keyof ProfileUpdate] !== undefined);
  ctx.events.publish({ type: 'profile.changed', siteId: auth.profile.siteId, profileId: auth.profile.id, fields });
}

const ANSWER_ERRORS = { country: 'country', region: 'region', city_id: 'cityId' } as const;

/** A 400 naming the field, with the catalogue key of its text (completeSignup.errors.*) in English and for the web app. */
function wrongAnswer(field: keyof typeof ANSWER_ERRORS): HttpError {
  const key = `completeSignup.errors.${ANSWER_ERRORS[field]}`;
  return new HttpError(400, 'validation_failed', translate('en', key), { field, message_key: key });
}

/** The genders of a looking_for answer in the order of GENDERS (the contract let each through once). */
function inGenderOrder(list: readonly string[]): string[] {
  return GENDERS.filter((g) => list.includes(g));
}

/**
 * The answers of /complete-signup (who the member is, whom they want to meet, where they live), checked in full
 * before one write: a wrong answer is a 400 naming its field and changes nothing. A city from the geocoder
 * (city_id) brings its name, region and coarse position and must lie in the chosen country; a city typed by hand
 * has no position. Search defaults, signup matches, the match-finder and related profiles follow from the profile.
 */
export async function completeSignup(ctx: AppContext, auth: Auth, site: Site, input: CompleteSignupInput): Promise<void> {
  if (!site.countries.includes(input.country)) throw wrongAnswer('country');
  const region = input.region ?? null;
  if (region !== null && !regionsOf(input.country).some((r) => r.code === region)) throw wrongAnswer('region');
  const values: Partial<Record<string, unknown>> = {
    gender: input.gender,
    lookingFor: inGenderOrder(input.looking_for),
    country: input.country,
    region,
    city: input.city || null,
    lat: null,
    lon: null,
    updatedAt: ctx.now(),
  };
  if (input.city_id) {
    const city = cityPlace(input.city_id);
    if (!city || city.country !== input.country) throw wrongAnswer('city_id');
    Object.assign(values, { city: city.name, lat: city.lat, lon: city.lon, region: city.region ?? region });
  }
  await updateProfileRow(dbOf(ctx), auth.profile.id, values);
  ctx.events.publish({
    type: 'profile.changed',
    siteId: auth.profile.siteId,
    profileId: auth.profile.id,
    fields: ['gender', 'looking_for', 'country', 'region', 'city'],
  });
}

const PROFILE_NOT_FOUND = 'This profile could not be found';

/**
 * Whether a profile read for a viewer exists for them: on their site and, unless it is their own, active (an
 * unconfirmed or deleted member's is not public) and not invisible to them.
 */
function isSeen(found: NonNullable<Awaited<ReturnType<typeof findProfileForViewer>>>, site: Site, isOwn: boolean): boolean {
  if (found.profile.siteId !== site.id) return false;
  return isOwn || (found.profile.status === 'active' && found.user?.status !== 'deleted' && !found.isHidden);
}

/**
 * A profile as `viewer` may see it (spec §2, §4): the blocked see only who blocked them; photos the viewer may
 * not see are present only as their server-blurred variant (free members) or not at all (visitors). Only its
 * owner sees a profile that is not active (not activated, deleted); an invisible one is seen by its owner and the
 * members it contacted. Anyone else gets the 404 of a profile that does not exist.
 */
export async function viewMember(ctx: AppContext, site: Site, viewer: Auth | null, profileId: number): Promise<MemberResponse> {
  const found = await findProfileForViewer(dbOf(ctx), profileId, viewer?.profile.id ?? null);
  const isOwn = viewer?.profile.id === profileId;
  if (!found || !isSeen(found, site, isOwn)) throw notFound(PROFILE_NOT_FOUND);
  const { profile, user } = found;
  if (viewer && !isOwn && (await hasBlocked(dbOf(ctx), profile.id, viewer.profile.id))) {
    throw new HttpError(403, 'blocked', `You are blocked by ${profile.name}`, { name: profile.name });
  }
  const isPremiumViewer = viewer?.user.paidUser === true;
  const list = (await photosOf(dbOf(ctx), profile.id)).filter((p) => isOwn || p.status === 'active');
  const main = list.find((p) => p.id === profile.mainPhotoId) ?? null;
  const ordered = main ? [main, ...list.filter((p) => p.id !== main.id)] : list;
  const visible = ordered.filter((p) => isOwn || isPremiumViewer || viewer || p.id === main?.id);
  const memberPhotos = visible.map((p) => {
    const isLocked = !(isOwn || isPremiumViewer || p.id === main?.id);
    return {
      id: p.id,
      is_locked: isLocked,
      url: photoUrl(p.id, isLocked ? 'blur' : 'large'),
      thumb_url: photoUrl(p.id, isLocked ? 'blur' : 'thumb'),
    };
  });
  const attributes: Record<string, string> = {};
  const source: Record<string, string | null> = {
    gender: profile.gender,
    sexuality: profile.sexuality,
    hair_colour: profile.hairColour,
    eye_colour: profile.eyeColour,
    body_type: profile.bodyType,
    relationship_status: profile.relationshipStatus,
  };
  for (const key of Object.keys(PROFILE_ATTRIBUTES)) {
    const value = source[key];
    if (value && site.visibleProfileFields.includes(key)) attributes[key] = value;
  }
  // Members see suggestions for themselves (discovery: their preferences, age, country); visitors the profiles
  // like this one.
  const related = viewer
    ? (await suggestForSignup(ctx, viewer.profile, RELATED_COUNT + 1)).filter((r) => r.id !== profileId).slice(0, RELATED_COUNT)
    : await relatedProfiles(dbOf(ctx), {
        siteId: site.id,
        profileId,
        viewerProfileId: null,
        country: profile.country,
        limit: RELATED_COUNT,
      });
  const now = ctx.now();
  return {
    profile: {
      id: profile.id,
      name: profile.name,
      age: ageOn(profile.birthDate, now),
      country: profile.country,
      region: profile.region,
      city: profile.city,
      about: site.visibleProfileNotes.includes('about') ? profile.about : '',
      attributes,
      interests: site.visibleProfileFields.includes('interests') ? profile.interests : [],
      is_premium: user?.paidUser === true,
      is_fictional: profile.isFictional,
      photos: memberPhotos,
      hidden_photo_count: ordered.length - visible.length,
      is_blocked_by_me: viewer && !isOwn ? await hasBlocked(dbOf(ctx), viewer.profile.id, profile.id) : false,
      is_own: isOwn,
    },
    related: related.map((r) => presentProfileCard(r, r.paidUser === true, now)),
  };
}

/**
 * Blocks or unblocks a profile (spec §4). A profile the member may not see (another site's, unconfirmed, deleted,
 * invisible to them) answers the same 404 as an id that does not exist, so block.php tells no one which ids are
 * members. A block the member already gave can always be taken back, whatever became of the profile since.
 */
export async function block(ctx: AppContext, site: Site, auth: Auth, profileId: number, isBlocking: boolean): Promise<void> {
  if (profileId === auth.profile.id) throw badRequest('profile_id', 'You cannot block yourself');
  if (!isBlocking && (await deleteBlock(dbOf(ctx), auth.profile.id, profileId))) return;
  const found = await findProfileForViewer(dbOf(ctx), profileId, auth.profile.id);
  if (!found || !isSeen(found, site, false)) throw notFound(PROFILE_NOT_FOUND);
  if (isBlocking) await insertBlock(dbOf(ctx), auth.profile.id, profileId);
}

/**
 * Reports a profile from its page (the chat's reasons and note) into the moderation queue, whether or not we ever
 * chatted: a complaint of the category `chat_report` under my account, once per profile in a period (see
 * fileMemberReport; reporting the member from our chat counts as the same report). A profile I may not see
 * (another site's, not activated, deleted, invisible to me) is the 404 of member.php; a block either way does not
 * stop a report, and a fictional profile is reported like any other, marked as fictional for moderation. Myself:
 * a 400.
 */
export async function reportProfile(
  ctx: AppContext,
  site: Site,
  auth: Auth,
  input: { profile: number; reason: ChatReportReason; text?: string },
): Promise<string> {
  if (input.profile === auth.profile.id) {
    throw new HttpError(400, 'validation_failed', 'You cannot report yourself', {
      field: 'profile',
      message_key: 'chatSafety.errors.self',
    });
  }
  const found = await findProfileForViewer(dbOf(ctx), input.profile, auth.profile.id);
  if (!found || !isSeen(found, site, false)) throw notFound(PROFILE_NOT_FOUND);
  const { profile } = found;
  const note = input.text?.trim();
  return fileMemberReport(
    ctx,
    {
      siteId: site.id,
      userId: auth.user.id,
      name: auth.profile.name,
      email: auth.user.email,
      language: auth.user.language,
      subject: `Profile report (${input.reason}): profile ${profile.id}`,
      message: [
        `Reported profile: ${profile.id} (${profile.name})${profile.isFictional ? ', fictional' : ''}`,
        `Reporting profile: ${auth.profile.id}`,
        `Reason: ${input.reason}`,
        note ? `Note: ${note}` : '',
      ]
        .filter(Boolean)
        .join('\n'),
      url: `/members/${profile.id}`,
      reportedProfileId: profile.id,
    },
    { reporterProfileId: auth.profile.id, id: profile.id, name: profile.name },
  );
}

/**
 * The profiles I blocked (settings), the latest first, whatever became of them since (a block can always be taken
 * back); a deleted account's profile is gone with the purge. A profile I could no longer see (disabled, invisible
 * to me, its account deleted) comes without its name, age, city or photo: only its id to unblock it (and its
 * fictional label).
 */
export async function listBlocked(ctx: AppContext, auth: Auth): Promise<BlockedProfilesResponse> {
  const rows = await listBlockedBy(dbOf(ctx), auth.profile.id);
  const now = ctx.now();
  return {
    profiles: rows.map((row) =>
      row.visible
        ? presentProfileCard(row, row.paidUser === true, now)
        : { id: row.id, hidden: true as const, is_fictional: row.isFictional },
    ),
  };
}

/** The account purge: the member's profile, with the blocks it gave and received. */
export async function purgeMember(ctx: DbContext, member: { profileId: number | null }): Promise<void> {
  const { profileId } = member;
  if (profileId !== null) await withTransaction(ctx, (tx) => deleteProfileRows(tx, profileId));
}

/** A profile and its account (null for a fictional profile), for moderation. */
export function profileForModeration(ctx: DbContext, profileId: number) {
  return findProfileWithOwner(dbOf(ctx), profileId);
}

/**
 * Moderation hides a suspended or banned member's profile from everyone (status 'suspended': every place that
 * shows a profile shows only active ones) and shows it again when the sanction ends; only an active profile is
 * hidden, and only a hidden one comes back, so a profile not yet active or deleted keeps its status.
 */
export async function setSanctionHidden(ctx: Pick<AppContext, 'db' | 'events'>, userId: number, hidden: boolean): Promise<void> {
  const changed = await switchProfileStatus(dbOf(ctx), userId, hidden ? 'active' : 'suspended', hidden ? 'suspended' : 'active');
  if (changed) ctx.events.publish({ type: 'profile.changed', siteId: changed.siteId, profileId: changed.id, fields: ['status'] });
}

import { ageOn, type MemberLandingProfile, PROFILE_ATTRIBUTES, photoUrl } from '@amora/contracts';
import type { AppContext } from '../../context';
import { notFound } from '../../lib/errors';
import { dbOf } from '../../lib/transaction';
import type { Site } from '../sites/sites.service';
import { findProfileForViewer, photosOf } from './profiles.repository';

const PROFILE_NOT_FOUND = 'This profile could not be found';

/** The main photo's sizes a visitor may fetch (photos.policy: every variant of an active main photo). */
const THUMB = { width: 320, height: 400 };

/**
 * The profile of a member landing (spec §2 members-id-landing, -landing2-slug, -landing3-slug), as a visitor sees
 * it. A landing puts one profile in front of paid traffic, so it shows only profiles a visitor may be shown:
 *
 * - the site's fictional profiles (the operator's own, labelled fictional wherever they appear), active;
 * - a member's profile only where this visitor may search members (`logged_out_search`, or
 *   `logged_out_search_trafficsource` for a traffic-source visitor), and only while it is active, not invisible
 *   and its account not deleted: what the visitor search would list.
 *
 * Anything else (no such id, another site's, not activated, suspended, retired, invisible, deleted, or a member
 * while the site keeps its members from visitors) is the 404 of a profile that does not exist, the same answer
 * for each, so a landing tells nobody which ids are members.
 */
export async function memberLandingProfile(
  ctx: AppContext,
  site: Site,
  profileId: number,
  isTrafficsource: boolean,
): Promise<MemberLandingProfile> {
  const found = await findProfileForViewer(dbOf(ctx), profileId, null);
  if (!found || !isShown(found, site, isTrafficsource)) throw notFound(PROFILE_NOT_FOUND);
  const { profile } = found;
  const main = profile.mainPhotoId
    ? (await photosOf(dbOf(ctx), profile.id)).find((p) => p.id === profile.mainPhotoId && p.status === 'active')
    : undefined;
  const source: Record<string, string | null> = {
    gender: profile.gender,
    sexuality: profile.sexuality,
    hair_colour: profile.hairColour,
    eye_colour: profile.eyeColour,
    body_type: profile.bodyType,
    relationship_status: profile.relationshipStatus,
  };
  const facts: Record<string, string> = {};
  for (const key of Object.keys(PROFILE_ATTRIBUTES)) {
    const value = source[key];
    if (value && site.visibleProfileFields.includes(key)) facts[key] = value;
  }
  return {
    id: profile.id,
    name: profile.name,
    age: ageOn(profile.birthDate, ctx.now()),
    city: profile.city,
    country: profile.country,
    photo: main ? landingPhoto(main) : null,
    facts,
    is_fictional: profile.isFictional,
  };
}

/**
 * The main photo for a 4:5 frame (object-fit: cover): `thumb`, the 4:5 portrait crop, and `large`, the whole photo
 * (at most 1280 px on a side), described by the width it gives that frame, when that is more than the crop's.
 */
function landingPhoto(photo: { id: number; width: number; height: number }): NonNullable<MemberLandingProfile['photo']> {
  const thumb = photoUrl(photo.id, 'thumb');
  const frameWidth = Math.floor(Math.min(photo.width, (photo.height * THUMB.width) / THUMB.height));
  const srcSet =
    frameWidth > THUMB.width ? `${thumb} ${THUMB.width}w, ${photoUrl(photo.id, 'large')} ${frameWidth}w` : `${thumb} ${THUMB.width}w`;
  return { src: thumb, srcSet, width: THUMB.width, height: THUMB.height };
}

function isShown(found: NonNullable<Awaited<ReturnType<typeof findProfileForViewer>>>, site: Site, isTrafficsource: boolean): boolean {
  const { profile, user, isHidden } = found;
  if (profile.siteId !== site.id || profile.status !== 'active' || isHidden) return false;
  if (profile.isFictional) return true;
  if (!user || user.status === 'deleted') return false;
  return site.loggedOutSearch || (isTrafficsource && site.loggedOutSearchTrafficsource);
}

import { ageOn, LANDER_PHOTO_WIDTHS, landerPhotoUrl, type MemberLandingProfile, PROFILE_ATTRIBUTES } from '@amora/contracts';
import type { AppContext } from '../../context';
import { notFound } from '../../lib/errors';
import { dbOf } from '../../lib/transaction';
import type { Site } from '../sites/sites.service';
import { findProfileForViewer, photosOf } from './profiles.repository';

const PROFILE_NOT_FOUND = 'This profile could not be found';

/**
 * The profile of a member landing (spec §2 members-id-landing, -landing2-slug, -landing3-slug), as a visitor sees
 * it (docs/decisions.md, "Member landings"). A landing is advertising: it puts one profile in front of paid
 * traffic, under a niche's slug. So, as on the landers, it shows only the site's own fictional profiles (active
 * and visible), labelled fictional on the page; a real member's face and name are never made into an
 * advertisement, whatever the site's logged_out_search. Anything else (no such id, another site's, a member,
 * a retired or invisible fictional profile) is the 404 of a profile that does not exist, the same answer for
 * each, so a landing tells nobody which ids are members.
 */
export async function memberLandingProfile(ctx: AppContext, site: Site, profileId: number): Promise<MemberLandingProfile> {
  const profile = await shownProfile(ctx, site, profileId);
  if (!profile) throw notFound(PROFILE_NOT_FOUND);
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
    photo: main ? landingPhoto(main.id) : null,
    facts,
    is_fictional: true,
  };
}

/** Whether a member landing of this profile exists for a visitor (the page's status: 200, else 404). */
export async function isMemberLandingShown(ctx: AppContext, site: Site, profileId: number): Promise<boolean> {
  return (await shownProfile(ctx, site, profileId)) !== null;
}

/** The profile when a landing may show it (see memberLandingProfile), else null. */
async function shownProfile(ctx: AppContext, site: Site, profileId: number) {
  const found = await findProfileForViewer(dbOf(ctx), profileId, null);
  const profile = found?.profile;
  if (!profile || profile.siteId !== site.id || !profile.isFictional || profile.status !== 'active' || found.isHidden) return null;
  return profile;
}

/**
 * The main photo as the landers serve it (GET /api/lander-photo.php: the 4:5 portrait crop at the lander widths,
 * public and cacheable, for fictional profiles only).
 */
function landingPhoto(photoId: number): NonNullable<MemberLandingProfile['photo']> {
  const width = LANDER_PHOTO_WIDTHS[1];
  return {
    src: landerPhotoUrl(photoId, width),
    srcSet: LANDER_PHOTO_WIDTHS.map((w) => `${landerPhotoUrl(photoId, w)} ${w}w`).join(', '),
    width,
    height: Math.round((width * 5) / 4),
  };
}

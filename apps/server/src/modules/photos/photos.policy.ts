import type { PhotoVariant } from '@amora/contracts';

/** Who is looking: always on a site; `member` is null for a visitor (logged out). */
export interface PhotoViewer {
  siteId: number;
  member: { profileId: number; isPremium: boolean } | null;
}

/** What the rule needs to know about a photo and its profile. */
export interface ViewedPhoto {
  siteId: number;
  profileId: number;
  status: string;
  /** It is its profile's main photo. */
  isMain: boolean;
  /** The profile's account is deleted (in its reactivation window): the profile is gone for everyone else. */
  ownerDeleted: boolean;
  /** The photo's profile has blocked the viewer's profile (blocks: blocker → blocked). */
  viewerBlocked: boolean;
  /** The profile is not shown to this viewer: not active (not activated), or invisible and not in contact with them. */
  profileHidden: boolean;
}

/**
 * Which variant of a photo a viewer may fetch (spec §2 profile view, §6 roles):
 * - nothing of a profile on another site, whoever asks;
 * - the owner: every variant, whatever the photo's status;
 * - nobody else: anything of a photo that is not active, of a deleted account, of a profile that blocked them or
 *   of a profile hidden from them (not activated; invisible, unless it contacted them);
 * - a premium member: every variant;
 * - a free member: every variant of the main photo, only the server-blurred `blur` of the others;
 * - a visitor: every variant of the main photo, nothing of the others (login is needed to see more photos).
 */
export function canSeeVariant(viewer: PhotoViewer, photo: ViewedPhoto, variant: PhotoVariant): boolean {
  if (viewer.siteId !== photo.siteId) return false;
  const member = viewer.member;
  if (member && member.profileId === photo.profileId) return true;
  if (photo.status !== 'active' || photo.ownerDeleted || photo.viewerBlocked || photo.profileHidden) return false;
  if (photo.isMain) return true;
  if (!member) return false;
  return member.isPremium || variant === 'blur';
}

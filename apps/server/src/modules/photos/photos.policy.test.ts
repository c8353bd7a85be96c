import type { PhotoVariant } from '@amora/contracts';
import { describe, expect, it } from 'vitest';
import { canSeeVariant, type PhotoViewer, type ViewedPhoto } from './photos.policy';

const SITE = 1;
const OWNER = 10;
const photo = (overrides: Partial<ViewedPhoto> = {}): ViewedPhoto => ({
  siteId: SITE,
  profileId: OWNER,
  status: 'active',
  isMain: false,
  ownerDeleted: false,
  viewerBlocked: false,
  profileHidden: false,
  ...overrides,
});
const owner: PhotoViewer = { siteId: SITE, member: { profileId: OWNER, isPremium: false } };
const free: PhotoViewer = { siteId: SITE, member: { profileId: 20, isPremium: false } };
const premium: PhotoViewer = { siteId: SITE, member: { profileId: 30, isPremium: true } };
const visitor: PhotoViewer = { siteId: SITE, member: null };

const VARIANTS: PhotoVariant[] = ['large', 'thumb', 'match', 'blur'];
const visible = (viewer: PhotoViewer, p: ViewedPhoto) => VARIANTS.filter((v) => canSeeVariant(viewer, p, v));

describe('canSeeVariant', () => {
  it('the owner sees every variant of every own photo, whatever its status', () => {
    expect(visible(owner, photo())).toEqual(VARIANTS);
    expect(visible(owner, photo({ status: 'pending' }))).toEqual(VARIANTS);
    expect(visible(owner, photo({ status: 'rejected', isMain: true }))).toEqual(VARIANTS);
  });

  it('a premium member sees every variant of active photos', () => {
    expect(visible(premium, photo())).toEqual(VARIANTS);
    expect(visible(premium, photo({ isMain: true }))).toEqual(VARIANTS);
  });

  it('a free member sees the main photo, and only the blurred variant of the others', () => {
    expect(visible(free, photo({ isMain: true }))).toEqual(VARIANTS);
    expect(visible(free, photo())).toEqual(['blur']);
  });

  it('a visitor sees the main photo and nothing of the others, not even blurred', () => {
    expect(visible(visitor, photo({ isMain: true }))).toEqual(VARIANTS);
    expect(visible(visitor, photo())).toEqual([]);
  });

  it('nobody but the owner sees a photo that is not active', () => {
    for (const viewer of [free, premium, visitor]) {
      expect(visible(viewer, photo({ status: 'pending', isMain: true }))).toEqual([]);
      expect(visible(viewer, photo({ status: 'rejected' }))).toEqual([]);
    }
  });

  it('a viewer blocked by the profile, or any viewer of a deleted account, sees nothing', () => {
    for (const viewer of [free, premium]) {
      expect(visible(viewer, photo({ viewerBlocked: true, isMain: true }))).toEqual([]);
      expect(visible(viewer, photo({ viewerBlocked: true }))).toEqual([]);
    }
    for (const viewer of [free, premium, visitor]) expect(visible(viewer, photo({ ownerDeleted: true, isMain: true }))).toEqual([]);
  });

  it('nobody but the owner sees anything of a profile hidden from them (not activated; invisible, not in contact)', () => {
    for (const viewer of [free, premium, visitor]) expect(visible(viewer, photo({ profileHidden: true, isMain: true }))).toEqual([]);
    expect(visible(owner, photo({ profileHidden: true, isMain: true }))).toEqual(VARIANTS);
  });

  it('nothing of a profile of another site, for anyone', () => {
    for (const viewer of [free, premium, visitor, owner]) {
      expect(visible({ ...viewer, siteId: 2 }, photo({ isMain: true }))).toEqual([]);
    }
  });
});

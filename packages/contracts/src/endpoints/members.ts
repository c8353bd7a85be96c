import { okResponseSchema } from '../content';
import {
  discoveryActionSchema,
  matchFinderActionResponseSchema,
  matchFinderResponseSchema,
  signupMatchesResponseSchema,
  swipeActionResponseSchema,
  swipeGameResponseSchema,
} from '../discovery';
import { landerPhotoQuerySchema, landerQuerySchema, landerResponseSchema } from '../landers';
import { autoLikeResponseSchema, likeInputSchema, likeResponseSchema, likesResponseSchema, likeTargetSchema } from '../likes';
import { memberLandingQuerySchema, memberLandingResponseSchema } from '../member-landing';
import {
  blockedProfilesResponseSchema,
  blockSchema,
  completeSignupSchema,
  geocodeQuerySchema,
  geocodeResponseSchema,
  memberQuerySchema,
  memberResponseSchema,
  ownPhotoResponseSchema,
  ownPhotosResponseSchema,
  ownProfileResponseSchema,
  photoIdSchema,
  photoQuerySchema,
  profileUpdateSchema,
} from '../profiles';
import { searchQuerySchema, searchResponseSchema } from '../search';
import { type EndpointTable, unchecked } from './endpoint';

/** Members: profiles, photos, blocking, the search, suggestions and likes. */
export const memberEndpoints = {
  // Profiles and photos
  'GET /api/profile.php': { tag: 'profiles', summary: 'My own profile with all my photos', response: ownProfileResponseSchema },
  'PUT /api/profile.php': {
    tag: 'profiles',
    summary: 'Edit my profile',
    body: profileUpdateSchema,
    response: ownProfileResponseSchema,
  },
  'PUT /api/complete-signup.php': {
    tag: 'profiles',
    summary: 'After signup (spec §2 complete-signup): my gender, the genders I want to meet and where I live',
    body: completeSignupSchema,
    response: ownProfileResponseSchema,
  },
  'GET /api/member.php': {
    tag: 'profiles',
    summary: 'A profile as the viewer may see it, with related profiles',
    query: memberQuerySchema,
    response: memberResponseSchema,
  },
  'GET /api/lander.php': {
    tag: 'profiles',
    summary: "A lander's data for a visitor: the site's niche and its fictional profiles of that niche, the nearest first",
    query: landerQuerySchema,
    response: landerResponseSchema,
  },
  'GET /api/lander-photo.php': {
    tag: 'profiles',
    summary: "A fictional profile's main photo for a lander (4:5 WebP at one width; public, cacheable)",
    query: landerPhotoQuerySchema,
    response: unchecked('binary', 'image/webp'),
  },
  'GET /api/member-landing.php': {
    tag: 'profiles',
    summary: "A member landing's profile for a visitor: name, age, city, main photo, the site's profile facts",
    query: memberLandingQuerySchema,
    response: memberLandingResponseSchema,
  },
  'GET /api/blocks.php': {
    tag: 'profiles',
    summary: 'The members I blocked, the latest first',
    response: blockedProfilesResponseSchema,
  },
  'POST /api/block.php': { tag: 'profiles', summary: 'Block a member', body: blockSchema, response: okResponseSchema },
  'DELETE /api/block.php': { tag: 'profiles', summary: 'Unblock a member', body: blockSchema, response: okResponseSchema },
  'GET /api/geocode.php': {
    tag: 'geo',
    summary: 'The city (and region) nearest a position, within 50 km, in a served country',
    query: geocodeQuerySchema,
    response: geocodeResponseSchema,
  },
  'POST /api/photos.php': {
    tag: 'photos',
    summary: 'Upload a photo (multipart field "photo": JPEG, PNG or WebP, at most 15 MB and 8000 px on a side)',
    consumes: ['multipart/form-data'],
    response: ownPhotoResponseSchema,
  },
  'GET /api/photos.php': {
    tag: 'photos',
    summary: 'My photos, newest first, and how many I may have',
    response: ownPhotosResponseSchema,
  },
  'DELETE /api/photos.php': {
    tag: 'photos',
    summary: 'Delete one of my photos',
    body: photoIdSchema,
    response: okResponseSchema,
  },
  'PUT /api/main-photo.php': {
    tag: 'photos',
    summary: 'Make one of my photos the main photo',
    body: photoIdSchema,
    response: okResponseSchema,
  },
  'GET /api/photo.php': {
    tag: 'photos',
    summary: 'A photo variant as WebP, when the viewer may see it (else 404, as for a photo that does not exist)',
    query: photoQuerySchema,
    response: unchecked('binary', 'image/webp'),
  },

  // Discovery and likes
  'GET /api/search.php': {
    tag: 'discovery',
    summary:
      'Member search with the site’s search fields; keyset pages of 24 (numResults only on the first page, -1 after); only mutual interest for a member; a default search (widen=auto) that finds few widens to the country, then nearby countries (widened)',
    query: searchQuerySchema,
    response: searchResponseSchema,
  },
  'GET /api/match-finder.php': {
    tag: 'discovery',
    summary: 'The one best suggestion for me, or null',
    response: matchFinderResponseSchema,
  },
  'POST /api/match-finder.php': {
    tag: 'discovery',
    summary: 'Like (source match_finder) or skip a suggestion; answers the next one',
    body: discoveryActionSchema,
    response: matchFinderActionResponseSchema,
  },
  'GET /api/swipe-game.php': {
    tag: 'discovery',
    summary: 'Up to 10 cards for the swipe game and the likes left today (4 a day, reset at midnight UTC)',
    response: swipeGameResponseSchema,
  },
  'POST /api/swipe-game.php': {
    tag: 'discovery',
    summary: 'Like (at most 4 a day; the fifth is a 429 swipe_limit) or skip (unlimited) a card',
    body: discoveryActionSchema,
    response: swipeActionResponseSchema,
  },
  'GET /api/signup-matches.php': {
    tag: 'discovery',
    summary: 'Up to six suggestions right after signup',
    response: signupMatchesResponseSchema,
  },
  'POST /api/like.php': {
    tag: 'likes',
    summary: 'Like a profile; is_match when the like is mutual',
    body: likeInputSchema,
    response: likeResponseSchema,
  },
  'DELETE /api/like.php': { tag: 'likes', summary: 'Take my like back', body: likeTargetSchema, response: okResponseSchema },
  'GET /api/likes.php': { tag: 'likes', summary: 'Profiles I liked and profiles that liked me', response: likesResponseSchema },
  'POST /api/likes-seen.php': {
    tag: 'likes',
    summary: 'I opened the profile of someone who liked me: clears the new-like flag of their like',
    body: likeTargetSchema,
    response: okResponseSchema,
  },
  'GET /api/auto-like.php': {
    tag: 'likes',
    summary: 'At most once a day, a fictional profile likes me; the profile for the match modal, or null',
    response: autoLikeResponseSchema,
  },
} satisfies EndpointTable;

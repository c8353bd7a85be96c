/** Values without zod, for code that must stay small (the web app's first load). */

export type { DeleteAccountInput, LoginInput, MailChangeRequestInput, ResetDoInput, SignupInput, User, UserResponse } from './accounts';
export type { ComplaintInput } from './complaints';
export * from './constants';
export type { CompanyInfo, InterestsResponse, RegionsResponse } from './content';
export type { DiscountCodeResponse, DiscountCodeView, DiscountError, DiscountSource, TimeBonusResponse } from './discounts';
export type {
  DiscoveryAction,
  DiscoveryActionInput,
  DiscoveryCard,
  MatchFinderActionResponse,
  MatchFinderResponse,
  SignupMatchesResponse,
  SwipeActionResponse,
  SwipeGameResponse,
} from './discovery';
export type { ApiError } from './errors';
export type { AutoLikeProfile, AutoLikeResponse, LikeCard, LikedByCard, LikeInput, LikeResponse, LikesResponse, LikeTarget } from './likes';
export * from './likes-constants';
export * from './locales';
export { BODY_TYPES, EYE_COLOURS, GENDERS, HAIR_COLOURS, PROFILE_ATTRIBUTES, RELATIONSHIP_STATUSES, SEXUALITIES } from './profile-values';
export type {
  BlockedProfilesResponse,
  CompleteSignupInput,
  GeocodeResult,
  MemberProfile,
  MemberResponse,
  OwnPhoto,
  OwnProfile,
  PhotoVariant,
  ProfileUpdate,
} from './profiles';
export * from './routes';
export type { SearchCard, SearchQuery, SearchResponse, SearchWidening } from './search';
export { SEARCH_PAGE_SIZE } from './search-constants';
export type { Settings } from './settings';

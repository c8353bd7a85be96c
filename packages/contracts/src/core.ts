/** Values without zod, for code that must stay small (the web app's first load). */

export type { DeleteAccountInput, LoginInput, MailChangeRequestInput, ResetDoInput, SignupInput, User, UserResponse } from './accounts';

export * from './constants';
export type { CompanyInfo, InterestsResponse, RegionsResponse } from './content';
export type { DiscountCodeResponse, DiscountCodeView, TimeBonusResponse } from './discounts';
export type {
  DiscoveryAction,
  DiscoveryCard,
  MatchFinderActionResponse,
  MatchFinderResponse,
  SignupMatchesResponse,
  SwipeActionResponse,
  SwipeGameResponse,
} from './discovery';
export type { EndpointBody, EndpointKey, EndpointQuery, EndpointResponse, JsonEndpointKey } from './endpoints/index';
export type { ApiError } from './errors';
export type { AutoLikeResponse, LikeCard, LikedByCard, LikeResponse, LikesResponse } from './likes';
export * from './likes-constants';
export * from './locales';
export { GENDERS, PROFILE_ATTRIBUTES } from './profile-values';
export type {
  BlockedProfilesResponse,
  CompleteSignupInput,
  GeocodeResult,
  MemberProfile,
  MemberResponse,
  OwnPhoto,
  OwnProfile,
  ProfileUpdate,
} from './profiles';
export * from './routes';
export type { SearchCard, SearchResponse, SearchWidening } from './search';
export { SEARCH_PAGE_SIZE } from './search-constants';
export type { Settings } from './settings';

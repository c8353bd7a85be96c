/** Values without zod, for code that must stay small (the web app's first load). */

export type {
  DeleteAccountInput,
  LoginInput,
  MailChangeRequestInput,
  NotificationsDisabledReason,
  ResetDoInput,
  SignupInput,
  User,
  UserResponse,
} from './accounts';

export * from './constants';
export type { CompanyInfo } from './content';
export { DATA_EXPORT_DAYS, DATA_EXPORT_LATEST_PATH } from './data-export-constants';
export type { DiscountCodeView } from './discounts';
export type {
  DiscoveryAction,
  DiscoveryCard,
  MatchFinderResponse,
  SwipeGameResponse,
} from './discovery';
export type { EndpointBody, EndpointQuery, EndpointResponse, JsonEndpointKey } from './endpoints/index';
export type { ApiError } from './errors';
export type { LanderData } from './landers';
export type { LikeCard, LikedByCard, LikesResponse } from './likes';
export * from './likes-constants';
export * from './locales';
export type { MemberLandingProfile } from './member-landing';
export * from './notification-constants';
export { GENDERS, PROFILE_ATTRIBUTES } from './profile-values';
export type {
  BlockedProfilesResponse,
  CompleteSignupInput,
  MemberProfile,
  OwnPhoto,
  OwnProfile,
  ProfileUpdate,
} from './profiles';
export * from './routes';
export type { SearchCard, SearchWidening } from './search';
export { SEARCH_PAGE_SIZE } from './search-constants';
export type { Settings } from './settings';

/** Route table of spec §2 (name → path pattern), shared by the web router and the server's HTML fallback. */
export const ROUTES = {
  index: '/',
  login: '/login',
  signup: '/signup',
  'complete-signup': '/complete-signup',
  'signup-matches': '/signup-matches',
  'reset-password': '/reset-password',
  'reset-password-do': '/reset-password/do',
  'mail-change-do': '/mail-change/do',
  'activate-done': '/activate/done',
  'activate-error': '/activate/error',
  'account-deleted': '/account-deleted',
  members: '/members',
  'members-id': '/members/:id',
  'likes-m-id': '/likes/m/:id',
  'members-id-chat': '/members/:id/chat',
  'members-id-landing': '/members/:id/landing',
  'members-id-signup': '/members/:id/signup',
  'members-id-landing2-slug': '/members/:id/landing2/:slug?',
  'members-id-landing3-slug': '/members/:id/landing3/:slug?',
  chats: '/chats',
  'chats-id': '/chats/:id',
  likes: '/likes',
  'likes-type': '/likes/:type',
  'match-finder': '/match-finder',
  'swipe-game': '/swipe-game',
  notifications: '/notifications',
  unsubscribe: '/unsubscribe',
  profile: '/profile',
  settings: '/settings',
  credits: '/credits',
  'credits-repeat-order': '/credits/repeat-order',
  'credits-id-paymentmethod': '/credits/:id/:paymentmethod?',
  premium: '/premium',
  pricing: '/pricing',
  directdebit: '/directdebit',
  'transactions-id': '/transactions/:id?',
  complaints: '/complaints',
  'lang-config': '/lang-config',
  'pages-ban': '/pages/ban',
  'pages-cookies': '/pages/cookies',
  'pages-faq': '/pages/faq',
  'pages-privacy': '/pages/privacy',
  'pages-return-policy': '/pages/return-policy',
  'pages-service': '/pages/service',
  'pages-terms': '/pages/terms',
  token: '/:token',
} as const;
export type RouteName = keyof typeof ROUTES;

/**
 * Routes of spec §2 the web app has no page for yet: their paths answer 404 with the app's not-found page, like
 * any unknown path, until the page is built (apps/web/src/app/routes.test.tsx keeps this list true).
 */
export const ROUTES_WITHOUT_PAGE: readonly RouteName[] = [];

/** Content pages reached at /{token}; any other token is a 404. */
export const TOKEN_PAGES = ['about', 'safety', 'imprint'] as const;

export const STATIC_PAGES = {
  terms: 'terms',
  privacy: 'privacy',
  cookies: 'cookies',
  ban: 'ban',
  faq: 'faq',
  'return-policy': 'returnPolicy',
  service: 'service',
} as const;

export const LANDERS = [
  'alonetonight',
  'collagelanding',
  'gallery',
  'iconslanding',
  'maplanding',
  'socialnetwork',
  'transitionsvideolanding',
  'video',
] as const;

/**
 * A page whose last part is a lander slug (spec §1: niche prefix and locale): a lander with one
 * (`/landers/video/milf-eng`), a member's landing2 or landing3 with one. `rest` is the path without its language
 * prefix; `base` is it without the slug.
 */
export function sluggedPath(rest: string): { base: string; slug: string } | null {
  const match = /^(\/landers\/[^/]+|\/members\/[^/]+\/landing[23])\/([^/]+)\/?$/.exec(rest);
  return match ? { base: match[1], slug: match[2] } : null;
}

/** Every lander of spec §2: `tinderswipe` and the eight with an optional slug. */
export const LANDER_NAMES = ['tinderswipe', ...LANDERS] as const;
export type LanderName = (typeof LANDER_NAMES)[number];

/** The members area of spec §2. */
export const MEMBERS_AREA: RouteName[] = ['members', 'members-id', 'chats', 'likes', 'likes-m-id', 'premium'];

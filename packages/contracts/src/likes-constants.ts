/** Likes constants without zod, for the web app's first load (re-exported by likes.ts and core.ts). */

/** Where a like was given. Swipe likes come through the swipe game's own route; 'auto' only from the server. */
export const LIKE_SOURCES = ['search', 'profile', 'swipe', 'match_finder', 'auto'] as const;
export type LikeSource = (typeof LIKE_SOURCES)[number];
/** The sources a client may name on POST /api/like.php. */
export const CLIENT_LIKE_SOURCES = ['search', 'profile', 'match_finder'] as const;
export type ClientLikeSource = (typeof CLIENT_LIKE_SOURCES)[number];

/** Tabs of /likes/{type}; /likes shows 'received'. */
export const LIKES_TYPES = ['received', 'given', 'mutual'] as const;
export type LikesType = (typeof LIKES_TYPES)[number];

/** At most this many profiles in each list of likes.php (newest first). */
export const LIKES_LIST_LIMIT = 200;
/** The auto-like fires this long after the member enters the members area (once per page load). */
export const AUTO_LIKE_DELAY_MS = 20_000;
/** Longest like-modal delay (`t` query, seconds) we accept. */
export const LIKE_MODAL_MAX_DELAY_S = 3600;

export const SEARCH_PAGE_SIZE = 24;
/**
 * A member's default search (no filter of their own) that finds fewer than this, a desktop's first screen (two
 * rows of four), widens: to their whole country, then to nearby countries.
 */
export const SEARCH_WIDEN_BELOW = 8;

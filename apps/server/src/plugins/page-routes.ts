import {
  isLanderSlug,
  LANDERS,
  LIKES_TYPES,
  landerSlug,
  localizePath,
  parseLanderSlug,
  ROUTES,
  ROUTES_WITHOUT_PAGE,
  STATIC_PAGES,
  sluggedPath,
  splitLocalePath,
  TOKEN_PAGES,
} from '@amora/contracts';

// The app's pages as the server knows them (spec §2's routes in contracts): which paths are pages, and which route
// a path is.

/** A route pattern of the contracts (`/members/:id`, `/landers/:name/:slug?`) as a regular expression. */
function patternOf(pattern: string): RegExp {
  return new RegExp(
    `^${pattern
      .replace(/\/:[a-z]+\?/g, '(?:/[^/]+)?')
      .replace(/:[a-z]+/g, '[^/]+')
      .replace(/\//g, '\\/')}\\/?$`,
  );
}

/** Routes whose parameter takes only some values (the app shows its not-found page for any other). */
const CHECKED_ROUTES: (keyof typeof ROUTES)[] = ['likes-type', ...ROUTES_WITHOUT_PAGE];

const knownPatterns: RegExp[] = [
  ...Object.entries(ROUTES)
    .filter(([name]) => name !== 'token' && !name.startsWith('pages-') && !CHECKED_ROUTES.includes(name as keyof typeof ROUTES))
    .map(([, pattern]) => pattern),
  ...Object.keys(STATIC_PAGES).map((page) => `/pages/${page}`),
  ...TOKEN_PAGES.map((token) => `/${token}`),
  ...LIKES_TYPES.map((type) => `/likes/${type}`),
  '/landers/tinderswipe',
  ...LANDERS.map((lander) => `/landers/${lander}`),
].map(patternOf);

/** A lander with a slug: `/landers/{name}/{slug}`. */
const LANDER_WITH_SLUG = /^\/landers\/([^/]+)\/([^/]+)\/?$/;

/**
 * Whether the SPA has a page at this path (spec §2: a route the app has built, a static or token page, a lander
 * with no slug or an existing one, a member's landing2 or landing3 with no slug or an existing one); anything else
 * is served the app's not-found page with status 404.
 */
export function isKnownPage(path: string): boolean {
  const { rest } = splitLocalePath(path);
  const lander = LANDER_WITH_SLUG.exec(rest);
  if (lander) return (LANDERS as readonly string[]).includes(lander[1]) && isLanderSlug(lander[2]);
  const slugged = sluggedPath(rest);
  if (slugged && !isLanderSlug(slugged.slug)) return false;
  return knownPatterns.some((re) => re.test(rest));
}

/**
 * Where a page with a lander slug belongs (docs/decisions.md, "Landers"), or null when it is there already (or is
 * no such page): the slug names a language, and the page is in that language, at its path (`eng` is English,
 * which has no prefix: `/de/landers/video/eng` → `/landers/video/eng`, `/landers/video/de` → `/de/landers/video/de`);
 * and it names a niche, which is the site's own (a slug of another niche goes to the site's niche's slug in the
 * same language). The caller keeps the query string. A slug that does not exist is the 404 (isKnownPage).
 */
export function sluggedPageRedirect(path: string, siteNiche: number): string | null {
  const { rest } = splitLocalePath(path);
  const slugged = sluggedPath(rest);
  const parsed = slugged ? parseLanderSlug(slugged.slug) : null;
  if (!slugged || !parsed || !isKnownPage(path)) return null;
  const target = localizePath(`${slugged.base}/${landerSlug(siteNiche, parsed.locale)}`, parsed.locale);
  return target === path ? null : target;
}

/** The route name of a page path (any language prefix), if the app has one. */
export function routeNameOf(path: string): keyof typeof ROUTES | undefined {
  const { rest } = splitLocalePath(path);
  return routePatterns.find(([, re]) => re.test(rest))?.[0];
}
const routePatterns = (Object.entries(ROUTES) as [keyof typeof ROUTES, string][]).map(
  ([name, pattern]) => [name, patternOf(pattern)] as const,
);

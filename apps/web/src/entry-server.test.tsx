import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import {
  type MemberResponse,
  matchFinderResponseSchema,
  memberResponseSchema,
  packagesResponseSchema,
  type SearchResponse,
  searchResponseSchema,
  swipeGameResponseSchema,
} from '@amora/contracts';
import { http } from 'msw';
import type { RouteObject } from 'react-router';
import { describe, expect, it, vi } from 'vitest';
import { localeRoutes } from './app/routes';
import { prerenderMember, rendersForMember } from './entry-server';
import type { RouteData } from './shared/site/route-data';
import type { RouteHandle } from './shared/site/use-route-name';
import { contractJson } from './testing/contract';
import { settingsFixture, userFixture } from './testing/fixtures';
import { packagesFixture } from './testing/payments';
import { recordCalls, server } from './testing/server';

/** A declaration this test can switch off, to see what a page whose data is not declared looks like. */
const skipped = vi.hoisted(() => ({ members: false }));
vi.mock('@/features/members/members-page.data', async (importOriginal) => {
  const real = await importOriginal<{ membersPageData: RouteData }>();
  return { membersPageData: ((args) => (skipped.members ? Promise.resolve() : real.membersPageData(args))) satisfies RouteData };
});

const catalogue = (ns: string) =>
  JSON.parse(
    readFileSync(join(import.meta.dirname, '..', '..', '..', 'packages', 'i18n', 'locales', 'en', `${ns}.json`), 'utf8'),
  ) as Record<string, Record<string, unknown>>;
const messages = catalogue('common');
const catalogues = { pages: catalogue('pages'), payments: catalogue('payments') };
/** A catalogue key in the page's text ("credits.title"): what i18next shows for words it does not have. */
const RAW_KEY = new RegExp(
  `>\\s*(?:${[...new Set([messages, ...Object.values(catalogues)].flatMap((c) => Object.keys(c)))].join('|')})\\.[A-Za-z][\\w.]*\\s*<`,
);

const card = (id: number) => ({
  id,
  name: `Member ${id}`,
  age: 30,
  city: 'Utrecht',
  country: 'NL',
  thumb_url: `/photos/${id}-thumb.webp`,
  is_fictional: false,
  is_premium: false,
});
const searchPage: SearchResponse = {
  results: [card(5), card(6)],
  numResults: 2,
  numResults_capped: false,
  next_cursor: null,
  similar_results: [],
  similar_numResults: 0,
  widened: null,
};
const member: MemberResponse = {
  profile: {
    id: 5,
    name: 'Member 5',
    age: 30,
    city: 'Utrecht',
    country: 'NL',
    is_fictional: false,
    is_premium: false,
    region: null,
    about: 'Hi',
    attributes: {},
    interests: [],
    photos: [{ id: 50, is_locked: false, url: '/photos/50.webp', thumb_url: '/photos/50-thumb.webp' }],
    hidden_photo_count: 0,
    is_blocked_by_me: false,
    is_own: false,
  },
  related: [],
};

/** The answers of the calls the declared data makes, beyond the shell's (testing/server.ts). */
const pageAnswers = [
  http.get('*/api/search.php', () => contractJson(searchResponseSchema, searchPage)),
  http.get('*/api/member.php', () => contractJson(memberResponseSchema, member)),
  http.get('*/api/packages.php', () => contractJson(packagesResponseSchema, packagesFixture())),
  http.get('*/api/match-finder.php', () => contractJson(matchFinderResponseSchema, { profile: null })),
  http.get('*/api/swipe-game.php', () =>
    contractJson(swipeGameResponseSchema, { cards: [], likes_left: 4, likes_reset_at: '2026-11-29T00:00:00.000Z' }),
  ),
];

/** Every page route that declares its data, with an address of it (its parameters filled in). */
function declaredPages(): { name: string; url: string }[] {
  const pages: { name: string; url: string }[] = [];
  const walk = (routes: RouteObject[], prefix: string) => {
    for (const route of routes) {
      const path = route.path ? `${prefix}/${route.path}`.replace(/\/+/g, '/') : prefix;
      const handle = route.handle as RouteHandle | undefined;
      // A lander is rendered as the landers' own page, for anyone (entry-server.landers.test.tsx).
      const isLander =
        handle?.name === 'landers' || handle?.name === 'landers-tinderswipe' || Boolean(handle?.name?.startsWith('members-id-landing'));
      if (handle?.name && handle.data && !isLander)
        pages.push({
          name: handle.name,
          url: path
            .replace(/:id\b/g, '5')
            .replace(/:type\b/g, 'given')
            .replace(/\/:[a-z]+\?/g, ''),
        });
      if (route.children) walk(route.children, path);
    }
  };
  walk([localeRoutes('en')], '');
  return pages;
}

const render = (url: string) =>
  prerenderMember({
    url,
    locale: 'en',
    settings: settingsFixture(),
    messages,
    catalogues,
    user: userFixture(),
    api: (path, init) => fetch(new URL(path, window.location.origin), init),
    phone: false,
  });

describe("a member's page rendered on the server", () => {
  it('has every query its first screen asks for loaded by the data its route declares, in one render', async () => {
    const pages = declaredPages();
    expect(pages.map((p) => p.name)).toEqual(
      expect.arrayContaining(['members', 'members-id', 'likes-m-id', 'likes', 'likes-type', 'match-finder', 'swipe-game', 'credits']),
    );
    for (const { name, url } of pages) {
      server.use(...pageAnswers);
      const calls = recordCalls();
      const page = await render(url);
      expect(page, name).not.toBeNull();
      // A query left here ships in its loading state: declare it in the route's data (app/routes.tsx, handle.data).
      expect(page?.undeclared, name).toEqual([]);
      expect(page?.html, name).toContain('id="main"');
      // Every word in the page's language, as the app will show it: no catalogue key in place of one.
      expect(page?.html.match(RAW_KEY)?.[0], name).toBeUndefined();
      expect(
        calls.every((call) => call.startsWith('GET ')),
        name,
      ).toBe(true);
    }
  });

  it('ships the answers it shows: the search, with the cards it remembered', async () => {
    server.use(...pageAnswers);
    const page = await render('/members');
    const keys = page?.queries.queries.map((query) => query.queryKey[0]);
    expect(keys).toEqual(expect.arrayContaining(['search', 'likes', 'chats', 'companyinfo', 'timeBonus', 'profile-card']));
    expect(page?.html).toContain('Member 6');
  });

  it('names a query the page asked for that its route did not declare: it would ship loading', async () => {
    skipped.members = true;
    try {
      server.use(...pageAnswers);
      const page = await render('/members');
      expect(page?.undeclared).toEqual([expect.stringContaining('"search"')]);
    } finally {
      skipped.members = false;
    }
  });

  it('renders only pages whose route declares data', () => {
    expect(rendersForMember('/members?gender=woman', 'en')).toBe(true);
    expect(rendersForMember('/members/5', 'en')).toBe(true);
    expect(rendersForMember('/settings', 'en')).toBe(false);
    expect(rendersForMember('/chats', 'en')).toBe(false);
    expect(rendersForMember('/landers/video/eng', 'en')).toBe(false);
  });
});

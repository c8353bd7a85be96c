import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { LOCALES, type Locale, landerSlug, localizePath, type MemberLandingProfile } from '@amora/contracts/core';
import { HttpResponse, http } from 'msw';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { prerenderLander } from './entry-server';
import { answer } from './testing/contract';
import { settingsFixture } from './testing/fixtures';
import { server } from './testing/server';

/**
 * A profile's landings (/members/{id}/landing, landing2, landing3) as the server renders them (prerenderLander,
 * the landers' own page), in every language: each renders with its profile, its call to action carrying the
 * address's query to the profile's signup, no error logged and no catalogue key in place of a text.
 */

const locales = join(import.meta.dirname, '..', '..', '..', 'packages', 'i18n', 'locales');
const catalogueOf = (locale: Locale, ns: string) =>
  JSON.parse(readFileSync(join(locales, locale, `${ns}.json`), 'utf8')) as Record<string, Record<string, unknown>>;
const sections = [...new Set([...Object.keys(catalogueOf('en', 'common')), ...Object.keys(catalogueOf('en', 'landers'))])];
const RAW_KEY = new RegExp(`(?:>|=")\\s*(?:(?:common|landers):)?(?:${sections.join('|')})\\.[A-Za-z0-9][\\w.]*\\s*(?:<|")`);

const fiona: MemberLandingProfile = {
  id: 7,
  name: 'Fiona',
  age: 34,
  city: 'Utrecht',
  country: 'NL',
  photo: { src: '/api/lander-photo.php?id=70&w=540', srcSet: '/api/lander-photo.php?id=70&w=360 360w', width: 540, height: 675 },
  facts: { hair_colour: 'blonde', eye_colour: 'blue' },
  is_fictional: true,
};

const render = (url: string, locale: Locale = 'en', niche = 1) =>
  prerenderLander({
    url,
    locale,
    settings: settingsFixture({ niche, languages: [...LOCALES] }),
    messages: catalogueOf(locale, 'common'),
    catalogues: { landers: catalogueOf(locale, 'landers') },
    cookies: '',
    user: null,
    api: (path, init) => fetch(new URL(path, window.location.origin), init),
  });

afterEach(() => vi.restoreAllMocks());

describe('member landings rendered by the server', () => {
  it('render in every language and layout, with the profile, its fictional label and the signup link with the query', async () => {
    server.use(answer('GET /api/member-landing.php', () => ({ profile: fiona })));
    const errors = vi.spyOn(console, 'error');
    for (const locale of LOCALES) {
      for (const niche of [1, 6]) {
        for (const path of ['/members/7/landing', '/members/7/landing2', `/members/7/landing3/${landerSlug(niche, locale)}`]) {
          const url = `${localizePath(path, locale)}?network=test&amp=1&sub1=x`;
          const page = await render(url, locale, niche);
          expect(page, url).not.toBeNull();
          const html = page?.html ?? '';
          expect(html, url).toContain('data-lander="member-landing');
          expect(html, url).toContain('data-profile-id="7"');
          expect(html.replaceAll('<!-- -->', ''), url).toContain('Fiona, 34');
          expect(html, url).toContain('data-fictional-mark');
          expect(html, url).toContain(`href="${localizePath('/members/7/signup', locale)}?network=test&amp;amp=1&amp;sub1=x"`);
          expect(html, url).not.toContain('<!--$!-->');
          expect(html.match(RAW_KEY)?.[0], `${url}: a text left as its key`).toBeUndefined();
          expect(page?.queries.queries.map((q) => q.queryKey)).toEqual([['member-landing', 7]]);
        }
      }
    }
    expect(errors.mock.calls.map((call) => String(call[0]).slice(0, 300))).toEqual([]);
  }, 120_000);

  it('is null when no landing may show the profile (the server answers the 404 page), or the id is no number', async () => {
    server.use(http.get('*/api/member-landing.php', () => HttpResponse.json({ error: 'not_found', message: 'x' }, { status: 404 })));
    expect(await render('/members/8/landing')).toBeNull();
    expect(await render('/members/abc/landing2')).toBeNull();
  });
});

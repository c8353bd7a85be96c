import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { LANDER_NAMES, type LanderName, LOCALES, type Locale, landerSlug, localizePath, NICHES } from '@amora/contracts/core';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { prerenderLander } from './entry-server';
import { settingsFixture } from './testing/fixtures';
import { landerProfiles } from './testing/landers';
import { answers, server } from './testing/server';

/**
 * Every lander, in every language and for every niche, as the server renders it (prerenderLander, the landers'
 * own page): with no slug and with the slug of the site's niche in that language (a slug of another language or
 * niche is redirected by the server, plugins/page-routes.ts). Each must render, log no error, and show words
 * only: no catalogue key in place of a text (what i18next shows for a key its catalogue lacks).
 */

const locales = join(import.meta.dirname, '..', '..', '..', 'packages', 'i18n', 'locales');
const catalogueOf = (locale: Locale, ns: string) =>
  JSON.parse(readFileSync(join(locales, locale, `${ns}.json`), 'utf8')) as Record<string, Record<string, unknown>>;

/** A catalogue key where a text belongs, between tags or as an attribute's value ("video.title", "landers:niche.2.pitch"). */
const sections = [...new Set([...Object.keys(catalogueOf('en', 'common')), ...Object.keys(catalogueOf('en', 'landers'))])];
const RAW_KEY = new RegExp(`(?:>|=")\\s*(?:(?:common|landers):)?(?:${sections.join('|')})\\.[A-Za-z0-9][\\w.]*\\s*(?:<|")`);

afterEach(() => vi.restoreAllMocks());

/** The addresses of a lander in one language: without a slug, and with the niche's slug (not tinderswipe, which has none). */
function addresses(name: LanderName, niche: number, locale: Locale): string[] {
  const base = localizePath(`/landers/${name}`, locale);
  return name === 'tinderswipe' ? [base] : [base, `${base}/${landerSlug(niche, locale)}`];
}

describe('every lander in every language and niche, rendered by the server', () => {
  for (const niche of NICHES) {
    it(`niche ${niche}: renders, with every text translated and no error`, async () => {
      server.use(answers.lander({ niche, profiles: landerProfiles(14).map((p) => ({ ...p, is_fictional: true })) }));
      const errors = vi.spyOn(console, 'error');
      for (const locale of LOCALES) {
        const settings = settingsFixture({ niche, languages: [...LOCALES] });
        const messages = catalogueOf(locale, 'common');
        const landers = catalogueOf(locale, 'landers');
        for (const name of LANDER_NAMES) {
          for (const url of addresses(name, niche, locale)) {
            const page = await prerenderLander({
              url,
              locale,
              settings,
              messages,
              catalogues: { landers },
              cookies: '',
              user: null,
              api: (path, init) => fetch(new URL(path, window.location.origin), init),
            });
            expect(page, url).not.toBeNull();
            const html = page?.html ?? '';
            expect(html, url).toContain(`data-lander="${name}"`);
            // React's mark of a part it gave up on.
            expect(html, url).not.toContain('<!--$!-->');
            expect(html.match(RAW_KEY)?.[0], `${url}: a text left as its key`).toBeUndefined();
            // The answers it was rendered from go with it.
            expect(
              page?.queries.queries.map((q) => q.queryKey[0]),
              url,
            ).toEqual(['lander']);
          }
        }
      }
      expect(errors.mock.calls.map((call) => String(call[0]).slice(0, 300))).toEqual([]);
    }, 120_000);
  }

  it("shows a traffic-source visitor neither payment logos nor the company's address (spec §6), the others both", async () => {
    const render = (isTrafficsource: boolean) =>
      prerenderLander({
        url: '/landers/video/eng',
        locale: 'en',
        settings: settingsFixture({ is_trafficsource: isTrafficsource }),
        messages: catalogueOf('en', 'common'),
        catalogues: { landers: catalogueOf('en', 'landers') },
        user: null,
        api: (path, init) => fetch(new URL(path, window.location.origin), init),
      });
    const visitor = (await render(false))?.html ?? '';
    expect(visitor).toContain('data-testid="payment-logos"');
    expect(visitor).toContain('data-testid="company-block"');
    const tracked = (await render(true))?.html ?? '';
    expect(tracked).toContain('data-testid="footer"');
    expect(tracked).not.toContain('data-testid="payment-logos"');
    expect(tracked).not.toContain('data-testid="company-block"');
    // The support contacts stay.
    expect(tracked).toContain('mailto:');
  });

  it('is null for an address that is no lander', async () => {
    const page = await prerenderLander({
      url: '/members',
      locale: 'en',
      settings: settingsFixture(),
      messages: catalogueOf('en', 'common'),
      catalogues: { landers: catalogueOf('en', 'landers') },
      user: null,
      api: (path, init) => fetch(new URL(path, window.location.origin), init),
    });
    expect(page).toBeNull();
  });
});

import {
  BREAKPOINTS,
  CLIENT_HEADER,
  CLIENT_HEADER_VALUE,
  ENTRY_WARNING_STORAGE_KEY,
  LANDER_DATA_ID,
  type LanderData,
  type LanderName,
  type Locale,
  localizePath,
  type Settings,
  splitLocalePath,
} from '@amora/contracts/core';
import i18next from 'i18next';
import { type ReactNode, StrictMode, useEffect } from 'react';
import { I18nextProvider, initReactI18next } from 'react-i18next';
import { LANDER_DESIGNS } from '@/features/landers/designs';
import { LanderApp } from '@/features/landers/lander-app';
import { landerNameOf, landerQueryKey } from '@/features/landers/lander-types';
import { type BootData, takeBootData } from '@/lib/boot-data';
import { readCookie } from '@/lib/cookies';
import { endTakeover } from '@/lib/hydration';
import { I18N_OPTIONS } from '@/lib/i18n-options';
import { installPageHiddenBeacon } from '@/lib/page-hidden';
import { type CommonCatalogueInBlock, commonCatalogue } from './common-catalogue';
import { memberLandingOfPath } from './member-landing-path';
import { loadReactDom, takeOver } from './take-over';

/** What the server put into a lander's page beside the boot data (plugins/lander-pages.ts). */
interface LanderBlock extends CommonCatalogueInBlock {
  landers?: Record<string, unknown>;
  /** The page's language, when the page has no boot data. */
  locale?: Locale;
  queries?: { queries: { queryKey: unknown[]; state: { data?: unknown } }[] } | null;
}

function takeLanderBlock(): LanderBlock {
  const element = document.getElementById(LANDER_DATA_ID);
  if (!element) return {};
  element.remove();
  try {
    return JSON.parse(element.textContent ?? '') as LanderBlock;
  } catch {
    return {};
  }
}

/** The lander of the address: `/landers/tinderswipe`, `/landers/{name}` or `/landers/{name}/{slug}`. */
function landerOfPath(rest: string): { name: LanderName; slug: string | undefined } | null {
  const match = /^\/landers\/([^/]+)(?:\/([^/]+))?\/?$/.exec(rest);
  const name = match ? landerNameOf({ name: match[1] }) : null;
  return match && name ? { name, slug: match[2] } : null;
}

async function getJson<T>(path: string): Promise<T> {
  const response = await fetch(path, { headers: { [CLIENT_HEADER]: CLIENT_HEADER_VALUE, accept: 'application/json' } });
  if (!response.ok) throw new Error(`${path}: HTTP ${response.status}`);
  return (await response.json()) as T;
}

/**
 * Signup from a lander (spec §2: a modal on desktop, the signup page on a phone; with a profile, that profile's
 * signup). A member is taken to the site instead. The modal is the app's, loaded at the first click.
 */
function signupOpener(locale: Locale, settings: Settings, isLoggedIn: boolean) {
  return (profileId?: number) => {
    if (isLoggedIn) {
      window.location.assign(localizePath('/', locale));
      return;
    }
    if (window.innerWidth < BREAKPOINTS.md) {
      window.location.assign(localizePath(profileId ? `/members/${profileId}/signup` : '/signup', locale));
      return;
    }
    import('./lander-signup').then(
      (signup) => signup.openSignup({ locale, settings, profileId }),
      // The modal's code gone after a deploy (or the line down): the signup page instead.
      () => window.location.assign(localizePath('/signup', locale)),
    );
  };
}

/**
 * The page is the lander's once its first render is on the screen (lib/hydration.ts, as in the app): taps kept
 * before (lander-main.tsx) are made again, and the page says it is ready.
 */
function Ready({ children }: { children: ReactNode }) {
  useEffect(() => endTakeover(), []);
  return children;
}

/**
 * Starts a lander's page: the settings, member and common catalogue from the page's boot data, the landers
 * catalogue and the lander's data from its own block (else asked for), then the design, then the page: taken
 * over where the server rendered it, else rendered.
 */
export async function startLander(): Promise<void> {
  installPageHiddenBeacon();
  const boot: BootData | null = takeBootData();
  const block = takeLanderBlock();
  const path = splitLocalePath(window.location.pathname);
  const locale = boot?.locale ?? block.locale ?? path.locale;
  // The app's redirect to the remembered language (a lander without a slug; the server rendered it in that one).
  if (locale !== path.locale) window.history.replaceState(null, '', localizePath(path.rest, locale) + window.location.search);
  // A profile's landing (/members/{id}/landing, landing2, landing3): the same page, its own tree, whose code only
  // such a page loads.
  const landing = memberLandingOfPath(path.rest);
  if (landing) return import('./member-landing-start').then((m) => m.startMemberLanding({ boot, block, locale, landing }));
  const lander = landerOfPath(path.rest);
  if (!lander) return;
  const search = new URLSearchParams(window.location.search);
  const forcedCountry = search.get('forced_country');
  const settingsQuery = new URLSearchParams(search);
  settingsQuery.set('lang', locale);
  const landerQuery = new URLSearchParams({ name: lander.name, ...(lander.slug ? { slug: lander.slug } : {}) });
  if (forcedCountry) landerQuery.set('forced_country', forcedCountry);
  const key = JSON.stringify(landerQueryKey(lander.name, lander.slug, forcedCountry));
  const rendered = block.queries?.queries.find((query) => JSON.stringify(query.queryKey) === key)?.state.data as LanderData | undefined;

  // The landers catalogue comes with the page, the common one as the build's file the page names (or in the page);
  // the catalogue test keeps every key in every language: nothing to fall back to, so nothing else is loaded.
  const reactDom = loadReactDom();
  const [settings, data, Design, common] = await Promise.all([
    boot?.settings ?? getJson<Settings>(`/api/settings.php?${settingsQuery}`),
    rendered ?? getJson<LanderData>(`/api/lander.php?${landerQuery}`),
    LANDER_DESIGNS[lander.name](),
    commonCatalogue(boot, block),
  ]);
  await i18next
    .use(initReactI18next)
    .init({ ...I18N_OPTIONS, lng: locale, resources: { [locale]: { common, landers: block.landers ?? {} } } });

  const isLoggedIn = boot?.user != null;
  const container = document.getElementById('root') as HTMLElement;
  const app = (
    <StrictMode>
      <I18nextProvider i18n={i18next}>
        <Ready>
          <LanderApp
            site={{ settings, locale }}
            name={lander.name}
            data={data}
            Design={Design}
            isLoggedIn={isLoggedIn}
            isEntryWarningDismissed={readCookie(ENTRY_WARNING_STORAGE_KEY) !== null}
            onSignup={signupOpener(locale, settings, isLoggedIn)}
          />
        </Ready>
      </I18nextProvider>
    </StrictMode>
  );
  await takeOver(reactDom, container, app, rendered !== undefined);
}

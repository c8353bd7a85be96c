import {
  CLIENT_HEADER,
  CLIENT_HEADER_VALUE,
  ENTRY_WARNING_STORAGE_KEY,
  type Locale,
  type MemberLandingProfile,
  type Settings,
} from '@amora/contracts/core';
import i18next from 'i18next';
import { type ReactNode, StrictMode, useEffect } from 'react';
import { I18nextProvider, initReactI18next } from 'react-i18next';
import { MEMBER_LANDING_LAYOUTS } from '@/features/landers/members';
import { MemberLandingApp } from '@/features/landers/members/member-landing-app';
import { type MemberLandingLayout, memberLandingQueryKey } from '@/features/landers/members/member-landing-types';
import type { BootData } from '@/lib/boot-data';
import { readCookie } from '@/lib/cookies';
import { endTakeover } from '@/lib/hydration';
import { I18N_OPTIONS } from '@/lib/i18n-options';
import { type CommonCatalogueInBlock, commonCatalogue } from './common-catalogue';
import { loadReactDom, takeOver } from './take-over';

/** What the server put into the page beside the boot data (plugins/lander-pages.ts; lander-start.tsx reads it). */
interface PageBlock extends CommonCatalogueInBlock {
  landers?: Record<string, unknown>;
  queries?: { queries: { queryKey: unknown[]; state: { data?: unknown } }[] } | null;
}

/** The page is the landing's once its first render is on the screen (lib/hydration.ts): taps kept before are made again. */
function Ready({ children }: { children: ReactNode }) {
  useEffect(() => endTakeover(), []);
  return children;
}

async function getJson<T>(path: string): Promise<T> {
  const response = await fetch(path, { headers: { [CLIENT_HEADER]: CLIENT_HEADER_VALUE, accept: 'application/json' } });
  if (!response.ok) throw new Error(`${path}: HTTP ${response.status}`);
  return (await response.json()) as T;
}

/**
 * Starts a member landing in the landers' own page (lander-start.tsx hands the address over): the settings from
 * the boot data, the landers catalogue and the profile from the page's block (else asked for), the common
 * catalogue from the build's file the block names (common-catalogue.ts), the layout, then the page, taken over
 * where the server rendered it. Its call to action is a plain link to the profile's signup, the query kept:
 * nothing else to wire.
 */
export async function startMemberLanding({
  boot,
  block,
  locale,
  landing,
}: {
  boot: BootData | null;
  block: PageBlock;
  locale: Locale;
  landing: { layout: MemberLandingLayout; profileId: number };
}): Promise<void> {
  const key = JSON.stringify(memberLandingQueryKey(landing.profileId));
  const rendered = block.queries?.queries.find((query) => JSON.stringify(query.queryKey) === key)?.state.data as
    | MemberLandingProfile
    | undefined;
  const reactDom = loadReactDom();
  const [settings, profile, Layout, common] = await Promise.all([
    boot?.settings ?? getJson<Settings>(`/api/settings.php?lang=${locale}`),
    rendered ??
      getJson<{ profile: MemberLandingProfile }>(`/api/member-landing.php?id=${landing.profileId}`).then((answer) => answer.profile),
    MEMBER_LANDING_LAYOUTS[landing.layout](),
    commonCatalogue(boot, block),
  ]);
  await i18next
    .use(initReactI18next)
    .init({ ...I18N_OPTIONS, lng: locale, resources: { [locale]: { common, landers: block.landers ?? {} } } });
  document.title = i18next.t('landers:member.pageTitle', { name: profile.name, site: settings.name });

  const container = document.getElementById('root') as HTMLElement;
  const app = (
    <StrictMode>
      <I18nextProvider i18n={i18next}>
        <Ready>
          <MemberLandingApp
            site={{ settings, locale }}
            layout={landing.layout}
            profile={profile}
            query={window.location.search}
            Layout={Layout}
            isLoggedIn={boot?.user != null}
            isEntryWarningDismissed={readCookie(ENTRY_WARNING_STORAGE_KEY) !== null}
          />
        </Ready>
      </I18nextProvider>
    </StrictMode>
  );
  await takeOver(reactDom, container, app, rendered !== undefined);
}

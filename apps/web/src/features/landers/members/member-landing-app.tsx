import type { MemberLandingProfile } from '@amora/contracts/core';
import type { ComponentType } from 'react';
import { canSignUpWith } from '../lander-app';
import { LanderEntryWarning, LanderFooter, LanderNavbar } from '../lander-chrome';
import { type LanderSite, LanderSiteProvider } from '../lander-site';
import type { MemberLandingLayout, MemberLandingProps } from './member-landing-types';

export interface MemberLandingAppProps {
  site: LanderSite;
  layout: MemberLandingLayout;
  profile: MemberLandingProfile;
  /** The page's query string as it came (`?network=…`), kept on the way to the signup. */
  query: string;
  /** The layout, loaded (index.ts): the page renders at once, on the server and in the browser. */
  Layout: ComponentType<MemberLandingProps>;
  isLoggedIn: boolean;
  isEntryWarningDismissed: boolean;
}

/**
 * A member landing's page: the lander layout of spec §2 (small navbar, footer, entry warning) around its layout.
 * The same tree on the server (entry-server.tsx), in the landers' own page (app/lander) and in the app.
 */
export function MemberLandingApp({ site, layout, profile, query, Layout, isLoggedIn, isEntryWarningDismissed }: MemberLandingAppProps) {
  return (
    <LanderSiteProvider value={site}>
      <div className="lander-page" data-lander={`member-${layout}`}>
        <LanderNavbar />
        {/* The site's niche: a slug of another niche was sent to the site's own by the server (page-routes.ts). */}
        <Layout profile={profile} niche={site.settings.niche} canSignUp={canSignUpWith(site.settings)} query={query} />
        <LanderFooter isLoggedIn={isLoggedIn} />
        <LanderEntryWarning isDismissed={isEntryWarningDismissed} isLoggedIn={isLoggedIn} />
      </div>
    </LanderSiteProvider>
  );
}

import type { LanderData, LanderName } from '@amora/contracts/core';
import type { ComponentType } from 'react';
import { LanderEntryWarning, LanderFooter, LanderNavbar } from './lander-chrome';
import { type LanderSite, LanderSiteProvider } from './lander-site';
import type { LanderProps } from './lander-types';

export interface LanderAppProps {
  site: LanderSite;
  name: LanderName;
  data: LanderData;
  /** The lander's design, loaded (designs/index.ts): the page renders at once, on the server and in the browser. */
  Design: ComponentType<LanderProps>;
  isLoggedIn: boolean;
  /** Whether this visitor accepted the entry warning before (its cookie). */
  isEntryWarningDismissed: boolean;
  onSignup: (profileId?: number) => void;
}

/** Whether this visitor may sign up (spec §6 `signups`; the app's useCanSignUp, from the settings given). */
export function canSignUpWith(settings: LanderSite['settings']): boolean {
  return settings.signups === 'all' || (settings.signups === 'with_trafficsource' && settings.is_trafficsource);
}

/**
 * A lander's page: the lander layout of spec §2 (small navbar, footer, entry warning) around its design, from its
 * data. The same tree on the server (entry-server.tsx), in the landers' own page (app/lander) and in the app.
 */
export function LanderApp({ site, name, data, Design, isLoggedIn, isEntryWarningDismissed, onSignup }: LanderAppProps) {
  return (
    <LanderSiteProvider value={site}>
      <div className="lander-page" data-lander={name}>
        <LanderNavbar />
        <Design name={name} niche={data.niche} profiles={data.profiles} canSignUp={canSignUpWith(site.settings)} onSignup={onSignup} />
        <LanderFooter isLoggedIn={isLoggedIn} />
        <LanderEntryWarning isDismissed={isEntryWarningDismissed} isLoggedIn={isLoggedIn} />
      </div>
    </LanderSiteProvider>
  );
}

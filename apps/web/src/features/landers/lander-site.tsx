import { type Locale, localizePath, type Settings } from '@amora/contracts/core';
import { type AnchorHTMLAttributes, createContext, type ReactNode, useContext } from 'react';

/**
 * What a lander's page knows of its site: the settings (as settings.php answers this visitor) and the page's
 * language. A lander runs in the landers' own small page (app/lander), without the app's router or query cache,
 * so its parts take these from here rather than from useSettings, LocalLink or FictionalIcon.
 */
export interface LanderSite {
  settings: Settings;
  locale: Locale;
}

const LanderSiteContext = createContext<LanderSite | null>(null);

export function LanderSiteProvider({ value, children }: { value: LanderSite; children: ReactNode }) {
  return <LanderSiteContext.Provider value={value}>{children}</LanderSiteContext.Provider>;
}

export function useLanderSite(): LanderSite {
  const site = useContext(LanderSiteContext);
  if (!site) throw new Error('useLanderSite outside a lander page');
  return site;
}

/** The site's settings on a lander (useSettings of the app, without its query cache). */
export function useLanderSettings(): Settings {
  return useLanderSite().settings;
}

/**
 * A link from a lander to another page of the site, in the page's language: a plain link (the page it opens is
 * the app's, loaded anew), so a lander needs no router.
 */
export function LanderLink({ to, ...rest }: AnchorHTMLAttributes<HTMLAnchorElement> & { to: string }) {
  const { locale } = useLanderSite();
  return <a href={localizePath(to, locale)} {...rest} />;
}

/**
 * The site's icon for its fictional profiles, named by the site's word for them (FictionalIcon of the app;
 * `isDecorative` beside that word written out). Every profile a lander shows carries it, inside the element that
 * has the profile's `data-profile-id` (`data-fictional-mark` is what the e2e check of the label looks for).
 */
export function LanderFictionalIcon({
  size,
  className,
  isDecorative = false,
}: {
  size: number;
  className?: string;
  isDecorative?: boolean;
}) {
  const { settings } = useLanderSite();
  return (
    <img
      src={settings.fictional_icon}
      alt={isDecorative ? '' : settings.fictional_singular}
      title={settings.fictional_singular}
      width={size}
      height={size}
      className={className}
      data-testid="fictional-icon"
      data-fictional-mark=""
    />
  );
}

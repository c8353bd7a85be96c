import { DEFAULT_FICTIONAL_ICON, type Locale, localizePath, type Settings } from '@amora/contracts/core';
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
 * public/fictional-icon.svg drawn in the page (lander-site.test.tsx keeps the two the same). A lander draws the
 * default icon itself rather than loading it as an image: a browser makes an SVG image a document of its own on the
 * page's main thread, which on a phone's first load costs more than the whole icon (about 40 ms at full speed),
 * where drawn in the page it costs nothing of the kind.
 */
function DefaultFictionalIconDrawing() {
  return (
    <>
      <circle cx="12" cy="12" r="11" fill="#f27a1a" />
      <path
        d="M7 9.5c0-1.4 1.1-2.5 2.5-2.5S12 8.1 12 9.5M12 9.5c0-1.4 1.1-2.5 2.5-2.5S17 8.1 17 9.5"
        stroke="#fff"
        strokeWidth="1.6"
        fill="none"
        strokeLinecap="round"
      />
      <path d="M7.5 13.5c1 2.2 2.7 3.5 4.5 3.5s3.5-1.3 4.5-3.5" stroke="#fff" strokeWidth="1.6" fill="none" strokeLinecap="round" />
    </>
  );
}

/**
 * The site's icon for its fictional profiles, named by the site's word for them (FictionalIcon of the app;
 * `isDecorative` beside that word written out). Every profile a lander shows carries it, inside the element that
 * has the profile's `data-profile-id` (`data-fictional-mark` is what the e2e check of the label looks for). The
 * default icon is drawn in the page (DefaultFictionalIconDrawing), a site's own is its image.
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
  if (settings.fictional_icon === DEFAULT_FICTIONAL_ICON) {
    return (
      <svg
        viewBox="0 0 24 24"
        width={size}
        height={size}
        className={className}
        {...(isDecorative ? { 'aria-hidden': true } : { role: 'img', 'aria-label': settings.fictional_singular })}
        data-testid="fictional-icon"
        data-fictional-mark=""
      >
        <title>{settings.fictional_singular}</title>
        <DefaultFictionalIconDrawing />
      </svg>
    );
  }
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

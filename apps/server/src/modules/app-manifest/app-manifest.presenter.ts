import { type AppManifest, localeFromTag } from '@amora/contracts';
import { type Site, siteBranding } from '../sites/sites.service';

/** Where the icons are served; the route is in app-manifest.routes.ts. */
const iconUrl = (name: string) => `/api/assets/app-icon/${name}.png`;

/**
 * The web app manifest of a site (spec §2 installed-app mode): its name, description in its domain language and
 * colours, the members' area as the start, the whole site as the scope. The manifest is fetched without cookies,
 * so it cannot follow a member's language: the site's own language speaks for it (its name is the same in all).
 */
export function presentManifest(site: Site): AppManifest {
  const branding = siteBranding(site);
  const lang = localeFromTag(site.domainLanguage) ?? 'en';
  return {
    // The app's identity on the device: one per site (the origin), whatever the start page becomes.
    id: '/',
    name: branding.name,
    short_name: branding.name,
    description: site.description[lang] ?? site.description.en ?? '',
    lang,
    dir: 'ltr',
    start_url: '/members',
    scope: '/',
    display: 'standalone',
    theme_color: branding.themeColor,
    background_color: branding.backgroundColor,
    categories: ['social', 'lifestyle'],
    icons: [
      { src: iconUrl('192'), sizes: '192x192', type: 'image/png', purpose: 'any' },
      { src: iconUrl('512'), sizes: '512x512', type: 'image/png', purpose: 'any' },
      { src: iconUrl('maskable-512'), sizes: '512x512', type: 'image/png', purpose: 'maskable' },
    ],
  };
}

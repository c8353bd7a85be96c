import type { ComponentType } from 'react';
import type { LanderName, LanderProps } from '../lander-types';

/**
 * The landers' designs, one line each: the lazy import of the lander's design. A design is the file
 * `designs/<name>.tsx` (its CSS `designs/<name>.css`, imported by it) exporting `<Pascal>Lander`, and its line is
 * exactly, in the lander's place in the list:
 *
 *     <name>: () => import('./<name>').then((m) => m.<Pascal>Lander),
 *
 * e.g. `video: () => import('./video').then((m) => m.VideoLander),`. Keep the file name the lander's name: the server finds the design's chunk and styles in the
 * build's manifest by it (src/features/landers/designs/<name>.tsx) and sends them with the page, so the server's
 * render paints styled and the page takes it over without waiting.
 *
 * A design runs in the landers' own small page (app/lander/lander-main.tsx: React and i18next only; every lander's
 * JavaScript stays under 100 KB gzipped). So no react-router, no TanStack Query, no react-bootstrap, and nothing of
 * the app that needs them (useSettings, LocalLink, FictionalIcon, useLocale): take the settings, links and the
 * fictional icon from ../lander-site (useLanderSettings, LanderLink, LanderFictionalIcon). Texts with
 * `useTranslation(['landers', 'common'])` as usual (both catalogues come with the page).
 */
type Design = () => Promise<ComponentType<LanderProps>>;

export const LANDER_DESIGNS: Record<LanderName, Design> = {
  tinderswipe: () => import('./tinderswipe').then((m) => m.TinderswipeLander),
  alonetonight: () => import('./alonetonight').then((m) => m.AlonetonightLander),
  collagelanding: () => import('./collagelanding').then((m) => m.CollagelandingLander),
  gallery: () => import('./gallery').then((m) => m.GalleryLander),
  iconslanding: () => import('./iconslanding').then((m) => m.IconslandingLander),
  maplanding: () => import('./maplanding').then((m) => m.MaplandingLander),
  socialnetwork: () => import('./socialnetwork').then((m) => m.SocialnetworkLander),
  transitionsvideolanding: () => import('./transitionsvideolanding').then((m) => m.TransitionsvideolandingLander),
  video: () => import('./video').then((m) => m.VideoLander),
};

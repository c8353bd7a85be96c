import type { AppIcon } from '@amora/contracts';
import { type Site, type SiteBranding, siteBranding } from '../sites/sites.service';

/** The heart of the site's logo (apps/web/src/app/shell/logo.tsx, public/favicon.svg), on a 32-unit grid. */
const HEART = 'M16 25.5 6.6 16.3a5.6 5.6 0 0 1 7.9-7.9L16 9.9l1.5-1.5a5.6 5.6 0 0 1 7.9 7.9z';

interface IconShape {
  size: number;
  /** Corner radius of the coloured square on the 32-unit grid: the logo's 8, or 0 where the device cuts the shape. */
  radius: number;
  /** The heart's size against the logo's, about the centre. */
  heartScale: number;
}

/**
 * `any` icons are the logo as the top bar draws it. The maskable one fills the square and keeps the heart inside
 * the middle 80 % circle that every launcher mask leaves (W3C's safe zone); Apple's icon fills the square too
 * (iOS rounds the corners itself).
 */
const SHAPES: Record<AppIcon, IconShape> = {
  '192': { size: 192, radius: 8, heartScale: 1 },
  '512': { size: 512, radius: 8, heartScale: 1 },
  'maskable-512': { size: 512, radius: 0, heartScale: 0.85 },
  'apple-touch-180': { size: 180, radius: 0, heartScale: 0.85 },
};

function iconSvg({ size, radius, heartScale }: IconShape, branding: SiteBranding): string {
  return (
    `<svg xmlns="http://www.w3.org/2000/svg" width="${size}" height="${size}" viewBox="0 0 32 32">` +
    `<rect width="32" height="32" rx="${radius}" fill="${branding.themeColor}"/>` +
    `<path d="${HEART}" fill="#ffffff" transform="translate(16 16.5) scale(${heartScale}) translate(-16 -16.5)"/>` +
    '</svg>'
  );
}

/** Icons drawn so far, by icon and colour: each is drawn once per process, at its first request. */
const drawn = new Map<string, Promise<Buffer>>();

/**
 * An icon of the installed app in the site's colours, as PNG, drawn from the logo with sharp (loaded on the first
 * icon, like the photo pipeline loads it on the first photo). Nothing is fetched: the shape is the logo's path.
 */
export function appIcon(site: Pick<Site, 'name'>, icon: AppIcon): Promise<Buffer> {
  const branding = siteBranding(site);
  const key = `${icon}|${branding.themeColor}`;
  let png = drawn.get(key);
  if (!png) {
    png = import('sharp').then(({ default: sharp }) =>
      sharp(Buffer.from(iconSvg(SHAPES[icon], branding)))
        .png({ compressionLevel: 9 })
        .toBuffer(),
    );
    // A failed drawing is not kept: the next request tries again.
    png.catch(() => drawn.delete(key));
    drawn.set(key, png);
  }
  return png;
}

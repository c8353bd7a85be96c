import type { ReactNode } from 'react';

/**
 * The members-area banners (activation reminder, photo alert, push alert) as one compact strip under the top
 * bar: small type, one line each where it fits, at most a quarter of the screen high (it scrolls inside beyond
 * that), and nothing at all when no banner shows. A new members' banner is one more child of MemberBanners
 * (member-shell.tsx).
 */
export function BannerStrip({ children }: { children: ReactNode }) {
  return (
    <div className="banner-strip" data-testid="banner-strip">
      {children}
    </div>
  );
}

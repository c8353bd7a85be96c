import { type ReactNode, useEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';

/**
 * The members-area banners (time bonus or welcome discount, activation reminder, photo alert, push alert) as one
 * compact strip under the top bar: small type, one line each where it fits, and nothing at all when no banner
 * shows. From md up they stack (at most a quarter of the screen, scrolling inside beyond that). On phones the strip
 * is one banner high, at most a fifth of the screen: the first banner in front, the others behind it, reached with
 * the strip's "1/3" button; closing the one in front brings the next. Every banner is either one the member can
 * close or one they must act on (the activation reminder). A new members' banner is one more child of
 * MemberBanners (member-shell.tsx).
 *
 * Which banner is in front is CSS (data-front, 1 in the server's render too), so the page the server rendered
 * shows the same strip; the button joins once the app counts the banners.
 */
export function BannerStrip({ children }: { children: ReactNode }) {
  const { t } = useTranslation();
  const items = useRef<HTMLDivElement>(null);
  const [count, setCount] = useState(0);
  const [front, setFront] = useState(0);

  useEffect(() => {
    const element = items.current;
    if (!element) return;
    const update = () => setCount(element.childElementCount);
    update();
    const observer = new MutationObserver(update);
    observer.observe(element, { childList: true });
    return () => observer.disconnect();
  }, []);

  const shown = count > 0 ? (front % count) + 1 : 1;
  return (
    <div className="banner-strip" data-testid="banner-strip" data-front={shown}>
      <div className="banner-strip-items" ref={items}>
        {children}
      </div>
      {count > 1 && (
        <button type="button" className="banner-strip-next" onClick={() => setFront(shown % count)} data-testid="banner-strip-next">
          <span aria-hidden="true">
            {shown}/{count}
          </span>
          <svg viewBox="0 0 16 16" width="14" height="14" aria-hidden="true" focusable="false">
            <path d="m3 6 5 5 5-5" fill="none" stroke="currentColor" strokeWidth="2" strokeLinecap="round" strokeLinejoin="round" />
          </svg>
          <span className="visually-hidden">{t('nav.nextBanner', { shown, total: count })}</span>
        </button>
      )}
    </div>
  );
}

import { useEffect } from 'react';
import { useSettings } from './api/get-settings';

/**
 * The counts of spec §2's title prefix (unread messages, new likes), by source. Their sum prefixes the tab title
 * as "(N) " when above 0 and is shown on the app badge where the browser has one.
 */
const counts = new Map<string, number>();
let baseTitle: string | null = null;
let shownBadge: number | null = null;
const PREFIX = /^\(\d+\) /;

type BadgeNavigator = Navigator & { setAppBadge?: (count?: number) => Promise<void>; clearAppBadge?: () => Promise<void> };

function render(): void {
  let sum = 0;
  for (const value of counts.values()) sum += value;
  const base = baseTitle ?? document.title.replace(PREFIX, '');
  document.title = sum > 0 ? `(${sum}) ${base}` : base;
  if (shownBadge === sum) return;
  shownBadge = sum;
  const nav = navigator as BadgeNavigator;
  const done = sum > 0 ? nav.setAppBadge?.(sum) : nav.clearAppBadge?.();
  done?.catch(() => {});
}

/** Sets the tab title as "Page | Site", with the unread prefix of spec §2 when there is something new. */
export function usePageTitle(title: string | null): void {
  const settings = useSettings();
  useEffect(() => {
    baseTitle = title ? `${title} | ${settings.name}` : `${settings.name} – ${settings.index_title}`;
    render();
  }, [title, settings.name, settings.index_title]);
}

/** Adds `count` (e.g. new likes) to the title prefix and the app badge while the calling component is mounted. */
export function useTitleCount(source: string, count: number): void {
  useEffect(() => {
    counts.set(source, Math.max(0, count));
    render();
    return () => {
      counts.delete(source);
      render();
    };
  }, [source, count]);
}

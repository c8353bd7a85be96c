import { BREAKPOINTS } from '@amora/contracts/core';
import { useSyncExternalStore } from 'react';

/** On the server, for the length of one render (entry-server.tsx): whether the page is rendered for a phone. */
let serverPhone = false;

/**
 * In the browser: the server's guess for the page it rendered, which the app's first render (hydration) must
 * answer as the server did; React renders again right after if the screen says otherwise.
 */
export function setServerPhone(phone: boolean): void {
  serverPhone = phone;
}

/** Runs `render` (synchronous) with useIsPhone answering `phone` on the server. */
export function withServerPhone<T>(phone: boolean, render: () => T): T {
  serverPhone = phone;
  try {
    return render();
  } finally {
    serverPhone = false;
  }
}

/**
 * Whether a CSS media query matches now, following its changes (rotation, a resized window). On the server (and
 * while the app takes over a page the server rendered) it answers `serverValue`.
 */
export function useMediaQuery(query: string, serverValue = false): boolean {
  return useSyncExternalStore(
    (onChange) => {
      const list = window.matchMedia(query);
      list.addEventListener('change', onChange);
      return () => list.removeEventListener('change', onChange);
    },
    () => window.matchMedia(query).matches,
    () => serverValue,
  );
}

/** Below Bootstrap's md breakpoint (768 px, spec §9): the phone layout with the bottom tab bar. */
export function useIsPhone(): boolean {
  return useMediaQuery(`(max-width: ${BREAKPOINTS.md - 0.02}px)`, serverPhone);
}

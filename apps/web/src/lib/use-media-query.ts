import { BREAKPOINTS } from '@amora/contracts/core';
import { useSyncExternalStore } from 'react';
import { useServerPhone } from './page-request';

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

/**
 * Below Bootstrap's md breakpoint (768 px, spec §9): the phone layout with the bottom tab bar. On the server, and
 * while the app takes over the server's page, the layout the server guessed (lib/page-request.tsx).
 */
export function useIsPhone(): boolean {
  return useMediaQuery(`(max-width: ${BREAKPOINTS.md - 0.02}px)`, useServerPhone());
}

import { BREAKPOINTS } from '@amora/contracts/core';
import { useSyncExternalStore } from 'react';

/** Whether a CSS media query matches now, following its changes (rotation, a resized window). */
export function useMediaQuery(query: string): boolean {
  return useSyncExternalStore(
    (onChange) => {
      const list = window.matchMedia(query);
      list.addEventListener('change', onChange);
      return () => list.removeEventListener('change', onChange);
    },
    () => window.matchMedia(query).matches,
    () => false,
  );
}

/** Below Bootstrap's md breakpoint (768 px, spec §9): the phone layout with the bottom tab bar. */
export function useIsPhone(): boolean {
  return useMediaQuery(`(max-width: ${BREAKPOINTS.md - 0.02}px)`);
}

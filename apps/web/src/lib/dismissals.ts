import { SERVER_KNOWN_DISMISSALS } from '@amora/contracts/core';
import { useState } from 'react';
import { readCookie, writeCookie } from './cookies';
import { isHydratingServerPage } from './hydration';
import { useCookieReader } from './page-request';
import { storage } from './storage';

/** How long a dismissal is remembered in its cookie. */
const DISMISSAL_DAYS = 365;

/**
 * A banner dismissal that a member's page rendered by the server must know of (SERVER_KNOWN_DISMISSALS): kept in
 * this browser's storage and in a cookie of the same name, which the server reads (lib/cookies.ts answers from
 * the page's request there: `cookieOf` is useCookieReader() of lib/page-request.tsx), so its render and the app's
 * agree and nothing jumps when the app takes over.
 */
export function isDismissedForServer(key: string, cookieOf: (name: string) => string | null): boolean {
  // Taking over the server's page, the cookie alone, as the server read it.
  return cookieOf(key) !== null || (!isHydratingServerPage() && storage.isDismissed(key));
}

export function dismissForServer(key: string): void {
  storage.dismiss(key);
  writeCookie(key, '1', DISMISSAL_DAYS);
}

/** A members-area banner's dismissal the server knows of (above): whether it is dismissed, and dismissing it. */
export function useBannerDismissal(key: string): [isDismissed: boolean, dismiss: () => void] {
  const cookieOf = useCookieReader();
  const [isDismissed, setIsDismissed] = useState(() => isDismissedForServer(key, cookieOf));
  const dismiss = () => {
    dismissForServer(key);
    setIsDismissed(true);
  };
  return [isDismissed, dismiss];
}

/**
 * Dismissals kept in storage alone (from before the cookie): into the cookie too, so the next page agrees. Called
 * once the app's first render is on the screen, so that render still agrees with the server's.
 */
export function copyDismissalsToCookies(): void {
  for (const key of SERVER_KNOWN_DISMISSALS) {
    if (storage.isDismissed(key) && !readCookie(key)) writeCookie(key, '1', DISMISSAL_DAYS);
  }
}

import { afterEach, describe, expect, it } from 'vitest';
import { readCookie } from './cookies';
import { copyDismissalsToCookies, dismissForServer, isDismissedForServer } from './dismissals';

const clearCookie = (name: string) => {
  // biome-ignore lint/suspicious/noDocumentCookie: clearing the test's own cookie
  document.cookie = `${name}=; expires=Thu, 01 Jan 1970 00:00:00 GMT; Path=/`;
};

afterEach(() => {
  window.localStorage.clear();
  for (const name of ['hide-enrich-alert', 'hide-welcome-discount-banner']) clearCookie(name);
});

describe('dismissals the server knows of', () => {
  it('are kept in storage and in a cookie, and read from either', () => {
    expect(isDismissedForServer('hide-enrich-alert', readCookie)).toBe(false);
    dismissForServer('hide-enrich-alert');
    expect(readCookie('hide-enrich-alert')).toBe('1');
    expect(window.localStorage.getItem('hide-enrich-alert')).not.toBeNull();
    clearCookie('hide-enrich-alert');
    expect(isDismissedForServer('hide-enrich-alert', readCookie)).toBe(true);
  });

  it('go into the cookie when only storage had them (from before the cookie)', () => {
    window.localStorage.setItem('hide-welcome-discount-banner', '1700000000000');
    copyDismissalsToCookies();
    expect(readCookie('hide-welcome-discount-banner')).toBe('1');
    expect(readCookie('hide-enrich-alert')).toBeNull();
  });
});

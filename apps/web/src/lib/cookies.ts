/** A cookie's value in a Cookie header (`a=1; b=2`), or null. */
export function cookieOf(header: string, name: string): string | null {
  const prefix = `${encodeURIComponent(name)}=`;
  for (const part of header.split(/; ?/)) {
    if (part.startsWith(prefix)) return decodeURIComponent(part.slice(prefix.length));
  }
  return null;
}

/**
 * A cookie of this browser (null on the server, which has none: a component rendered there reads the request's
 * through lib/page-request.tsx, useCookieReader).
 */
export function readCookie(name: string): string | null {
  return typeof document === 'undefined' ? null : cookieOf(document.cookie, name);
}

export function writeCookie(name: string, value: string, days: number): void {
  const secure = window.location.protocol === 'https:' ? '; Secure' : '';
  // biome-ignore lint/suspicious/noDocumentCookie: one plain cookie, no need for the Cookie Store API's async flow
  document.cookie = `${encodeURIComponent(name)}=${encodeURIComponent(value)}; Max-Age=${days * 86_400}; Path=/; SameSite=Lax${secure}`;
}

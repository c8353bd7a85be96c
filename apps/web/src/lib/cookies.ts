/** The Cookie header of the page being rendered on the server (entry-server.tsx), for the length of one render. */
let serverCookies = '';

/** Runs `render` (synchronous: nothing else runs meanwhile) with readCookie answering from `header`. */
export function withServerCookies<T>(header: string, render: () => T): T {
  serverCookies = header;
  try {
    return render();
  } finally {
    serverCookies = '';
  }
}

export function readCookie(name: string): string | null {
  const prefix = `${encodeURIComponent(name)}=`;
  const cookies = typeof document === 'undefined' ? serverCookies : document.cookie;
  for (const part of cookies.split(/; ?/)) {
    if (part.startsWith(prefix)) return decodeURIComponent(part.slice(prefix.length));
  }
  return null;
}

export function writeCookie(name: string, value: string, days: number): void {
  const secure = window.location.protocol === 'https:' ? '; Secure' : '';
  // biome-ignore lint/suspicious/noDocumentCookie: one plain cookie, no need for the Cookie Store API's async flow
  document.cookie = `${encodeURIComponent(name)}=${encodeURIComponent(value)}; Max-Age=${days * 86_400}; Path=/; SameSite=Lax${secure}`;
}

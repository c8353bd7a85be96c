import { createContext, type ReactNode, useContext } from 'react';
import { cookieOf } from './cookies';

/**
 * What the render of a page knows of the request the browser would otherwise tell it: on the server
 * (entry-server.tsx) the page's cookies, whether it is rendered for a phone and the member's time zone; in the
 * browser, while the app takes over a page the server rendered (app/start.tsx), the layout the server guessed.
 * Given through React context, so renders of several pages at once (the server) never share them.
 */
export interface PageRequest {
  /** Whether the page is rendered for a phone (the server's guess from the browser's client hints or user agent). */
  phone: boolean;
  /** The request's Cookie header on the server; null in the browser, which reads document.cookie. */
  cookies: string | null;
  /** The member's IANA time zone (the browser's, as its cookie says) on the server; undefined: the browser's own. */
  timeZone: string | undefined;
}

const BROWSER: PageRequest = { phone: false, cookies: null, timeZone: undefined };
const PageRequestContext = createContext<PageRequest>(BROWSER);

export function PageRequestProvider({ value, children }: { value: Partial<PageRequest>; children: ReactNode }) {
  return <PageRequestContext.Provider value={{ ...BROWSER, ...value }}>{children}</PageRequestContext.Provider>;
}

/** Whether the page is rendered for a phone: the server's guess (false in the browser after the takeover). */
export function useServerPhone(): boolean {
  return useContext(PageRequestContext).phone;
}

/** A reader of the page's cookies: the request's on the server, document.cookie in the browser. */
export function useCookieReader(): (name: string) => string | null {
  const { cookies } = useContext(PageRequestContext);
  return (name) => cookieOf(cookies ?? (typeof document === 'undefined' ? '' : document.cookie), name);
}

/** The time zone times on the page are shown in: the member's on the server, undefined (the browser's own) here. */
export function useTimeZone(): string | undefined {
  return useContext(PageRequestContext).timeZone;
}

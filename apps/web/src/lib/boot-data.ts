import { BOOT_QUERIES_ID, type Locale, type Settings, type User } from '@amora/contracts/core';

/** The id of the data block the server writes into the page (apps/server/src/modules/page-data). */
export const BOOT_DATA_ID = 'boot-data';

/**
 * What the server put into the page for the first paint: the settings (as settings.php answers them), the
 * member (as GET user.php answers, null for a visitor) and the common catalogue, all in the language `locale`.
 */
export interface BootData {
  locale: Locale;
  settings: Settings;
  user: User | null;
  messages: Record<string, unknown>;
}

/**
 * Reads the page's data block once and removes it (what it holds then lives in the query cache and i18next).
 * Null when there is none (the dev server's page, a query the server left to settings.php) or it does not read.
 */
export function takeBootData(doc: Document = document): BootData | null {
  const element = doc.getElementById(BOOT_DATA_ID);
  if (!element) return null;
  element.remove();
  try {
    const data = JSON.parse(element.textContent ?? '') as BootData;
    return data && typeof data === 'object' && data.settings && typeof data.locale === 'string' ? data : null;
  } catch {
    return null;
  }
}

/** What a member's page the server rendered comes with: its answers and the layout it was rendered for. */
export interface BootQueries {
  /** TanStack Query's dehydrated state. */
  state: { queries: unknown[]; mutations?: unknown[] };
  /** Whether the server rendered the phone layout. */
  phone: boolean;
}

/**
 * The answers the server rendered a member's page from, and its layout, read once and removed; null when the
 * page has none or they do not read.
 */
export function takeBootQueries(doc: Document = document): BootQueries | null {
  const element = doc.getElementById(BOOT_QUERIES_ID);
  if (!element) return null;
  element.remove();
  try {
    const data = JSON.parse(element.textContent ?? '') as Partial<BootQueries>;
    return data && typeof data === 'object' && Array.isArray(data.state?.queries)
      ? { state: data.state, phone: data.phone === true }
      : null;
  } catch {
    return null;
  }
}

/** Business constants and limits of spec §9, in one place for the server and the web app. */
import { LOCALES, type Locale } from './locales';

export const LOCALE_COOKIE = 'i18n_redirected';
export const LOCALE_COOKIE_DAYS = 365;
export const SESSION_COOKIE = 'auth.session';
export const SESSION_DAYS = 30;
export const FORCED_HOST_PARAM = 'forced_host';
export const FORCED_HOST_COOKIE = 'forced_host';
export const TRACKING_COOKIE = 'tracking';
export const TRACKING_KEYS = ['network', 'ref', 'sub1', 'sub2', 'sub3'] as const;
export const CLIENT_HEADER = 'x-request-type';
export const CLIENT_HEADER_VALUE = 'client';

export const FREE_PHOTO_LIMIT = 3;
export const PREMIUM_PHOTO_LIMIT = 25;
export const SWIPE_LIKES_PER_DAY = 4;
export const REACTIVATION_DAYS = 14;
export const FREE_CONVERSATION_LIMIT = 2;
export const MIN_AGE = 18;

export const WELCOME_DISCOUNT_PERCENT = 25;
export const TIME_BONUS = { windowSeconds: 14400, code: 'TIMEBONUS25', percent: 25, tickMs: 1000 } as const;
export const TIME_BONUS_MODAL_DELAY_MS = 40_000;
export const LIKES_RELOAD_DELAY_MS = 500;
export const POLL = { startDelayMs: 5_000, intervalMs: 60_000, pushIntervalMs: 300_000 } as const;

export const ENTRY_WARNING_COUNTRIES = ['NL', 'DE'] as const;
export const CREDITS_BADGE_THRESHOLD = 10;
export const GEOLOCATION_MAX_AGE_MS = 3_600_000;
export const DEFAULT_TERMS_DATE = '2023-12-01';
export const CHUNK_RELOAD_INTERVAL_MS = 60_000;
export const CHUNK_RELOAD_STORAGE_KEY = 'chunk-reload-at';
export const ENTRY_WARNING_STORAGE_KEY = 'hide-entry-warning';
export const LOADING_BAR = { throttleMs: 200, durationMs: 5_000 } as const;
export const BREAKPOINTS = { sm: 576, md: 768, lg: 992, xl: 1200 } as const;
export const SEARCH_CARD_HEIGHT = 330;

export const ALERT_STORAGE_KEYS = {
  enrich: 'hide-enrich-alert',
  push: 'hide-push-notification-alert',
  disabledNotifications: 'hide-disabled-notifications-alert',
  timeBonus: 'hide-time-bonus-modal',
  welcomeDiscount: 'hide-welcome-discount-banner',
  timeBonusBanner: 'hide-time-bonus-banner',
} as const;

/**
 * The dismissals of the members-area banners that a member's page rendered by the server must know of (they
 * are kept in a cookie of the same name as well as in storage).
 */
export const SERVER_KNOWN_DISMISSALS = [
  ALERT_STORAGE_KEYS.enrich,
  ALERT_STORAGE_KEYS.welcomeDiscount,
  ALERT_STORAGE_KEYS.timeBonusBanner,
  ALERT_STORAGE_KEYS.disabledNotifications,
] as const;

/** The cookie with the browser's time zone (IANA name): the app writes it, the server's render of a member's page reads it. */
export const TIME_ZONE_COOKIE = 'tz';

/** The id of the data block with the answers a member's page was rendered from (server writes, app reads). */
export const BOOT_QUERIES_ID = 'boot-queries';
/**
 * The id of a lander page's own data block (apps/server plugins/lander-pages.ts → apps/web app/lander): the landers
 * catalogue of the page's language and the answers the server rendered the lander from (TanStack Query's dehydrated
 * state), or none when it did not render it.
 */
export const LANDER_DATA_ID = 'lander-data';

export const NICHES = [1, 2, 3, 4, 5, 6, 7] as const;
const NICHE_PREFIX: Record<number, string> = { 1: '', 2: 'she-', 3: 'bdsm-', 4: 'bbw-', 5: 'gilf-', 6: 'milf-', 7: 'gay-' };

/** Lander slug of spec §1: niche prefix plus locale, with en mapped to eng. */
export function landerSlug(niche: number, locale: string): string {
  return `${NICHE_PREFIX[niche] ?? ''}${locale === 'en' ? 'eng' : locale}`;
}

const LANDER_SLUGS: ReadonlySet<string> = new Set(NICHES.flatMap((niche) => LOCALES.map((locale) => landerSlug(niche, locale))));

/** Whether a lander path's slug is one that exists: some niche's prefix and one of our locales (en as eng). */
export function isLanderSlug(slug: string): boolean {
  return LANDER_SLUGS.has(slug);
}

/** The niche and locale a lander slug stands for (`milf-eng` → 6, en; `de` → 1, de); null for a slug that does not exist. */
export function parseLanderSlug(slug: string): { niche: number; locale: Locale } | null {
  if (!LANDER_SLUGS.has(slug)) return null;
  for (const niche of NICHES) {
    const prefix = NICHE_PREFIX[niche];
    if (niche !== 1 && !slug.startsWith(prefix)) continue;
    const rest = niche === 1 ? slug : slug.slice(prefix.length);
    const locale = rest === 'eng' ? 'en' : rest;
    if ((LOCALES as readonly string[]).includes(locale) && landerSlug(niche, locale) === slug) return { niche, locale: locale as Locale };
  }
  return null;
}

export const PAYMENT_LOGOS = ['mastercard', 'visa', 'applepay'] as const;
export const PAYMENT_METHODS = [
  'visa',
  'mastercard',
  'maestro',
  'creditcard',
  'paypal',
  'ideal',
  'bancontact',
  'blik',
  'giropay',
  'sofort',
  'eps',
  'applepay',
  'paysafecard',
  'postepay',
  'nexi',
  'cartebancaire',
  'banktransfer',
  'directdebit',
] as const;

export const INTERESTS = [
  'relationship',
  'kissing',
  'sports',
  'music',
  'travel',
  'cooking',
  'movies',
  'reading',
  'nature',
  'dancing',
  'art',
  'fitness',
  'gaming',
  'animals',
  'nightlife',
  'photography',
] as const;

/** Terms version date: 2023-12-01, or the company's start date when it was added later. */
export function termsDate(companyAdded: string | null | undefined): string {
  if (companyAdded && companyAdded > DEFAULT_TERMS_DATE) return companyAdded.slice(0, 10);
  return DEFAULT_TERMS_DATE;
}

/** Support phone as dialled: dashes and spaces removed (spec §2 footer). */
export function dialablePhone(phone: string): string {
  return phone.replace(/[-\s]/g, '');
}

/** The icon of fictional profiles a site has unless its operator gives it another (apps/web/public/fictional-icon.svg). */
export const DEFAULT_FICTIONAL_ICON = '/fictional-icon.svg';

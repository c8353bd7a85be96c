import { FALLBACK_LOCALE, type Locale } from '@amora/contracts/core';
import i18next, { type BackendModule, type i18n } from 'i18next';
import { initReactI18next } from 'react-i18next';
import { I18N_OPTIONS } from './i18n-options';

type Loader = () => Promise<Record<string, unknown>>;
/** Catalogues ship as hashed JSON files, fetched as data rather than parsed as JavaScript. */
const catalogueUrls = import.meta.glob<string>('../../../../packages/i18n/locales/*/{common,pages,payments,console,landers}.json', {
  query: '?url',
  import: 'default',
  eager: true,
});

function loaderFor(locale: string, ns: string): Loader | undefined {
  const url = catalogueUrls[`../../../../packages/i18n/locales/${locale}/${ns}.json`];
  if (!url) return undefined;
  return async () => {
    const response = await fetch(url);
    if (!response.ok) throw new Error(`Catalogue ${locale}/${ns}: HTTP ${response.status}`);
    return response.json();
  };
}

/** Catalogues are split per locale and namespace, so a visitor downloads only their own language. */
const lazyBackend: BackendModule = {
  type: 'backend',
  init() {},
  read(language, namespace, callback) {
    const load = loaderFor(language, namespace);
    if (!load) {
      callback(new Error(`No catalogue ${language}/${namespace}`), false);
      return;
    }
    load().then(
      (data) => callback(null, data as never),
      (error: Error) => callback(error, false),
    );
  },
};

/**
 * Starts i18next in `locale`. With `messages` (the common catalogue the server put into the page) nothing is
 * fetched before the first paint: the fallback language's catalogue, needed only for a key the page's language
 * lacks (the catalogue test allows none), comes in the background once the browser is idle.
 */
export async function initI18n(locale: Locale, messages?: Record<string, unknown>, instance: i18n = i18next): Promise<unknown> {
  const bundled = messages
    ? {
        // The other namespaces and languages still load through the backend.
        partialBundledLanguages: true,
        resources: { [locale]: { common: messages }, ...(locale === FALLBACK_LOCALE ? {} : { [FALLBACK_LOCALE]: { common: {} } }) },
      }
    : {};
  const t = await instance
    .use(lazyBackend)
    .use(initReactI18next)
    .init({
      ...I18N_OPTIONS,
      lng: locale,
      ...bundled,
    });
  const loadFallback = messages && locale !== FALLBACK_LOCALE ? loaderFor(FALLBACK_LOCALE, 'common') : undefined;
  if (loadFallback) {
    const later = (run: () => void) => (typeof requestIdleCallback === 'function' ? requestIdleCallback(run) : setTimeout(run, 1_000));
    later(() => {
      loadFallback().then(
        (data) => instance.addResourceBundle(FALLBACK_LOCALE, 'common', data, true, true),
        () => {},
      );
    });
  }
  return t;
}

export { i18next };

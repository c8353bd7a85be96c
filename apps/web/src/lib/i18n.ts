import { DEFAULT_LOCALE, FALLBACK_LOCALE, type Locale } from '@amora/contracts/core';
import i18next, { type BackendModule } from 'i18next';
import { initReactI18next } from 'react-i18next';

type Loader = () => Promise<Record<string, unknown>>;
/** Catalogues ship as hashed JSON files, fetched as data rather than parsed as JavaScript. */
const catalogueUrls = import.meta.glob<string>('../../../../packages/i18n/locales/*/{common,pages}.json', {
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

export function initI18n(locale: Locale): Promise<unknown> {
  return i18next
    .use(lazyBackend)
    .use(initReactI18next)
    .init({
      lng: locale,
      fallbackLng: FALLBACK_LOCALE,
      supportedLngs: ['da', 'de', 'en', 'es', 'fi', 'fr', 'it', 'nl', 'no', 'pl', 'sv'],
      ns: ['common'],
      defaultNS: 'common',
      load: 'currentOnly',
      interpolation: { escapeValue: false, prefix: '{', suffix: '}' },
      react: { useSuspense: true },
      returnNull: false,
    });
}

export { DEFAULT_LOCALE, i18next };

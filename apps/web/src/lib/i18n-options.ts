import { FALLBACK_LOCALE, LOCALES } from '@amora/contracts/core';
import type { InitOptions } from 'i18next';

/** i18next's options, the same in the browser (lib/i18n.ts) and for a page rendered on the server (entry-server.tsx). */
export const I18N_OPTIONS = {
  fallbackLng: FALLBACK_LOCALE,
  supportedLngs: [...LOCALES],
  ns: ['common'],
  defaultNS: 'common',
  load: 'currentOnly',
  interpolation: { escapeValue: false, prefix: '{', suffix: '}' },
  react: { useSuspense: true },
  returnNull: false,
} satisfies InitOptions;

import { i18next } from '@/lib/i18n';

/**
 * A text of the English catalogues as the page shows it: tests find elements by what a member reads, and stay
 * right when the wording of the catalogue changes.
 */
export function text(key: string, values?: Record<string, unknown>): string {
  return i18next.t(key, values ?? {}) as string;
}

import type { TFunction } from 'i18next';
import { ApiRequestError } from '@/lib/api-client';
import { consoleErrorText } from '../console-error';

/**
 * The field a refused save names (the server's `field`, e.g. `fictional_plural.en`, `methods.1.fee_minor`) and
 * the text to show under it: the server's own catalogue key when it gives one, else "this value is not accepted".
 */
export function fieldErrorOf(t: TFunction<'console'>, error: unknown): { field: string; text: string } | null {
  if (!(error instanceof ApiRequestError) || error.status !== 400 || !error.field) return null;
  const keyed = typeof error.body.message_key === 'string';
  return { field: error.field, text: keyed ? consoleErrorText(t, error) : t('console:sites.invalidValue') };
}

/** Whether an error names this field or a part of it (`hosts` for `hosts.0`). */
export const namesField = (error: { field: string } | null, field: string) =>
  error !== null && (error.field === field || error.field.startsWith(`${field}.`));

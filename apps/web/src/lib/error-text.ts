import type { TFunction } from 'i18next';
import { ApiRequestError } from '@/lib/api-client';

/**
 * The number a failed call's text counts, for its plural form: the server names it after what it counts
 * (the minutes of a login block, the photos a member may have).
 */
const COUNTED_FIELDS = ['count', 'minutes', 'limit'] as const;

function countOf(body: Record<string, unknown>): number | undefined {
  for (const field of COUNTED_FIELDS) {
    const value = body[field];
    if (typeof value === 'number') return value;
  }
  return undefined;
}

/** The member-facing text of a failed call: the catalogue key the server named, else the text for its code. */
export function errorText(t: TFunction, error: unknown): string {
  if (error instanceof ApiRequestError) {
    const key = error.body.message_key as string | undefined;
    const count = countOf(error.body);
    if (key) return t(key, { count: count ?? 0 });
    const byCode = t(`errorCodes.${error.code}`, { ...error.body, count, defaultValue: '' });
    if (byCode !== '') return byCode;
  }
  return t('errors.generic');
}

/** For a form: which field the server blamed, if any. */
export function errorField(error: unknown): string | undefined {
  return error instanceof ApiRequestError ? error.field : undefined;
}

import type { TFunction } from 'i18next';
import { ApiRequestError } from '@/lib/api-client';

/** The member-facing text of a failed call: the catalogue key the server named, else the text for its code. */
export function errorText(t: TFunction, error: unknown): string {
  if (error instanceof ApiRequestError) {
    const key = error.body.message_key as string | undefined;
    const minutes = error.body.minutes as number | undefined;
    if (key) return t(key, { minutes: minutes ?? 0 });
    const byCode = `errorCodes.${error.code}`;
    if (t(byCode, { defaultValue: '' }) !== '') return t(byCode, { ...error.body });
  }
  return t('errors.generic');
}

/** For a form: which field the server blamed, if any. */
export function errorField(error: unknown): string | undefined {
  return error instanceof ApiRequestError ? error.field : undefined;
}

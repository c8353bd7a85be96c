import type { TFunction } from 'i18next';
import { ApiRequestError } from '@/lib/api-client';
import { errorText } from '@/lib/error-text';

/**
 * The text of a failed console call: the server names its console errors by their key in the console namespace
 * (`console.errors.codeWrong`); anything else (throttling, a network failure) as the member app says it.
 */
export function consoleErrorText(t: TFunction<'console'>, error: unknown): string {
  const key = error instanceof ApiRequestError ? (error.body.message_key as string | undefined) : undefined;
  if (key?.startsWith('console.')) return t(key.slice('console.'.length) as never);
  if (error instanceof ApiRequestError && error.status === 429) return t('console:errors.tooManyAttempts');
  return errorText(t as unknown as TFunction, error);
}

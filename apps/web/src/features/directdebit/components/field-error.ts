import { useTranslation } from 'react-i18next';

/**
 * A field error's text: the contracts name catalogue keys, the direct-debit ones in the payments namespace and the
 * shared ones (errors.invalidCharacters) in common.
 */
export function useFieldErrorText(): (key: string | undefined) => string | null {
  const { t } = useTranslation('payments');
  return (key) => {
    if (!key) return null;
    return key.startsWith('directDebit.') ? t(key) : t(key, { ns: 'common' });
  };
}

import { useTranslation } from 'react-i18next';

/**
 * The console's mark of a fictional profile, beside its name wherever a page shows one (the inbox, the fictional
 * profiles, moderation): the console's word for one. Like the members' icon it carries `data-fictional-mark`,
 * which e2e/tests/fictional-label.spec.ts looks for in every element with a fictional profile's `data-profile-id`.
 */
export function FictionalBadge({ className }: { className?: string }) {
  const { t } = useTranslation('console');
  return (
    <span className={`badge text-bg-secondary${className ? ` ${className}` : ''}`} data-fictional-mark="">
      {t('inbox.fictional')}
    </span>
  );
}

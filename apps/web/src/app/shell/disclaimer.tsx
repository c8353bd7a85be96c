import { MIN_AGE } from '@amora/contracts/core';
import { useTranslation } from 'react-i18next';
import { useSettings } from '@/shared/site/api/get-settings';

/** Disclaimer of the default layout: adults only, and honest words about fictional profiles. */
export function Disclaimer() {
  const settings = useSettings();
  const { t } = useTranslation();
  return (
    <aside className="bg-light border-top py-3 small text-body-secondary" aria-label={t('disclaimer.label')}>
      <div className="container d-flex gap-2 align-items-start">
        <img src={settings.fictional_icon} alt="" width={20} height={20} className="flex-shrink-0 mt-1" />
        <p className="mb-0">
          {t('disclaimer.adults', { site: settings.name, minAge: MIN_AGE })} {settings.fictional_warning}
        </p>
      </div>
    </aside>
  );
}

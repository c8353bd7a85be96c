import { COUNTRY_LANGUAGES, type Country, LOCALE_INFO, type Locale } from '@amora/contracts/core';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';
import { useUser } from '@/shared/session/user';
import { useSettings } from '@/shared/site/api/get-settings';
import { countryName } from '@/shared/site/country-name';
import { useLocale } from '@/shared/site/use-locale';
import { usePageTitle } from '@/shared/site/use-page-title';
import { saveLanguage } from './api/save-language';
import { pathInLocale, rememberLocale } from './change-locale';

/** lang-config: every language of the site, those of the visitor's country first. */
export function LangConfigPage() {
  const settings = useSettings();
  const locale = useLocale();
  const navigate = useNavigate();
  const { t } = useTranslation();
  const user = useUser();
  usePageTitle(t('language.title'));
  const country = settings.geoip_country as Country | null;
  const preferred = country && COUNTRY_LANGUAGES[country] ? COUNTRY_LANGUAGES[country] : [];
  const ordered = [...settings.languages].sort((a, b) => Number(preferred.includes(b)) - Number(preferred.includes(a)));

  const handleChoose = (next: Locale) => {
    rememberLocale(next);
    if (user) void saveLanguage(next).catch(() => {});
    navigate(pathInLocale('/', '', next));
  };

  return (
    <main id="main" className="container py-5" style={{ maxWidth: 640 }}>
      <h1>{t('language.title')}</h1>
      <p className="lead">{t('language.intro')}</p>
      {country && preferred.length > 0 && (
        <p className="text-body-secondary">{t('language.forCountry', { country: countryName(country, locale) })}</p>
      )}
      <div className="list-group">
        {ordered.map((l) => (
          <button
            type="button"
            key={l}
            lang={l}
            className={`list-group-item list-group-item-action d-flex justify-content-between align-items-center${l === locale ? ' active' : ''}`}
            aria-current={l === locale ? 'true' : undefined}
            onClick={() => handleChoose(l)}
          >
            <span>{LOCALE_INFO[l].name}</span>
            <span className="small opacity-75">{LOCALE_INFO[l].iso}</span>
          </button>
        ))}
      </div>
    </main>
  );
}

export { LangConfigPage as Component };

import { LOCALE_INFO, type Locale } from '@amora/contracts/core';
import { useTranslation } from 'react-i18next';
import { useLocation, useNavigate } from 'react-router';
import { Menu } from '@/components/ui/menu';
import { useSettings } from '@/shared/site/api/get-settings';
import { LocalLink } from '@/shared/site/local-link';
import { useLocale } from '@/shared/site/use-locale';
import { pathInLocale, rememberLocale } from './change-locale';
import { visibleLocales } from './visible-locales';

export function LanguageDropdown({ onChange }: { onChange?: (locale: Locale) => void }) {
  const settings = useSettings();
  const locale = useLocale();
  const location = useLocation();
  const navigate = useNavigate();
  const { t } = useTranslation();

  const handleSelect = (next: Locale) => {
    if (next === locale) return;
    rememberLocale(next);
    onChange?.(next);
    navigate(pathInLocale(location.pathname, location.search, next));
  };

  return (
    <Menu
      label={
        <>
          <span className="visually-hidden">
            {t('language.choose')}
            {t('punctuation.colon')}
          </span>
          {locale.toUpperCase()}
        </>
      }
      testId="language-menu"
    >
      {(close) => (
        <>
          {visibleLocales(settings, locale).map((l) => (
            <li key={l}>
              <button
                type="button"
                lang={l}
                className={`dropdown-item${l === locale ? ' active' : ''}`}
                aria-current={l === locale ? 'true' : undefined}
                onClick={() => {
                  close();
                  handleSelect(l);
                }}
              >
                {LOCALE_INFO[l].name}
              </button>
            </li>
          ))}
          <li>
            <hr className="dropdown-divider" />
          </li>
          <li>
            <LocalLink className="dropdown-item" to="/lang-config" onClick={close}>
              {t('language.more')}
            </LocalLink>
          </li>
        </>
      )}
    </Menu>
  );
}

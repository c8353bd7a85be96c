import { useEffect } from 'react';
import { useTranslation } from 'react-i18next';

/** The tab's title: the page's, then the console's name. */
export function useConsoleTitle(title: string): void {
  const { t } = useTranslation('console');
  const brand = t('brand');
  useEffect(() => {
    document.title = `${title} · ${brand}`;
  }, [title, brand]);
}

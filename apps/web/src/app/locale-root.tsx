import { splitLocalePath } from '@amora/contracts/core';
import { useEffect } from 'react';
import { useTranslation } from 'react-i18next';
import { Outlet, ScrollRestoration, useLocation, useNavigation } from 'react-router';
import { LoadingBar } from '@/components/ui/loading-bar';

/** Root of every route: keeps i18next and <html lang> on the path's locale, shows the loading bar. */
export function LocaleRoot() {
  const { pathname } = useLocation();
  const { i18n } = useTranslation();
  const navigation = useNavigation();
  const { locale } = splitLocalePath(pathname);

  useEffect(() => {
    if (i18n.language !== locale) void i18n.changeLanguage(locale);
    document.documentElement.lang = locale;
  }, [locale, i18n]);

  return (
    <>
      <LoadingBar isLoading={navigation.state === 'loading'} />
      <Outlet />
      <ScrollRestoration />
    </>
  );
}

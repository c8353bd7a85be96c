import { splitLocalePath } from '@amora/contracts/core';
import { useQueryClient } from '@tanstack/react-query';
import { useEffect } from 'react';
import { useTranslation } from 'react-i18next';
import { type Location, Outlet, ScrollRestoration, useLocation, useNavigation } from 'react-router';
import { ConfirmProvider } from '@/components/ui/confirm';
import { LoadingBar } from '@/components/ui/loading-bar';
import { ToastProvider } from '@/components/ui/toast';
import { SignupModalProvider } from '@/features/auth/components/signup-modal';
import { MatchModalProvider } from '@/features/likes/components/match-modal';
import { onAuthenticationLost } from '@/lib/api-client';
import { endTakeover } from '@/lib/hydration';
import { setSessionUser } from '@/shared/session/user';

/**
 * The key a page's scroll position is kept under. Every page the browser loads anew (a reload, the way back from
 * the payment provider) has React Router's key "default", so one page's position would be given to the next page
 * loaded anew; such a page is keyed by its path instead.
 */
const scrollKey = (location: Location) => (location.key === 'default' ? location.pathname : location.key);

/** Root of every route: keeps i18next and <html lang> on the path's locale, shows the loading bar; toasts and confirmations for every page. */
export function LocaleRoot() {
  const { pathname } = useLocation();
  const { i18n } = useTranslation();
  const navigation = useNavigation();
  const { locale } = splitLocalePath(pathname);
  const queryClient = useQueryClient();

  useEffect(() => {
    if (i18n.language !== locale) void i18n.changeLanguage(locale);
    document.documentElement.lang = locale;
  }, [locale, i18n]);

  // The first render, which took over a server-rendered page, is done (or, with a page body hydrated on its own
  // after the shell, app/layouts/page-outlet.tsx, that body's is).
  useEffect(() => endTakeover(), []);

  useEffect(
    () =>
      onAuthenticationLost(() => {
        setSessionUser(queryClient, null);
      }),
    [queryClient],
  );

  return (
    <ToastProvider>
      <ConfirmProvider>
        <SignupModalProvider>
          <MatchModalProvider>
            <LoadingBar isLoading={navigation.state === 'loading'} />
            <Outlet />
            <ScrollRestoration getKey={scrollKey} />
          </MatchModalProvider>
        </SignupModalProvider>
      </ConfirmProvider>
    </ToastProvider>
  );
}

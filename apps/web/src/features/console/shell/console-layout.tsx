import { isLocale, LOCALE_INFO, type Locale } from '@amora/contracts/core';
import { useQuery } from '@tanstack/react-query';
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, NavLink, Outlet, useNavigate } from 'react-router';
import { Button } from '@/components/ui/button';
import { ConfirmProvider } from '@/components/ui/confirm';
import { meQuery, useSignOut } from '../api/console';
import { consoleErrorText } from '../console-error';
import { sectionsFor } from '../sections';
import { SignIn } from '../sign-in/sign-in';
import './console.css';

/** The language the console was last switched to in this tab (English or the staff member's own). */
const LANGUAGE_KEY = 'amora.console.language';

/**
 * The console in the staff member's language (their `language`), or in English when they switch to it: the two
 * languages every console page is written in.
 */
function useConsoleLanguage(own: string | undefined) {
  const { i18n } = useTranslation('console');
  const ownLocale: Locale = isLocale(own) ? own : 'en';
  const [chosen, setChosen] = useState<Locale | null>(() => {
    const kept = window.sessionStorage.getItem(LANGUAGE_KEY);
    return isLocale(kept) ? kept : null;
  });
  const language: Locale = chosen === 'en' || chosen === ownLocale ? chosen : ownLocale;
  useEffect(() => {
    if (i18n.language !== language) void i18n.changeLanguage(language);
    document.documentElement.lang = language;
  }, [i18n, language]);
  const other: Locale | null = ownLocale === 'en' ? null : language === 'en' ? ownLocale : 'en';
  const switchTo = (next: Locale) => {
    window.sessionStorage.setItem(LANGUAGE_KEY, next);
    setChosen(next);
  };
  return { other, switchTo };
}

/**
 * The console's frame: the sign-in while nobody is signed in; then a top bar (who, their role, the language,
 * sign-out), the nav of the sections their role may see, and the page.
 */
export function ConsoleLayout() {
  const { t } = useTranslation('console');
  const me = useQuery(meQuery);
  const signOut = useSignOut();
  const navigate = useNavigate();
  const { other, switchTo } = useConsoleLanguage(me.data?.language);

  if (me.isPending) {
    return (
      <div className="console-loading" role="status" aria-live="polite">
        <span className="spinner-border" aria-hidden="true" />
        <span className="visually-hidden">{t('loading')}</span>
      </div>
    );
  }
  if (me.isError) {
    return (
      <main className="console-sign-in">
        <div className="alert alert-danger" role="alert">
          {consoleErrorText(t, me.error)}{' '}
          <button type="button" className="btn btn-link p-0 align-baseline" onClick={() => void me.refetch()}>
            {t('retry')}
          </button>
        </div>
      </main>
    );
  }
  const staff = me.data;
  if (!staff) return <SignIn />;

  return (
    <ConfirmProvider>
      <div className="console">
        <header className="console-top" data-testid="console-top">
          <Link to="/console" className="console-brand">
            {t('brand')}
          </Link>
          <div className="console-who" data-testid="console-who">
            <span className="fw-semibold">{staff.name}</span>
            <span className="badge text-bg-light" data-testid="console-role">
              {t(`roles.${staff.role}`)}
            </span>
          </div>
          <div className="console-actions">
            {other && (
              <button
                type="button"
                className="btn btn-sm btn-outline-light"
                lang={other}
                onClick={() => switchTo(other)}
                data-testid="console-language"
              >
                {LOCALE_INFO[other].name}
              </button>
            )}
            <Button
              variant="light"
              size="sm"
              isLoading={signOut.isPending}
              onClick={() => signOut.mutate(undefined, { onSettled: () => navigate('/console', { replace: true }) })}
              testId="console-sign-out"
            >
              {t('signOut')}
            </Button>
          </div>
        </header>
        <div className="console-body">
          <nav className="console-nav" aria-label={t('nav.label')}>
            <ul className="nav nav-pills flex-column gap-1" data-testid="console-nav">
              <li className="nav-item">
                <NavLink to="/console" end className="nav-link">
                  {t('nav.home')}
                </NavLink>
              </li>
              {sectionsFor(staff.role).map((section) => (
                <li className="nav-item" key={section.path}>
                  <NavLink to={`/console/${section.path}`} className="nav-link" data-testid={`nav-${section.path}`}>
                    {t(section.label as never)}
                  </NavLink>
                </li>
              ))}
            </ul>
          </nav>
          <main className="console-main" id="console-main">
            <Outlet />
          </main>
        </div>
      </div>
    </ConfirmProvider>
  );
}

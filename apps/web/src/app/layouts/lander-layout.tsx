import { ENTRY_WARNING_COUNTRIES } from '@amora/contracts/core';
import { Outlet } from 'react-router';
import { EntryWarning } from '@/app/shell/entry-warning';
import { Footer } from '@/app/shell/footer';
import { Logo } from '@/app/shell/logo';
import { useUser } from '@/shared/session/user';
import { useFooterMode } from './use-footer-mode';

/** Lander layout: small navbar with the logo, footer (its variant as on the default layout), entry warning for NL and DE. */
export function LanderLayout() {
  const footerMode = useFooterMode();
  return (
    <>
      <header className="navbar bg-white border-bottom py-1">
        <div className="container">
          <Logo />
        </div>
      </header>
      <Outlet />
      <Footer mode={footerMode} />
      <EntryWarning countries={ENTRY_WARNING_COUNTRIES} isLoggedIn={useUser() !== null} />
    </>
  );
}

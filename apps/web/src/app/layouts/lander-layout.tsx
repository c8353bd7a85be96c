import { ENTRY_WARNING_COUNTRIES } from '@amora/contracts/core';
import { Outlet } from 'react-router';
import { useUser } from '@/features/auth/api/user';
import { EntryWarning } from '@/features/layout/entry-warning';
import { Footer } from '@/features/layout/footer';
import { Logo } from '@/features/layout/logo';

/** Lander layout: small navbar with the logo, footer, entry warning for NL and DE. */
export function LanderLayout() {
  return (
    <>
      <header className="navbar bg-white border-bottom py-1">
        <div className="container">
          <Logo />
        </div>
      </header>
      <Outlet />
      <Footer />
      <EntryWarning countries={ENTRY_WARNING_COUNTRIES} isLoggedIn={useUser() !== null} />
    </>
  );
}

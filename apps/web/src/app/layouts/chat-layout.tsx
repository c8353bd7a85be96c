import { ENTRY_WARNING_COUNTRIES } from '@amora/contracts/core';
import { Outlet } from 'react-router';
import { EntryWarning } from '@/app/shell/entry-warning';
import { useUser } from '@/shared/session/user';

/** Chat layout: bare; the entry warning only for NL and DE (spec §2, §9). */
export function ChatLayout() {
  return (
    <>
      <Outlet />
      <EntryWarning countries={ENTRY_WARNING_COUNTRIES} isLoggedIn={useUser() !== null} />
    </>
  );
}

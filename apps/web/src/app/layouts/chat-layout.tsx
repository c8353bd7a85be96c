import { ENTRY_WARNING_COUNTRIES } from '@amora/contracts/core';
import { Outlet } from 'react-router';
import { EntryWarning } from '@/app/shell/entry-warning';
import { useMemberShell } from '@/app/shell/member-parts';
import { useUser } from '@/shared/session/user';

/**
 * Chat layout: bare; the entry warning only for NL and DE (spec §2, §9). The chats are in the members area, so a
 * member's likes (title count, auto-like) and unread messages run here as in the default layout.
 */
export function ChatLayout() {
  const user = useUser();
  const member = useMemberShell(user !== null);
  return (
    <>
      <Outlet />
      <EntryWarning countries={ENTRY_WARNING_COUNTRIES} isLoggedIn={user !== null} />
      {member && <member.MemberBackground />}
    </>
  );
}

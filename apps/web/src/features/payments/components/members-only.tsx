import type { ReactNode } from 'react';
import { Navigate, useLocation } from 'react-router';
import { useUser } from '@/shared/session/user';
import { useLocalePath } from '@/shared/site/use-locale';

/** A members' page: a visitor is sent to the login, which brings them back here afterwards. */
export function MembersOnly({ children }: { children: ReactNode }) {
  const user = useUser();
  const localize = useLocalePath();
  const location = useLocation();
  if (!user) {
    const back = `${location.pathname}${location.search}`;
    return <Navigate to={`${localize('/login')}?redirect=${encodeURIComponent(back)}`} replace />;
  }
  return <>{children}</>;
}

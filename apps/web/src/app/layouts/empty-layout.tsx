import { Outlet } from 'react-router';

/** Empty layout: the page alone (the signup modal joins it with accounts). */
export function EmptyLayout() {
  return <Outlet />;
}

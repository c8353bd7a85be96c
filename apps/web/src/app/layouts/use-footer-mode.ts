import type { FooterMode } from '@/app/shell/footer';
import { useIsInstalledApp } from '@/lib/installed-app';
import { useUser } from '@/shared/session/user';

/** Which footer variant of spec §2 the page gets: installed app, else logged in or out. */
export function useFooterMode(): FooterMode {
  const user = useUser();
  const isInstalled = useIsInstalledApp();
  if (isInstalled) return 'installed-app';
  return user ? 'logged-in' : 'logged-out';
}

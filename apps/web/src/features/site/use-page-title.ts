import { useEffect } from 'react';
import { useSettings } from './api/get-settings';

/** Sets the tab title as "Page | Site" (the unread prefix of spec §2 is added by the title badge). */
export function usePageTitle(title: string | null): void {
  const settings = useSettings();
  useEffect(() => {
    document.title = title ? `${title} | ${settings.name}` : `${settings.name} – ${settings.index_title}`;
  }, [title, settings.name, settings.index_title]);
}
